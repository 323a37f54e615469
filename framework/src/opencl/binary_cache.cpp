#include "polydev/opencl/binary_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string_view>
#include <system_error>
#include <utility>

#include "io/printable.hpp"
#include "opencl/program_cache_entry.hpp"
#include "polydev/detail/environment.hpp"
#include "polydev/detail/regular_file.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/program_cache.hpp"

namespace polydev::opencl {

namespace {

// A path in a warning: escaped, and cut where it is longer than any real path (a POLYDEV_CACHE_DIR
// of 15 KB made every warning 15 KB), but not at a value's 80 bytes, which real cache paths pass.
std::string quoted_path(const std::string& path) { return detail::quote(path, 1024); }

// A name no other writer uses at the same time, in this process or another.
std::string temporary_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  static const std::uint64_t process_random = []() -> std::uint64_t {
    try {
      return std::uint64_t{std::random_device{}()} * std::uint64_t{0x100000001};
    } catch (const std::exception&) {  // no entropy source: the process id is unique on this host
      return (static_cast<std::uint64_t>(::getpid()) << 20) ^
             static_cast<std::uint64_t>(
                 std::chrono::steady_clock::now().time_since_epoch().count());
    }
  }();
  return ".tmp." + std::to_string(process_random) + "." + std::to_string(counter++);
}

// The rename of a new entry would put a regular file in the place of a FIFO, a device or a link
// that someone made there: only a regular file (or nothing) is replaced.
bool replaceable(const std::filesystem::path& path) {
  std::error_code failure;
  const std::filesystem::file_status status = std::filesystem::symlink_status(path, failure);
  return !std::filesystem::exists(status) || std::filesystem::is_regular_file(status);
}

}  // namespace

BinaryCacheSettings binary_cache_settings_from_environment() {
  BinaryCacheSettings settings;
  if (const auto no_cache = detail::environment_variable("POLYDEV_NO_CACHE")) {
    if (*no_cache == "1") {
      settings.enabled = false;
    } else if (!no_cache->empty() && *no_cache != "0") {
      throw error("POLYDEV_NO_CACHE=" + detail::quote(*no_cache) +
                  " is not understood: use 1 to build every program from source, or 0 (or an "
                  "empty value) to keep compiled programs in polydev's binary cache");
    }
  }
  if (const auto folder = detail::environment_variable("POLYDEV_CACHE_DIR");
      folder && !folder->empty()) {
    settings.folder = std::filesystem::path(*folder);
  } else if (const auto xdg = detail::environment_variable("XDG_CACHE_HOME");
             xdg && !xdg->empty()) {
    settings.folder = std::filesystem::path(*xdg) / "polydev" / "programs";
  } else if (const auto home = detail::environment_variable("HOME"); home && !home->empty()) {
    settings.folder = std::filesystem::path(*home) / ".cache" / "polydev" / "programs";
  }
  return settings;
}

bool binary_cacheable(const std::string& source, const std::string& options) {
  return program_includes(source, options).problem.empty();
}

ProgramBinaryCache::ProgramBinaryCache(std::optional<std::filesystem::path> folder)
    : folder_(std::move(folder)) {}

std::string ProgramBinaryCache::key(const cl::Device& device, const std::string& source,
                                    const std::string& options, const std::string& included) {
  // Through the C API: the C++ bindings' getInfo<CL_DEVICE_PLATFORM>() gives a cl_platform_id in
  // Debian 12's version and a cl::Platform in later ones.
  cl_platform_id platform_id = nullptr;
  check(clGetDeviceInfo(device(), CL_DEVICE_PLATFORM, sizeof(platform_id), &platform_id, nullptr),
        "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
  const cl::Platform platform(platform_id);
  std::string key;
  detail::append_key_field(key, "platform", platform.getInfo<CL_PLATFORM_NAME>());
  detail::append_key_field(key, "platform-version", platform.getInfo<CL_PLATFORM_VERSION>());
  detail::append_key_field(key, "device", device.getInfo<CL_DEVICE_NAME>());
  detail::append_key_field(key, "vendor", device.getInfo<CL_DEVICE_VENDOR>());
  detail::append_key_field(key, "device-version", device.getInfo<CL_DEVICE_VERSION>());
  detail::append_key_field(key, "driver-version", device.getInfo<CL_DRIVER_VERSION>());
  detail::append_key_field(key, "address-bits",
                           std::to_string(device.getInfo<CL_DEVICE_ADDRESS_BITS>()));
  detail::append_key_field(key, "options", options);
  detail::append_key_field(key, "source", source);
  // Only with includes: the keys of programs without any stay those of earlier polydev versions,
  // whose files remain valid.
  if (!included.empty()) detail::append_key_field(key, "included", included);
  return key;
}

std::filesystem::path ProgramBinaryCache::file_for(const std::string& key) const {
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx.bin",
                static_cast<unsigned long long>(detail::fnv1a_64(key)));
  return folder_ ? *folder_ / name : std::filesystem::path(name);
}

