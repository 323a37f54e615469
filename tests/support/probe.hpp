#pragma once

// Running a probe binary (a small device-test program on polydev's test main) in one situation and
// reading its output: how the *_policy_test.cpp files observe skip, fail and exit behaviour from
// outside. Header-only: it reports through GoogleTest's EXPECT macros of the including test.

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "support/run_process.hpp"

namespace polydev::test_support {

using EnvironmentChanges = std::map<std::string, std::optional<std::string>>;

/// The variables that choose devices or change what a test binary does. A probe runs without them
/// unless its situation names them, so that the settings of the person running the tests (or
/// CTest's allocation) do not leak into the situation under test.
inline const std::vector<std::string>& device_setting_variables() {
  static const std::vector<std::string> names = {"PYOPENCL_TEST",
                                                 "PYOPENCL_CTX",
                                                 "CUDA_DEVICE",
                                                 "POLYDEV_DEVICES",
                                                 "POLYDEV_REQUIRE_DEVICES",
                                                 "POLYDEV_PROFILE",
                                                 "POLYDEV_RUN_KNOWN_FAILURES",
                                                 "POLYDEV_HOST",
                                                 "POLYDEV_SHARD_BY",
                                                 "GTEST_SHARD_INDEX",
                                                 "GTEST_TOTAL_SHARDS",
                                                 "CTEST_RESOURCE_GROUP_COUNT"};
  return names;
}

/// CTest marks a test skipped when its output holds GoogleTest's skip marker; a probe's output,
/// quoted in a failure message, must not turn that failure into a skip. Patterns in the tests use
/// the defused spelling `[  SKIPPED*]`.
inline std::string defuse_skip_markers(std::string text) {
  const std::string marker = "[  SKIPPED ]";
  for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at)) {
    text.replace(at, marker.size(), "[  SKIPPED*]");
  }
  return text;
}

/// Runs `argv` under `changes`, with every device setting variable that `changes` does not name
/// removed and HOME set to `home` unless named (a folder without the person's ~/.cuda_device).
/// The output comes back defused; a probe killed by a signal fails the calling test.
inline ProcessResult run_probe(const std::vector<std::string>& argv, EnvironmentChanges changes,
                               const std::string& home) {
  for (const std::string& name : device_setting_variables()) changes.emplace(name, std::nullopt);
  changes.emplace("HOME", home);
  // OCL_ICD_FILENAMES would load drivers past an OCL_ICD_VENDORS folder set by a situation.
  if (changes.count("OCL_ICD_VENDORS") != 0) changes.emplace("OCL_ICD_FILENAMES", std::nullopt);
  ProcessResult result = run_process(argv, changes);
  result.output = defuse_skip_markers(result.output);
  EXPECT_LT(result.exit_code, 128) << argv.front() << " was killed by a signal:\n" << result.output;
  return result;
}

/// How many result lines "[  STATUS  ] name (N ms)" match `pattern`; the summary at the end of a
/// run repeats the names without a duration and is not counted.
inline int count_results(const std::string& text, const std::string& pattern) {
  const std::regex expression(pattern + R"((, where GetParam\(\) = [^\n]*)? \(\d+ ms\))");
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), expression),
                                        std::sregex_iterator()));
}

/// CTest's verdict on one entry ("Passed", "Skipped", "Failed", "Not Run"), from its result line
/// "1/3 Test #1: <name> .....   Passed    0.05 sec" (failures are written "***Failed"), or
/// "(no result)" when `output` has none.
inline std::string ctest_verdict(const std::string& output, const std::string& name) {
  const std::string escaped =
      std::regex_replace(name, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
  const std::regex line("Test +#[0-9]+: " + escaped +
                        R"( \.*\s*(\*\*\*)?(Passed|Skipped|Failed|Not Run))");
  std::smatch match;
  if (!std::regex_search(output, match, line)) return "(no result)";
  return match[2];
}

}  // namespace polydev::test_support
