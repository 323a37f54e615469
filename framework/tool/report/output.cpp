#include "output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "io/printable.hpp"
#include "io/replace_file.hpp"

namespace polydev::report {

namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& path) { return "'" + detail::printable(path) + "'"; }

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
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

}  // namespace

std::optional<std::string> output_problem(const std::string& option, const std::string& output,
                                          const std::vector<std::string>& inputs,
                                          const std::vector<std::string>& files) {
  if (const auto kind = detail::not_a_regular_file(output)) {
    return option + " " + quoted(output) + " is " + *kind +
           "; expected a regular file or a path that does not exist yet";
  }
  struct stat target {};
  if (::stat(output.c_str(), &target) == 0) {
    for (const std::string& file : files) {
      struct stat input {};
      if (::stat(file.c_str(), &input) == 0 && same_file(input, target)) {
        return option + " " + quoted(output) + " is the report " + quoted(file) +
               " given to read; expected a file that is not one of the reports";
      }
    }
  } else if (errno != ENOENT) {
    return option + " " + quoted(output) + ": " + std::strerror(errno);
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
  return detail::replace_file(path, text);
}

}  // namespace polydev::report
