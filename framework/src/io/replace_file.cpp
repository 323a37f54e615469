#include "io/replace_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace polydev::detail {

namespace {

namespace fs = std::filesystem;

// The mode a new file gets from open(..., 0666): the umask is read by setting it, and set back.
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

std::optional<std::string> write_all(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t count = ::write(fd, text.data() + written, text.size() - written);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return std::string(std::strerror(errno));
    written += static_cast<std::size_t>(count);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> not_a_regular_file(const std::string& path) {
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) {
    const int reason = errno;
    struct stat link {};
    if (reason == ENOENT && ::lstat(path.c_str(), &link) == 0) return "a symbolic link to nothing";
    // Renamed over, the link itself would be replaced by a file.
    if (reason == ELOOP) return "a symbolic link loop";
    return std::nullopt;  // nothing there, or an error that writing reports in its own words
  }
  if (S_ISREG(target.st_mode)) return std::nullopt;
  if (S_ISDIR(target.st_mode)) return "a folder";
  if (S_ISFIFO(target.st_mode)) return "a FIFO";
  if (S_ISSOCK(target.st_mode)) return "a socket";
  if (S_ISCHR(target.st_mode) || S_ISBLK(target.st_mode)) return "a device";
  return "not a regular file";
}

std::optional<std::string> replace_file(const std::string& path, const std::string& text) {
  if (const auto kind = not_a_regular_file(path)) return *kind + ", not a regular file";
  std::error_code ignored;
  // The file a symbolic link names is the one replaced; the link stays.
  fs::path target = path;
  if (fs::is_symlink(path, ignored)) {
    std::error_code failure;
    const fs::path named = fs::canonical(path, failure);
    if (!failure) target = named;
  }
  struct stat existing {};
  const mode_t mode =
      ::stat(target.c_str(), &existing) == 0 ? existing.st_mode & 07777 : new_file_mode();
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temporary = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) return std::string(std::strerror(errno));
  std::optional<std::string> problem = write_all(fd, text);
  if (!problem && ::fchmod(fd, mode) != 0) problem = std::strerror(errno);
  // A file system may report a failed write only when the file is closed (NFS, a full quota).
  if (::close(fd) != 0 && !problem && errno != EINTR) problem = std::strerror(errno);
  if (!problem && ::rename(temporary.c_str(), target.c_str()) != 0) problem = std::strerror(errno);
  if (problem) ::unlink(temporary.c_str());
  return problem;
}

}  // namespace polydev::detail
