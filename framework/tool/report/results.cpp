#include "results.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "io/printable.hpp"

namespace polydev::report {

namespace {

using tinyxml2::XMLElement;

// A name or value from the report, as an error message quotes it: any bytes, any length.
std::string shown(const char* text) { return detail::printable(text ? text : ""); }
std::string shown(const std::string& text) { return detail::printable(text); }

// The children a <testcase> may have. GoogleTest writes <failure>, <skipped> and <properties>;
// JUnit writers add <error> (a failure outside an assertion) and the captured output. Anything
// else (a <Failure>, a misspelled <failur>) may be a failure the report does not understand:
// it is an error, never read as a pass.
constexpr const char* kTestCaseChildren[] = {"failure",    "error",      "skipped",
                                             "properties", "system-out", "system-err"};

bool is_known_child(const char* name) {
  return std::any_of(std::begin(kTestCaseChildren), std::end(kTestCaseChildren),
                     [&](const char* known) { return std::strcmp(name, known) == 0; });
}

std::string attribute(const XMLElement& element, const char* name) {
  const char* value = element.Attribute(name);
  return value ? value : "";
}

// A failure's message attribute, or its text when the attribute is missing.
std::string message_of(const XMLElement& element) {
  if (const char* message = element.Attribute("message")) return message;
  if (const char* text = element.GetText()) return text;
  return "";
}

class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(int line, const std::string& problem) const {
    throw input_error(file_, line, problem);
  }

  std::map<std::string, std::string> properties(const XMLElement& testcase) const {
    std::map<std::string, std::string> found;
    for (const XMLElement* list = testcase.FirstChildElement("properties"); list;
         list = list->NextSiblingElement("properties")) {
      for (const XMLElement* property = list->FirstChildElement(); property;
           property = property->NextSiblingElement()) {
        if (std::strcmp(property->Name(), "property") != 0) {
          fail(property->GetLineNum(),
               "unexpected <" + shown(property->Name()) + "> in <properties>; expected <property>");
        }
        const char* name = property->Attribute("name");
        const char* value = property->Attribute("value");
        if (!name || !value) {
          fail(property->GetLineNum(), "<property> needs the attributes 'name' and 'value'");
        }
        found[name] = value;
      }
    }
    return found;
  }

  // What GoogleTest itself reports for the test case, before expectations are applied.
  Outcome gtest_outcome(const XMLElement& testcase, std::string& message) const {
    const std::string status = attribute(testcase, "status");
    const std::string result = attribute(testcase, "result");
    if (!status.empty() && status != "run" && status != "notrun") {
      fail(testcase.GetLineNum(),
           "status '" + shown(status) + "' of a <testcase>; GoogleTest writes 'run' or 'notrun'");
    }
    if (!result.empty() && result != "completed" && result != "skipped" && result != "suppressed") {
      fail(testcase.GetLineNum(), "result '" + shown(result) +
                                      "' of a <testcase>; GoogleTest writes 'completed', "
                                      "'skipped' or 'suppressed'");
    }
    // Every failure of the test, in order: each EXPECT that failed has its own element.
    bool failed = false;
    for (const XMLElement* element = testcase.FirstChildElement(); element;
         element = element->NextSiblingElement()) {
      if (!is_known_child(element->Name())) {
        fail(element->GetLineNum(),
             "unexpected <" + shown(element->Name()) +
                 "> in <testcase>; GoogleTest writes <failure>, <skipped> and <properties> (JUnit "
                 "also <error>, <system-out>, <system-err>)");
      }
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
        fail(testcase.GetLineNum(),
             "property polydev_expectation_result without polydev_expectation = 'xfail'");
      }
      return outcome;
    }
    if (expectation->second != "xfail") {
      fail(testcase.GetLineNum(), "property polydev_expectation = '" + shown(expectation->second) +
                                      "'; the report knows 'xfail'");
    }
    if (body != properties.end()) {
      if (body->second == "failed") return Outcome::xfail;
      if (body->second == "passed") return Outcome::xpass;
      fail(testcase.GetLineNum(), "property polydev_expectation_result = '" + shown(body->second) +
                                      "'; expected 'failed' or 'passed'");
    }
    // polydev's fixtures intercept the expected failure and report the test skipped. A failure
    // is never taken for an expected one without the explicit result: it stays a failure.
    if (outcome == Outcome::skip) return Outcome::xfail;
    if (outcome == Outcome::pass) return Outcome::xpass;
    return outcome;
  }

  CaseResult testcase(const XMLElement& element, const std::string& suite) const {
    if (!element.Attribute("name")) fail(element.GetLineNum(), "<testcase> without a 'name'");
    CaseResult result;
    result.suite = suite;
    result.name = attribute(element, "name");
    result.properties = properties(element);
    const Outcome reported = gtest_outcome(element, result.message);
    result.run_failed = reported == Outcome::fail;
    result.outcome = apply_expectation(element, reported, result.properties);
    result.file = file_;
    result.line = element.GetLineNum();
    return result;
  }

