#pragma once

// The results of one GoogleTest XML report, as plain values: what `polydev report` reads before it
// arranges them into a matrix. Parsing works on text, so that it is tested without files.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "polydev/error.hpp"

namespace polydev::report {

/// What one test instance did. `xfail` and `xpass` come from the `polydev_expectation` property
/// (see `parse_gtest_xml`).
enum class Outcome { pass, fail, skip, xfail, xpass };

/// "pass", "fail", "skip", "xfail", "xpass": the outcome's name in JSON.
const char* to_string(Outcome outcome);

/// "pass", "FAIL", "skip", "xfail", "XPASS": the outcome in a cell of the text and HTML matrix,
/// where what needs attention is in capitals.
const char* cell_label(Outcome outcome);

/// How bad an outcome is, for showing one of several results of the same test on the same device:
/// fail > xpass > xfail > pass > skip.
int severity(Outcome outcome);

/// One `<testcase>` of a report.
struct CaseResult {
  std::string suite;  ///< the `<testsuite>` name: "OpenCL/Saxpy", "CTestResourceSpec"
  std::string name;   ///< the `<testcase>` name: "MatchesHostResult/opencl_pocl_cpu_0"
  Outcome outcome = Outcome::pass;
  std::string message;  ///< every failure's message (blank-line separated), or the skip's
  std::map<std::string, std::string> properties;  ///< `<property>` elements (RecordProperty)
  /// GoogleTest reported the test case failed (a `<failure>` or `<error>`), whatever `outcome`
  /// says: an XPASS that failed the run (a strict xfail entry) fails the report too.
  bool run_failed = false;
  std::string file;  ///< the report it came from
  int line = 0;      ///< line of the `<testcase>` element there
};

/// Input that is not a GoogleTest XML report. `what()` is "FILE:LINE: what is wrong; what was
/// expected".
class input_error : public error {
 public:
  input_error(std::string file, int line, const std::string& problem);
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  std::string file_;
  int line_;
};

/// Reads a report written by GoogleTest's `--gtest_output=xml` (`<testsuites>` of `<testsuite>` of
/// `<testcase>`). `file` names it in results and errors.
///
/// A test case failed when it has a `<failure>` (or JUnit's `<error>`) element; it was skipped when
/// its `result` is "skipped" or it has a `<skipped>` element, or when GoogleTest did not run it
/// (`status="notrun"`, `result="suppressed"`: a disabled test); otherwise it passed.
///
/// Expected failures: a test case with the property `polydev_expectation` = "xfail" was expected
/// to fail. The property `polydev_expectation_result`, "failed" or "passed", says what the test
/// body did and makes the outcome "xfail" or "xpass" whatever GoogleTest reports (a fixture that
/// intercepts the expected failure, or fails an unexpected pass itself, records it). Without it:
/// a skip is "xfail" (polydev's fixtures report an intercepted expected failure as SKIPPED), a
/// pass is "xpass", and a failure stays "fail" (a failure is never taken for the expected one
/// unless the fixture says so). Any other value of either property is an error.
///
/// @throws input_error for malformed XML, a document that is not a GoogleTest report, or a value
/// GoogleTest does not write, with the line.
std::vector<CaseResult> parse_gtest_xml(std::string_view xml, const std::string& file);

}  // namespace polydev::report
