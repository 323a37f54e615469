#pragma once

// GoogleTest's console output, as CTest keeps it in its JUnit file: the failures and skips it
// printed ("FILE:LINE: Failure" and the message after it), which test was running, and polydev's
// explanations of CTest entries that a run does not have ("[  SKIPPED ] NAME: REASON").

#include <string>
#include <string_view>
#include <vector>

namespace polydev::report {

/// One failure or skip as GoogleTest printed it.
struct ConsolePart {
  bool skip = false;     ///< "Skipped"; otherwise "Failure"
  std::string location;  ///< "FILE:LINE", "FILE" (no line) or "unknown file"
  std::string text;      ///< the lines after it, up to the next part or GoogleTest's next line
  std::string test;      ///< the test that was running ("[ RUN      ] NAME"); "" before any
};

struct ConsoleOutput {
  std::vector<ConsolePart> parts;
  /// polydev's "[  SKIPPED ] NAME: REASON" lines, as NAME and REASON.
  std::vector<std::pair<std::string, std::string>> skipped_entries;
  /// GoogleTest's lines that say a test failed: "[  FAILED  ] NAME (N ms)", its summary's
  /// "[  FAILED  ] NAME" and "N FAILED TEST(S)", as printed.
  std::vector<std::string> failed_lines;

  /// The output shows a GoogleTest failure: a failure part or a line that says a test failed.
  bool has_failures() const;
};

/// Reads the output of one or more GoogleTest runs. Output of other programs, or of the tests
/// themselves, between GoogleTest's lines is part of the message it follows, or ignored.
ConsoleOutput parse_gtest_console(std::string_view output);

}  // namespace polydev::report
