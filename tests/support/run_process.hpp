#pragma once

// Runs a program with a modified environment and captures what it prints: how the tests check the
// behaviour of whole test binaries (exit status, skip and failure messages) under many settings.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace polydev::test_support {

struct ProcessResult {
  int exit_code = -1;  ///< the exit status, or 128 + signal number when killed by a signal
  std::string output;  ///< stdout and stderr, interleaved
};

/// Runs `argv` (argv[0] is a path) with the current environment (less
/// POLYDEV_ALL_SKIPPED_EXIT_CODE, unless `changes` sets it), where each `changes` entry sets a
/// variable (a value) or removes it (nullopt). Throws std::runtime_error if it cannot start.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::optional<std::string>>& changes = {});

}  // namespace polydev::test_support