 private:
  const std::string& file_;
};

}  // namespace

namespace {

// Every word and rank of an outcome in one place, indexed by the enumerator.
struct OutcomeWords {
  const char* name;
  const char* label;
  int severity;
};

const OutcomeWords& words(Outcome outcome) {
  static const OutcomeWords table[] = {
      {"pass", "pass", 1},    // Outcome::pass
      {"fail", "FAIL", 4},    // Outcome::fail
      {"skip", "skip", 0},    // Outcome::skip
      {"xfail", "xfail", 2},  // Outcome::xfail
      {"xpass", "XPASS", 3},  // Outcome::xpass
  };
  return table[static_cast<int>(outcome)];
}

}  // namespace

const char* to_string(Outcome outcome) { return words(outcome).name; }

const char* cell_label(Outcome outcome) { return words(outcome).label; }

int severity(Outcome outcome) { return words(outcome).severity; }

input_error::input_error(std::string file, int line, const std::string& problem)
    : error(file + ":" + std::to_string(line) + ": " + problem),
      file_(std::move(file)),
      line_(line) {}

std::vector<CaseResult> parse_gtest_xml(std::string_view xml, const std::string& file) {
  const Reader reader(file);
  if (xml.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    reader.fail(1, "an empty file; a GoogleTest XML report (--gtest_output=xml) has <testsuites>");
  }
  tinyxml2::XMLDocument document;
  if (document.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
    // ErrorStr() is "Error=NAME ErrorID=N (0xN) Line number=L: DETAIL"; the name and the detail
    // are what a reader needs, the line goes first in polydev's form.
    std::string problem = std::string("malformed XML: ") + document.ErrorName();
    const std::string text = document.ErrorStr() ? document.ErrorStr() : "";
    const auto line = text.find("Line number=");
    const auto detail = line == std::string::npos ? line : text.find(": ", line);
    if (detail != std::string::npos) problem += " at " + shown(text.substr(detail + 2));
    // An empty document has no line; it starts at line 1 all the same.
    reader.fail(std::max(1, document.ErrorLineNum()), problem);
  }
  const XMLElement* root = document.RootElement();
  if (!root) reader.fail(1, "no XML element; expected a GoogleTest report (<testsuites>)");
  // tinyxml2 reads a document with several top-level elements without complaint (text there is
  // malformed XML to it). XML allows one root: a second <testsuites> (two reports concatenated)
  // or a stray <testcase> after the first would be results silently dropped.
  for (const XMLElement* element = root->NextSiblingElement(); element;
       element = element->NextSiblingElement()) {
    reader.fail(element->GetLineNum(), "<" + shown(element->Name()) + "> after the root element <" +
                                           shown(root->Name()) + "> (line " +
                                           std::to_string(root->GetLineNum()) +
                                           "); a report has one root element");
  }
  if (std::strcmp(root->Name(), "testsuites") != 0) {
    std::string problem = "root element <" + shown(root->Name()) +
                          ">; a GoogleTest XML report (--gtest_output=xml) has <testsuites>";
    if (std::strcmp(root->Name(), "testsuite") == 0) {
      problem +=
          " (a <testsuite> root is a JUnit file such as CTest's --output-junit, which is "
          "not read: give each test binary's --gtest_output=xml file)";
    }
    reader.fail(root->GetLineNum(), problem);
  }
  std::vector<CaseResult> results;
  for (const XMLElement* suite = root->FirstChildElement(); suite;
       suite = suite->NextSiblingElement()) {
    if (std::strcmp(suite->Name(), "testsuite") != 0) {
      reader.fail(suite->GetLineNum(), "unexpected <" + shown(suite->Name()) +
                                           "> in <testsuites>; expected <testsuite>");
    }
    if (!suite->Attribute("name")) reader.fail(suite->GetLineNum(), "<testsuite> without a 'name'");
    const std::string suite_name = attribute(*suite, "name");
    for (const XMLElement* element = suite->FirstChildElement(); element;
         element = element->NextSiblingElement()) {
      // GoogleTest puts a suite's own properties (RecordProperty in SetUpTestSuite) beside its
      // test cases; JUnit writers put the suite's captured output there. Neither is a result.
      if (std::strcmp(element->Name(), "properties") == 0 ||
          std::strcmp(element->Name(), "system-out") == 0 ||
          std::strcmp(element->Name(), "system-err") == 0) {
        continue;
      }
      if (std::strcmp(element->Name(), "testcase") != 0) {
        reader.fail(element->GetLineNum(), "unexpected <" + shown(element->Name()) +
                                               "> in <testsuite>; expected <testcase>");
      }
      results.push_back(reader.testcase(*element, suite_name));
    }
  }
  return results;
}

}  // namespace polydev::report
