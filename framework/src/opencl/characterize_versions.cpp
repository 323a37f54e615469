// The strings under the characterization rules: extension lists, OpenCL and PoCL versions. Pure.
#include <charconv>
#include <regex>
#include <string>

#include "polydev/opencl/characterize.hpp"

namespace polydev::opencl {

namespace {

// A run of decimal digits as an int; nullopt when it does not fit (a driver's string is not
// trusted to be sane).
std::optional<int> to_int(std::string_view digits) {
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Length of the run of digits at the start of `text`.
std::size_t digit_run(std::string_view text) {
  std::size_t n = 0;
  while (n < text.size() && is_digit(text[n])) ++n;
  return n;
}

}  // namespace

std::string to_string(Version version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor);
}

bool has_extension(std::string_view extensions, std::string_view name) {
  // Split on single spaces, as PyOpenCL does: a run of spaces gives empty tokens, which match no
  // extension name.
  std::size_t start = 0;
  while (true) {
    const std::size_t end = extensions.find(' ', start);
    const std::size_t stop = end == std::string_view::npos ? extensions.size() : end;
    if (extensions.substr(start, stop - start) == name) return true;
    if (end == std::string_view::npos) return false;
    start = end + 1;
  }
}

std::optional<Version> parse_opencl_version(std::string_view text) {
  // PyOpenCL's Platform._get_cl_version: "^OpenCL ([0-9]+)\.([0-9]+) .*$".
  constexpr std::string_view prefix = "OpenCL ";
  if (text.substr(0, prefix.size()) != prefix) return std::nullopt;
  text.remove_prefix(prefix.size());
  const std::size_t major_digits = digit_run(text);
  if (major_digits == 0 || major_digits >= text.size() || text[major_digits] != '.') {
    return std::nullopt;
  }
  const std::string_view after_dot = text.substr(major_digits + 1);
  const std::size_t minor_digits = digit_run(after_dot);
  if (minor_digits == 0 || minor_digits >= after_dot.size() || after_dot[minor_digits] != ' ') {
    return std::nullopt;
  }
  const auto major = to_int(text.substr(0, major_digits));
  const auto minor = to_int(after_dot.substr(0, minor_digits));
  if (!major || !minor) return std::nullopt;
  return Version{*major, *minor};
}

Noted<std::optional<Version>> get_pocl_version(const PlatformInfo& platform,
                                               std::optional<Version> fallback) {
  if (platform.name != "Portable Computing Language") return {std::nullopt, {}};
  static const std::regex pattern("^OpenCL [0-9.]+ [Pp]o[Cc][Ll] ([0-9]+)\\.([0-9]+)");
  std::smatch match;
  if (std::regex_search(platform.version, match, pattern)) {
    const auto major = to_int(std::string_view(&*match[1].first, match[1].length()));
    const auto minor = to_int(std::string_view(&*match[2].first, match[2].length()));
    if (major && minor) return {Version{*major, *minor}, {}};
  }
  return {fallback,
          {"get_pocl_version: PoCL platform version '" + platform.version +
           "' is not of the form 'OpenCL <version> PoCL <major>.<minor>...'; using " +
           (fallback ? "the fallback " + to_string(*fallback) : std::string("no version"))}};
}

}  // namespace polydev::opencl
