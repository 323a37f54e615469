#pragma once

/// @file
/// Reading the files polydev is pointed at (~/.cuda_device, polydev.yaml, report inputs, program
/// cache entries). Any of them may be a FIFO, a device such as /dev/zero, a directory, a dangling
/// link or hundreds of megabytes: only regular files are read, never more than a cap, and opening
/// never blocks. Everything else is an error that names the path and what it is. Not part of the
/// API: public only because polydev's test layer (polydev.yaml, a fresh process's report) reads
/// files through the same function.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace polydev::detail {

/// The caps on what polydev reads: settings files are a line, a configuration or a report is text a
/// person or a test run wrote, a cached program binary can be large.
inline constexpr std::size_t kSettingFileLimit = 4 * 1024;          // ~/.cuda_device
inline constexpr std::size_t kTextFileLimit = 64 * 1024 * 1024;     // polydev.yaml, XML
inline constexpr std::size_t kCacheEntryLimit = 256 * 1024 * 1024;  // program binaries

/// Why a file could not be read. `what()` is "<path>: <reason>", e.g. "/tmp/x: a FIFO, not a
/// regular file"; `kind()` sorts the reasons for callers that treat them differently (a cache
/// replaces an oversize entry but leaves a directory alone).
class file_error : public std::runtime_error {
 public:
  enum class Kind {
    missing,           ///< nothing exists at the path (not even a dangling link)
    not_regular_file,  ///< a directory, FIFO, device, socket, dangling link or link loop
    too_large,         ///< a regular file over the limit
    unreadable,        ///< open or read failed (permissions, I/O error): strerror's text
  };
  file_error(const std::string& path, const std::string& reason, Kind kind);
  /// As above, with `Kind::missing` or `Kind::unreadable`.
  file_error(const std::string& path, const std::string& reason, bool missing = false);
  const std::string& reason() const noexcept { return reason_; }
  Kind kind() const noexcept { return kind_; }
  bool missing() const noexcept { return kind_ == Kind::missing; }

 private:
  std::string reason_;
  Kind kind_;
};

/// The whole content of the regular file at `path`, at most `limit` bytes. Throws `file_error` for
/// anything else: no such file, a dangling link or a link loop, a directory, a FIFO, a device, a
/// socket, a file larger than `limit`, or a read error (with strerror's text).
std::string read_regular_file(const std::string& path, std::size_t limit);

/// As `read_regular_file`, but nothing (instead of an error) when nothing exists at `path`. A
/// dangling link, a link loop or a file that cannot be read is still an error.
std::optional<std::string> read_regular_file_if_present(const std::string& path, std::size_t limit);

/// What the file system object at `path` is, in words ("a directory", "a FIFO", ...), as used in
/// the messages above; "a regular file" for one.
std::string describe_file_type(const std::string& path);

}  // namespace polydev::detail
