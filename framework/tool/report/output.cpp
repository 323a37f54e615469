#include "output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "io/printable.hpp"

namespace polydev::report {

namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& path) { return "'" + detail::printable(path) + "'"; }

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// What a file that is not a regular one is, in an error's words.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

bool ends_with_xml(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".xml") == 0;
}

// The folder of `inputs` that `output` (which need not exist) lies below, or nothing.
std::optional<std::string> folder_holding(const std::string& output,
                                          const std::vector<std::string>& inputs) {
  std::error_code ignored;
  const fs::path absolute = fs::absolute(output, ignored).lexically_normal();
  for (const std::string& input : inputs) {
    struct stat folder {};
    if (::stat(input.c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode)) continue;
    for (fs::path at = absolute.parent_path(); !at.empty(); at = at.parent_path()) {
      struct stat step {};
      if (::stat(at.c_str(), &step) == 0 && same_file(step, folder)) return input;
      if (at == at.root_path()) break;
    }
  }
  return std::nullopt;
}

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

std::optional<std::string> output_problem(const std::string& option, const std::string& output,
                                          const std::vector<std::string>& inputs,
                                          const std::vector<std::string>& files) {
  struct stat target {};
  if (::stat(output.c_str(), &target) == 0) {
    if (!S_ISREG(target.st_mode)) {
      return option + " " + quoted(output) + " is " + kind_of(target.st_mode) +
             "; expected a regular file or a path that does not exist yet";
    }
    for (const std::string& file : files) {
      struct stat input {};
      if (::stat(file.c_str(), &input) == 0 && same_file(input, target)) {
        return option + " " + quoted(output) + " is the report " + quoted(file) +
               " given to read; expected a file that is not one of the reports";
      }
    }
  } else if (errno != ENOENT) {
    return option + " " + quoted(output) + ": " + std::strerror(errno);
  } else if (struct stat link{}; ::lstat(output.c_str(), &link) == 0) {
    return option + " " + quoted(output) +
           " is a symbolic link to nothing; expected a regular file or a path that does not "
           "exist yet";
  }
  if (ends_with_xml(output)) {
    if (const auto folder = folder_holding(output, inputs)) {
      return option + " " + quoted(output) + " lies in the folder " + quoted(*folder) +
             " given to read, whose .xml files are reports; expected a file outside it";
    }
  }
  return std::nullopt;
}

std::optional<std::string> write_output(const std::string& path, const std::string& text) {
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

}  // namespace polydev::report
