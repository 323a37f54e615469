// polydev.yaml: parse_config, and the globs and version ranges it is made of.
//
// Input: a pattern, a text to match it against (both end at a NUL byte), then the file's text.
//
// Checked: the file gives a configuration or a config_error "polydev.yaml:<line>:<column>: ..."
// of one line with no control byte (and a text over kConfigFileLimit never a configuration)
// (never an exception of yaml-cpp); its profiles set only the selector variables, require only
// backends, are found by name, and everything parsed has a line. A glob is built or rejected with a
// polydev::error; built, it matches what the C library's fnmatch() matches (patterns without sets),
// an escaped text matches itself, and `*`, `?` patterns match by length. A version range is built
// or rejected with a polydev::error, and a version in it is in it again when printed.

#include <fnmatch.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "polydev/config.hpp"

namespace {

using polydev_fuzz::require;

void check_config(const polydev::Config& config) {
  static const std::set<std::string> variables{"PYOPENCL_TEST", "PYOPENCL_CTX", "CUDA_DEVICE",
                                               "POLYDEV_DEVICES"};
  std::set<std::string> names;
  for (const auto& profile : config.profiles) {
    require(names.insert(profile.name).second, "profile '" + profile.name + "' is defined twice");
    require(config.find_profile(profile.name) == &profile,
            "find_profile does not find '" + profile.name + "'");
    require(profile.line >= 1, "profile '" + profile.name + "' has no line");
    for (const auto& [variable, value] : profile.variables) {
      require(variables.count(variable) == 1, "a profile sets '" + variable + "'");
    }
    for (const auto& backend : profile.require) {
      require(backend == "opencl" || backend == "cuda", "a profile requires '" + backend + "'");
    }
    polydev::profile_environment(profile);
  }
  for (const auto& expectation : config.expectations) {
    require(expectation.line >= 1, "an expectation has no line");
    require(!expectation.reason.empty(), "an expectation has no reason");
  }
}

bool has_nul(const std::string& text) { return text.find('\0') != std::string::npos; }

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    out += '\\';
    out += c;
  }
  return out;
}

void check_glob(const std::string& pattern, const std::string& text) {
  const auto glob = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return polydev::Glob(pattern); }, "Glob");
  if (glob && pattern.find('[') == std::string::npos && !has_nul(pattern) && !has_nul(text)) {
    const bool expected = ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
    require(glob->matches(text) == expected,
            "Glob('" + pattern + "').matches('" + text + "') differs from fnmatch()");
  }
  if (!text.empty()) {
    require(polydev::Glob(escaped(text)).matches(text), "an escaped text does not match itself");
    require(polydev::Glob("*" + escaped(text) + "*").matches(pattern + text + pattern),
            "'*text*' does not match a text containing text");
    require(polydev::Glob(std::string(text.size(), '?')).matches(text) &&
                !polydev::Glob(std::string(text.size() + 1, '?')).matches(text),
            "'?' does not match exactly one character");
  }
  require(polydev::Glob().matches(text), "'*' does not match everything");
}

void check_version_range(const std::string& pattern, const std::string& text) {
  const auto range = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return polydev::VersionRange(pattern); }, "VersionRange");
  const auto version = polydev::VersionRange::leading_version(text);
  if (version) require(!version->empty(), "a leading version without numbers");
  if (!range) return;
  const bool contained = range->contains(text);
  require(contained == (version && range->contains(*version)),
          "contains(text) and contains(its leading version) disagree");
  if (version) {
    std::string printed;
    for (unsigned long number : *version) {
      printed += (printed.empty() ? "" : ".") + std::to_string(number);
    }
    require(range->contains(printed) == contained,
            "a version printed again is judged differently: " + printed);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  polydev_fuzz::Input input(data, size);
  const std::string pattern = input.field();
  const std::string text = input.field();
  const std::string file = input.rest();

  check_glob(pattern, text);
  check_version_range(pattern, text);

  std::string message;
  const auto config = polydev_fuzz::result_or_rejection<polydev::config_error>(
      [&] { return polydev::parse_config(file, "polydev.yaml"); }, "parse_config", &message);
  require(config || message.rfind("polydev.yaml:", 0) == 0,
          "a configuration error does not start with 'polydev.yaml:<line>:<column>': " + message);
  // One line, nothing raw: what a terminal or a log receives of a file and of yaml-cpp's words.
  require(std::none_of(message.begin(), message.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }),
          "a configuration error holds a line break or another control byte");
  require(message.size() < 4096, "a configuration error is longer than a few quoted excerpts");
  if (config) {
    require(file.size() <= polydev::kConfigFileLimit, "a text over the size limit was accepted");
    check_config(*config);
  }
  return 0;
}
