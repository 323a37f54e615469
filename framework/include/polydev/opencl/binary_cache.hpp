#pragma once

/// @file
/// Program binaries keyed by device, source and build options, kept in memory and in a folder, so
/// that a program compiled once for a kind of device is made again from its binary
/// (`clCreateProgramWithBinary`) in later contexts and later runs. This is what PyOpenCL's on-disk
/// binary cache does for `Program.build()`. `build_program` (program_cache.hpp) uses the
/// process-wide cache; the class is public so that tests and tools can use one of their own.
/// Needs the OpenCL backend.

#include <CL/opencl.hpp>
#include <cstddef>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace polydev::opencl {

/// Where the process-wide binary cache keeps its files, as the environment says.
///
/// - `POLYDEV_NO_CACHE=1`: no binary cache at all; every new context builds from source.
///   `0` or empty: the cache is on. Any other value is an error.
/// - The folder is `POLYDEV_CACHE_DIR` when set and not empty, else
///   `$XDG_CACHE_HOME/polydev/programs`, else `$HOME/.cache/polydev/programs`; with none of them
///   set the cache lives in memory only.
struct BinaryCacheSettings {
  bool enabled = true;
  std::optional<std::filesystem::path> folder;  ///< none: memory only
};

/// Reads `BinaryCacheSettings` from the environment.
/// @throws polydev::error naming `POLYDEV_NO_CACHE` and the accepted values when its value is not
/// `0`, `1` or empty.
BinaryCacheSettings binary_cache_settings_from_environment();

/// True when `build_program` may cache binaries of this program: when every file its source
/// reaches through `#include` was found and read (`program_includes` in program_cache.hpp, whose
/// `problem` says why not), so that the key can cover their content.
bool binary_cacheable(const std::string& source, const std::string& options);

/// Binaries in memory, and in a folder when one is given. Thread-safe; several processes may share
/// one folder (a file is written under a temporary name and renamed into place, so a reader sees a
/// whole file or none).
///
/// Folder problems never fail a build: a folder that cannot be created or written, or an entry
/// that cannot be used, costs a warning on stderr (once per problem and file) and a build from
/// source. A damaged entry (another layout, cut short, a checksum that does not match, larger than
/// `detail::kCacheEntryLimit`) is removed so that the next store replaces it; an entry that is not
/// a regular file (a directory, a FIFO, a link) is left alone and its program kept in memory only.
class ProgramBinaryCache {
 public:
  using Binary = std::vector<unsigned char>;

  /// How the cache was used so far (for tests and `polydev` diagnostics).
  struct Statistics {
    std::size_t memory_hits = 0;     ///< found in memory
    std::size_t file_hits = 0;       ///< found in the folder (and now in memory too)
    std::size_t misses = 0;          ///< found nowhere
    std::size_t stores = 0;          ///< binaries stored
    std::size_t damaged_files = 0;   ///< files that were not a whole cache entry, removed
    std::size_t unusable_files = 0;  ///< entries that are no readable regular file, left alone
  };

  /// A cache in memory, backed by `folder` when given (created on the first store).
  explicit ProgramBinaryCache(std::optional<std::filesystem::path> folder = std::nullopt);

  /// The key of a program for one device: what identifies the device's compiler (platform name and
  /// version, device name, vendor, version and driver version, address bits), then the options,
  /// the source and, when it includes files, `included` (`ProgramIncludes::key`: their paths and
  /// content), each with its length so that no two different inputs give one key.
  static std::string key(const cl::Device& device, const std::string& source,
                         const std::string& options, const std::string& included = {});

  /// The file that holds `key`'s binary: a 64-bit FNV-1a hash of the key in hex, `.bin`. The file
  /// repeats the whole key, so two keys with one hash are told apart (the later store wins), and
  /// a checksum of key and binary, so that changed bytes are detected before a driver sees them.
  std::filesystem::path file_for(const std::string& key) const;

  /// The binary stored for `key`, from memory or else from the folder.
  std::optional<Binary> find(const std::string& key);

  /// Keeps `binary` for `key` in memory and, when there is a folder, in its file.
  void store(const std::string& key, const Binary& binary);

  /// Drops `key` from memory and the folder (a driver refused its binary).
  void forget(const std::string& key);

  Statistics statistics() const;
  const std::optional<std::filesystem::path>& folder() const noexcept { return folder_; }

 private:
  std::optional<Binary> read_file(const std::string& key);
  void write_file(const std::string& key, const Binary& binary);
  void discard_damaged(const std::filesystem::path& path, const std::string& problem);
  void warn_once(const std::string& kind, const std::string& message);

  std::optional<std::filesystem::path> folder_;
  mutable std::mutex mutex_;
  std::map<std::string, Binary> memory_;
  Statistics statistics_;
  std::set<std::string> warned_;
};

/// The process-wide cache behind `build_program`, made on first use from
/// `binary_cache_settings_from_environment()`; null when `POLYDEV_NO_CACHE=1`.
/// @throws polydev::error on the first call when the environment is invalid (and on every later
/// call, until it is fixed).
ProgramBinaryCache* process_binary_cache();

}  // namespace polydev::opencl
