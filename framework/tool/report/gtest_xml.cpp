// GoogleTest's XML report (--gtest_output=xml): <testsuites> of <testsuite> of <testcase>, with
// the properties polydev's fixtures record.
#include <cstring>

#include "xml_reader.hpp"

namespace polydev::report::detail {

namespace {

using tinyxml2::XMLElement;

constexpr const char* kGtestChildren = "GoogleTest writes <failure>, <skipped> and <properties>";

class GtestReader {
 public:
  explicit GtestReader(const XmlReader& reader) : reader_(reader) {}

  // What GoogleTest itself reports for the test case, before expectations are applied.
  Outcome gtest_outcome(const XMLElement& testcase, std::string& message) const {
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
    bool failed = false;
    for (const XMLElement* element = testcase.FirstChildElement(); element;
         element = element->NextSiblingElement()) {
      if (std::strcmp(element->Name(), "failure") != 0 &&
          std::strcmp(element->Name(), "error") != 0)
        continue;
      message += (failed ? "\n\n" : "") + message_of(*element);
      failed = true;
    }
    if (failed) return Outcome::fail;
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
                            const std::map<std::string, std::string>& properties) const {
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
    if (body != properties.end()) {
      if (body->second == "failed") return Outcome::xfail;
      if (body->second == "passed") return Outcome::xpass;
      reader_.fail(testcase.GetLineNum(), "property polydev_expectation_result = '" +
                                              shown(body->second) +
                                              "'; expected 'failed' or 'passed'");
    }
    // polydev's fixtures intercept the expected failure and report the test skipped. A failure
    // is never taken for an expected one without the explicit result: it stays a failure.
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
    const Outcome reported = gtest_outcome(element, result.message);
    result.run_failed = reported == Outcome::fail;
    result.outcome = apply_expectation(element, reported, result.properties);
    result.file = reader_.file();
    result.line = element.GetLineNum();
    return result;
  }

 private:
  const XmlReader& reader_;
};

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
    for (const XMLElement* element : reader.testcases(*suite)) {
      results.push_back(gtest.testcase(*element, suite_name));
    }
  }
  return results;
}

}  // namespace polydev::report::detail