std::optional<ProgramBinaryCache::Binary> ProgramBinaryCache::find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto found = memory_.find(key); found != memory_.end()) {
    ++statistics_.memory_hits;
    return found->second;
  }
  if (folder_) {
    if (auto binary = read_file(key)) {
      ++statistics_.file_hits;
      memory_.emplace(key, *binary);
      return binary;
    }
  }
  ++statistics_.misses;
  return std::nullopt;
}

void ProgramBinaryCache::store(const std::string& key, const Binary& binary) {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_[key] = binary;
  ++statistics_.stores;
  if (folder_) write_file(key, binary);
}

void ProgramBinaryCache::forget(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_.erase(key);
  if (folder_) {
    std::error_code ignored;  // a file that is already gone is what was wanted
    std::filesystem::remove(file_for(key), ignored);
  }
}

ProgramBinaryCache::Statistics ProgramBinaryCache::statistics() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return statistics_;
}

// The layout is program_cache_entry.hpp's. An entry that cannot be used costs a warning and a
// build from source, never the build: the caller stores the new binary, which replaces a damaged
// or unreadable regular file; anything else at the path (a directory, a FIFO, a link) is left to
// whoever put it there.
std::optional<ProgramBinaryCache::Binary> ProgramBinaryCache::read_file(const std::string& key) {
  const std::filesystem::path path = file_for(key);
  std::optional<std::string> contents;
  try {
    contents = detail::read_regular_file_if_present(path.string(), detail::kCacheEntryLimit);
  } catch (const detail::file_error& failure) {
    if (failure.kind() == detail::file_error::Kind::too_large) {
      discard_damaged(path, failure.reason());
    } else {
      ++statistics_.unusable_files;
      warn_once("unusable:" + path.string(),
                "cannot use the program cache file " + quoted_path(path.string()) + ": " +
                    failure.reason() + "; the program is built from source" +
                    (replaceable(path) ? std::string(", and the file is replaced")
                                       : std::string(", and the file is left as it is (remove it "
                                                     "so that the cache can keep this program)")));
    }
    return std::nullopt;
  }
  if (!contents) return std::nullopt;  // not cached yet
  const detail::ProgramCacheEntry entry = detail::decode_program_cache_entry(*contents);
  if (!entry.problem.empty()) {
    discard_damaged(path, entry.problem);
    return std::nullopt;
  }
  // Another key with the same hash: a miss, and the next store takes the file over.
  if (entry.key != key) return std::nullopt;
  return Binary(entry.binary.begin(), entry.binary.end());
}

void ProgramBinaryCache::discard_damaged(const std::filesystem::path& path,
                                         const std::string& problem) {
  ++statistics_.damaged_files;
  std::error_code ignored;  // removal is a courtesy to the next store, which replaces it anyway
  std::filesystem::remove(path, ignored);
  warn_once("damaged:" + path.string(), "ignored and removed the damaged program cache file " +
                                            quoted_path(path.string()) + ": " + problem +
                                            "; the program is built from source");
}

void ProgramBinaryCache::write_file(const std::string& key, const Binary& binary) {
  std::error_code failure;
  std::filesystem::create_directories(*folder_, failure);
  if (failure) {
    warn_once("folder", "cannot create the program cache folder " + quoted_path(folder_->string()) +
                            " (" + failure.message() +
                            "); compiled programs are kept in memory only. Set POLYDEV_CACHE_DIR "
                            "to a writable folder, or POLYDEV_NO_CACHE=1");
    return;
  }
  const std::filesystem::path path = file_for(key);
  if (!replaceable(path)) return;  // the reader warned about it
  const std::filesystem::path temporary = path.string() + temporary_suffix();
  {
    const std::string entry = detail::encode_program_cache_entry(
        key, std::string_view(reinterpret_cast<const char*>(binary.data()), binary.size()));
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(entry.data(), static_cast<std::streamsize>(entry.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(temporary, failure);
      warn_once("write", "cannot write to the program cache folder " +
                             quoted_path(folder_->string()) +
                             "; compiled programs are kept in memory only. Set "
                             "POLYDEV_CACHE_DIR to a writable folder, or POLYDEV_NO_CACHE=1");
      return;
    }
  }
  std::filesystem::rename(temporary, path, failure);
  if (failure) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    warn_once("rename", "cannot move a new program cache file into " +
                            quoted_path(folder_->string()) + " (" + failure.message() +
                            "); this binary is kept in memory only");
  }
}

void ProgramBinaryCache::warn_once(const std::string& kind, const std::string& message) {
  if (!warned_.insert(kind).second) return;
  std::fprintf(stderr, "polydev: warning: %s\n", message.c_str());
}

ProgramBinaryCache* process_binary_cache() {
  static std::mutex mutex;
  static ProgramBinaryCache* cache = nullptr;
  static bool settled = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (!settled) {
    const BinaryCacheSettings settings = binary_cache_settings_from_environment();  // may throw
    // Leaked on purpose: programs may still be built by static objects at exit.
    if (settings.enabled) cache = new ProgramBinaryCache(settings.folder);
    settled = true;
  }
  return cache;
}

}  // namespace polydev::opencl
