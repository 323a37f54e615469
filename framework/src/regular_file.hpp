#pragma once

// Reading the files polydev is pointed at (~/.cuda_device, polydev.yaml, report inputs, program
// cache entries). Any of them may be a FIFO, a device such as /dev/zero, a directory, a dangling
// link or hundreds of megabytes: only regular files are read, never more than a cap, and opening
// never blocks. Everything else is an error that names the path and what it is.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace polydev::detail {

/// The caps on what polydev reads: settings files are a line, a configuration or a report is text a
/// person or a test run wrote, a cached program binary can be large.
inline constexpr std::size_t kSettingFileLimit = 4 * 1024;          // ~/.cuda_device
inline constexpr std::size_t kTextFileLimit = 64 * 1024 * 1024;     // polydev.yaml, XML
inline constexpr std::size_t kCacheEntryLimit = 256 * 1024 * 1024;  // program binaries

/// Why a file could not be read. `what()` is "<path>: <reason>", e.g. "/tmp/x: a FIFO, not a
/// regular file"; `missing()` tells that nothing exists at the path (not even a dangling link).
class file_error : public std::runtime_error {
 public:
  file_error(const std::string& path, const std::string& reason, bool missing = false);
  const std::string& reason() const noexcept { return reason_; }
  bool missing() const noexcept { return missing_; }

 private:
  std::string reason_;
  bool missing_;
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
