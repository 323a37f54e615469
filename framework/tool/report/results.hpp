#pragma once

// The results of one report (GoogleTest's XML or CTest's JUnit file), as plain values: what
// `polydev report` reads before it arranges them into a matrix. Parsing works on text, so that it
// is tested without files.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "polydev/error.hpp"

namespace polydev::report {

/// What one test instance did. `xfail` and `xpass` come from the `polydev_expectation` property
/// (see `parse_report_xml`).
enum class Outcome { pass, fail, skip, xfail, xpass };

/// "pass", "fail", "skip", "xfail", "xpass": the outcome's name in JSON.
const char* to_string(Outcome outcome);

/// "pass", "FAIL", "skip", "xfail", "XPASS": the outcome in a cell of the text and HTML matrix,
/// where what needs attention is in capitals.
const char* cell_label(Outcome outcome);

/// How bad an outcome is, for showing one of several results of the same test on the same device:
/// fail > xpass > xfail > pass > skip.
int severity(Outcome outcome);

/// Which kind of report a result was read from.
enum class Source {
  gtest,  ///< a <testcase> of GoogleTest's XML: one test instance, with its properties
  ctest,  ///< an entry of CTest's JUnit file: one instance (gtest_discover_tests), or a batch
};

/// One `<testcase>` of a report.
struct CaseResult {
  /// GoogleTest: the `<testsuite>` name ("OpenCL/Saxpy"). CTest: the entry's name up to its first
  /// '.', which is GoogleTest's suite for the entries of gtest_discover_tests; "" when it has no
  /// '.' (an entry of a device, "my_tests/opencl_pocl_cpu_0", or of a whole binary).
  std::string suite;
  /// GoogleTest: the `<testcase>` name ("MatchesHostResult/opencl_pocl_cpu_0"). CTest: the rest
  /// of the entry's name after that '.', or all of it.
  std::string name;
  Source source = Source::gtest;
  Outcome outcome = Outcome::pass;
  /// Every failure's message (blank-line separated), or the skip's; each starts with the
  /// "FILE:LINE" line of where it was recorded when the report says.
  std::string message;
  std::map<std::string, std::string> properties;  ///< `<property>` elements (RecordProperty)
  /// The report says the test case failed (a `<failure>` or `<error>`; CTest: the entry failed),
  /// whatever `outcome` says: an XPASS that failed the run (a strict xfail entry) fails the report
  /// too.
  bool run_failed = false;
  std::string file;  ///< the report it came from
  int line = 0;      ///< line of the `<testcase>` element there
};

/// Input that is not a report polydev reads. `what()` is "FILE:LINE: what is wrong; what was
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

/// How much of an XML document the reader takes: each node (an element, an attribute, a run of
/// text, a comment, a CDATA section, a processing instruction, a DOCTYPE) costs about a hundred
/// bytes of memory once parsed, so a file of tiny nodes would take 30 times its size, and a
/// parser that compares every attribute with the ones before it is quadratic in an element's
/// attributes. GoogleTest writes about 15 nodes a test case; the defaults take 250000 of them.
struct XmlLimits {
  std::size_t nodes = 4000000;  ///< nodes of every kind in the whole document
  std::size_t attributes_per_element = 128;
};

/// Reads a report: GoogleTest's XML (`--gtest_output=xml`, root `<testsuites>`) or CTest's JUnit
/// file (`ctest --output-junit`, root `<testsuite>`). `file` names it in results and errors.
///
/// GoogleTest: a test case failed when it has a `<failure>` (or JUnit's `<error>`) element; it was
/// skipped when its `result` is "skipped" or it has a `<skipped>` element, or when GoogleTest did
/// not run it (`status="notrun"`, `result="suppressed"`: a disabled test); otherwise it passed.
///
/// Expected failures: a test case with the property `polydev_expectation` = "xfail" was expected
/// to fail. The property `polydev_expectation_result`, "failed" or "passed", says what the test
/// body did and makes the outcome "xfail" or "xpass" whatever GoogleTest reports (a fixture that
/// intercepts the expected failure, or fails an unexpected pass itself, records it). Without it:
/// a skip is "xfail" (polydev's fixtures report an intercepted expected failure as SKIPPED), a
/// pass is "xpass", and a failure stays "fail" (a failure is never taken for the expected one
/// unless the fixture says so). Any other value of either property is an error.
///
/// CTest: each `<testcase>` is an entry, its `status` "run" (pass), "fail", "notrun" or
/// "disabled" (skip). A "notrun" entry was skipped when CTest's reason is
/// SKIP_REGULAR_EXPRESSION_MATCHED or SKIP_RETURN_CODE=N; any other reason (a missing executable
/// or required file, a failed fixture) is a failure, as CTest counts it. Messages come from the
/// GoogleTest output in `<system-out>`; polydev's expected failures are recognized there by the
/// fixtures' words ("expected failure: ", "unexpected pass of an xfail entry: ").
///
/// A NUL character (a NUL byte, or a reference such as `&#0;`), which XML does not allow and which
/// would cut a name or a message short, is an error; so is an element where a writer puts only text
/// (a `<failure>` inside `<skipped>` or `<system-out>`): it may be a failure.
///
/// @throws input_error for malformed XML, a document that is neither report, a value its writer
/// does not write, or one above `limits`, with the line.
std::vector<CaseResult> parse_report_xml(std::string_view xml, const std::string& file,
                                         const XmlLimits& limits = {});

}  // namespace polydev::report
