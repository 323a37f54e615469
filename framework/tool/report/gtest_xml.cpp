// GoogleTest's XML report (--gtest_output=xml): <testsuites> of <testsuite> of <testcase>, with
// the properties polydev's fixtures record.
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "xml_reader.hpp"

namespace polydev::report::detail {

namespace {

using tinyxml2::XMLElement;

constexpr const char* kGtestChildren = "GoogleTest writes <failure>, <skipped> and <properties>";

// The words of the failure that polydev's fixtures (fixtures/src/expectations.cpp) add when the
// test of a strict xfail entry passed.
constexpr std::string_view kUnexpectedPass = "unexpected pass of an xfail entry: ";

// GoogleTest's XML gives a failure's message as "FILE:LINE", a line feed and the text.
bool is_unexpected_pass(const std::string& message) {
  const auto newline = message.find('\n');
  const std::string_view text = newline == std::string::npos
                                    ? std::string_view(message)
                                    : std::string_view(message).substr(newline + 1);
  return text.substr(0, kUnexpectedPass.size()) == kUnexpectedPass ||
         std::string_view(message).substr(0, kUnexpectedPass.size()) == kUnexpectedPass;
}

class GtestReader {
 public:
  explicit GtestReader(const XmlReader& reader) : reader_(reader) {}

  // What GoogleTest itself reports for the test case, before expectations are applied; every
  // <failure> and <error> message, in order, goes to `failures`.
  Outcome gtest_outcome(const XMLElement& testcase, std::string& message,
                        std::vector<std::string>& failures) const {
    const std::string status = attribute(testcase, "status");
    const std::string result = attribute(testcase, "result");
    if (!status.empty() && status != "run" && status != "notrun") {
      reader_.fail(testcase.GetLineNum(), "status '" + shown(status) +
                                              "' of a <testcase>; GoogleTest writes 'run' or "
                                              "'notrun'");
    }
    if (!result.empty() && result != "completed" && result != "skipped" && result != "suppressed") {
      reader_.fail(testcase.GetLineNum(), "result '" + shown(result) +
                                              "' of a <testcase>; GoogleTest writes 'completed', "
                                              "'skipped' or 'suppressed'");
    }
    reader_.check_testcase_children(testcase, kGtestChildren);
    // Every failure of the test, in order: each EXPECT that failed has its own element.
    for (const XMLElement* element = testcase.FirstChildElement(); element;
         element = element->NextSiblingElement()) {
      if (std::strcmp(element->Name(), "failure") != 0 &&
          std::strcmp(element->Name(), "error") != 0)
        continue;
      failures.push_back(message_of(*element));
      message += (failures.size() > 1 ? "\n\n" : "") + failures.back();
    }
    if (!failures.empty()) return Outcome::fail;
    if (const XMLElement* skipped = testcase.FirstChildElement("skipped")) {
      message = message_of(*skipped);
      return Outcome::skip;
    }
    if (result == "skipped") return Outcome::skip;
    if (status == "notrun" || result == "suppressed") {
      message = "not run (disabled)";
      return Outcome::skip;
    }
    return Outcome::pass;
  }

  Outcome apply_expectation(const XMLElement& testcase, Outcome outcome,
                            const std::map<std::string, std::string>& properties,
                            const std::vector<std::string>& failures) const {
    const auto expectation = properties.find("polydev_expectation");
    const auto body = properties.find("polydev_expectation_result");
    if (expectation == properties.end()) {
      if (body != properties.end()) {
        reader_.fail(testcase.GetLineNum(),
                     "property polydev_expectation_result without polydev_expectation = 'xfail'");
      }
      return outcome;
    }
    if (expectation->second != "xfail") {
      reader_.fail(testcase.GetLineNum(), "property polydev_expectation = '" +
                                              shown(expectation->second) +
                                              "'; the report knows 'xfail'");
    }
    if (body != properties.end() && body->second != "failed" && body->second != "passed") {
      reader_.fail(testcase.GetLineNum(), "property polydev_expectation_result = '" +
                                              shown(body->second) +
                                              "'; expected 'failed' or 'passed'");
    }
    const bool body_passed = body != properties.end() && body->second == "passed";
    // The fixture intercepts the expected failures, so none of them is a <failure> here: one
    // that is (another thread's, a derived fixture's TearDown) is a failure of its own, never
    // outweighed by the expectation. The one exception is the failure the fixture writes itself
    // for a strict entry whose test passed.
    if (!failures.empty()) {
      const bool only_unexpected_pass = failures.size() == 1 && is_unexpected_pass(failures[0]);
      return body_passed && only_unexpected_pass ? Outcome::xpass : Outcome::fail;
    }
    if (body != properties.end()) return body_passed ? Outcome::xpass : Outcome::xfail;
    // polydev's fixtures report an intercepted expected failure as skipped.
    if (outcome == Outcome::skip) return Outcome::xfail;
    if (outcome == Outcome::pass) return Outcome::xpass;
    return outcome;
  }

