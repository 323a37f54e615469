#include "polydev/detail/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace polydev::detail {

namespace {

std::string describe_mode(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// Closes the descriptor however the read ends.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Why open() failed, in the words of the messages: a link is named as a link.
[[noreturn]] void throw_open_error(const std::string& path, int open_errno) {
  struct stat link {};
  if (open_errno == ENOENT) {
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      throw file_error(path, "a dangling symbolic link (its target does not exist)",
                       file_error::Kind::not_regular_file);
    }
    throw file_error(path, "no such file", file_error::Kind::missing);
  }
  if (open_errno == ELOOP) {
    throw file_error(path, "a symbolic link loop", file_error::Kind::not_regular_file);
  }
  throw file_error(path, std::string("cannot be opened: ") + std::strerror(open_errno));
}

std::string read_open_file(const std::string& path, const Descriptor& file, std::size_t limit) {
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) {
    throw file_error(path, std::string("cannot be examined: ") + std::strerror(errno));
  }
  if (!S_ISREG(status.st_mode)) {
    throw file_error(path, describe_mode(status.st_mode) + ", not a regular file",
                     file_error::Kind::not_regular_file);
  }
  const auto too_large = [&] {
    return file_error(path, "larger than the limit of " + std::to_string(limit) + " bytes",
                      file_error::Kind::too_large);
  };
  if (static_cast<unsigned long long>(status.st_size) > limit) throw too_large();
  // The size is a hint only (files in /proc report 0, a file may grow while it is read): read
  // until the end, one byte past the limit at most.
  std::string content;
  content.resize(std::min<std::size_t>(static_cast<std::size_t>(status.st_size), limit) + 1);
  std::size_t used = 0;
  for (;;) {
    if (used == content.size()) {
      if (used > limit) throw too_large();
      content.resize(std::min(limit + 1, content.size() * 2 + 4096));
    }
    const ssize_t got = ::read(file.get(), content.data() + used, content.size() - used);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw file_error(path, std::string("cannot be read: ") + std::strerror(errno));
    }
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
  }
  if (used > limit) throw too_large();
  content.resize(used);
  return content;
}

}  // namespace

file_error::file_error(const std::string& path, const std::string& reason, Kind kind)
    : std::runtime_error(path + ": " + reason), reason_(reason), kind_(kind) {}

file_error::file_error(const std::string& path, const std::string& reason, bool missing)
    : file_error(path, reason, missing ? Kind::missing : Kind::unreadable) {}

std::string read_regular_file(const std::string& path, std::size_t limit) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever before fstat can tell
  // what it is. It does not change how a regular file reads.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw_open_error(path, errno);
  return read_open_file(path, Descriptor(fd), limit);
}

std::optional<std::string> read_regular_file_if_present(const std::string& path,
                                                        std::size_t limit) {
  try {
    return read_regular_file(path, limit);
  } catch (const file_error& failure) {
    if (failure.missing()) return std::nullopt;
    throw;
  }
}

std::string describe_file_type(const std::string& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return "nothing (no such file)";
  if (S_ISLNK(status.st_mode)) {
    if (::stat(path.c_str(), &status) != 0) {
      return errno == ELOOP ? "a symbolic link loop" : "a dangling symbolic link";
    }
  }
  return describe_mode(status.st_mode);
}

}  // namespace polydev::detail