  CaseResult testcase(const XMLElement& element, const std::string& suite) const {
    CaseResult result;
    result.suite = suite;
    result.name = attribute(element, "name");
    result.source = Source::gtest;
    result.properties = reader_.properties(element);
    std::vector<std::string> failures;
    const Outcome reported = gtest_outcome(element, result.message, failures);
    result.run_failed = reported == Outcome::fail;
    result.outcome = apply_expectation(element, reported, result.properties, failures);
    result.file = reader_.file();
    result.line = element.GetLineNum();
    return result;
  }

 private:
  const XmlReader& reader_;
};

// polydev's test listener records a failure of SetUpTestSuite() or TearDownTestSuite(), which
// GoogleTest's XML leaves out, as this attribute of the suite.
constexpr const char* kSuiteFailure = "polydev_suite_failure";

// Every test case of a suite whose SetUpTestSuite() or TearDownTestSuite() failed failed with it:
// they show as skipped or passed in GoogleTest's XML.
void fail_with_suite(CaseResult& result, const std::string& suite_failure) {
  const bool had_failures = result.outcome == Outcome::fail || result.outcome == Outcome::xpass;
  result.message =
      suite_failure +
      (had_failures && !result.message.empty() ? "\n\n" + result.message : std::string());
  result.outcome = Outcome::fail;
  result.run_failed = true;
}

std::string suite_failure_message(const XMLElement& suite) {
  const std::string message = attribute(suite, kSuiteFailure);
  return message.empty() ? "SetUpTestSuite() or TearDownTestSuite() failed (polydev's listener "
                           "recorded no message)"
                         : message;
}

}  // namespace

std::vector<CaseResult> read_gtest_report(const XMLElement& root, const XmlReader& reader) {
  const GtestReader gtest(reader);
  std::vector<CaseResult> results;
  for (const XMLElement* suite = root.FirstChildElement(); suite;
       suite = suite->NextSiblingElement()) {
    if (std::strcmp(suite->Name(), "testsuite") != 0) {
      reader.fail(suite->GetLineNum(), "unexpected <" + shown(suite->Name()) +
                                           "> in <testsuites>; expected <testsuite>");
    }
    if (!suite->Attribute("name")) reader.fail(suite->GetLineNum(), "<testsuite> without a 'name'");
    const std::string suite_name = attribute(*suite, "name");
    const bool suite_failed = suite->Attribute(kSuiteFailure) != nullptr;
    const std::string suite_failure = suite_failed ? suite_failure_message(*suite) : "";
    const std::vector<const XMLElement*> testcases = reader.testcases(*suite);
    for (const XMLElement* element : testcases) {
      results.push_back(gtest.testcase(*element, suite_name));
      if (suite_failed) fail_with_suite(results.back(), suite_failure);
    }
    // A suite without test cases still failed: its failure is one result, named by the suite.
    if (suite_failed && testcases.empty()) {
      CaseResult result;
      result.suite = suite_name;
      result.source = Source::gtest;
      result.file = reader.file();
      result.line = suite->GetLineNum();
      fail_with_suite(result, suite_failure);
      results.push_back(std::move(result));
    }
  }
  return results;
}

}  // namespace polydev::report::detail
