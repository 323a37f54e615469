#include "xml_reader.hpp"

#include <algorithm>
#include <cstring>

#include "io/printable.hpp"

namespace polydev::report::detail {

namespace {

using tinyxml2::XMLElement;

// The children a <testcase> may have. GoogleTest writes <failure>, <skipped> and <properties>;
// CTest <failure>, <skipped>, <properties> and <system-out>; JUnit writers add <error> (a failure
// outside an assertion) and <system-err>. Anything else (a <Failure>, a misspelled <failur>) may
// be a failure the report does not understand: it is an error, never read as a pass.
constexpr const char* kTestCaseChildren[] = {"failure",    "error",      "skipped",
                                             "properties", "system-out", "system-err"};

bool is_known_child(const char* name) {
  return std::any_of(std::begin(kTestCaseChildren), std::end(kTestCaseChildren),
                     [&](const char* known) { return std::strcmp(name, known) == 0; });
}

bool is(const XMLElement& element, const char* name) {
  return std::strcmp(element.Name(), name) == 0;
}

}  // namespace

std::string shown(const char* text) { return polydev::detail::printable(text ? text : ""); }
std::string shown(const std::string& text) { return polydev::detail::printable(text); }

std::string attribute(const XMLElement& element, const char* name) {
  const char* value = element.Attribute(name);
  return value ? value : "";
}

std::string message_of(const XMLElement& element) {
  if (const char* message = element.Attribute("message")) return message;
  return text_of(element);
}

std::string text_of(const XMLElement& element) {
  const char* text = element.GetText();
  return text ? text : "";
}

void XmlReader::fail(int line, const std::string& problem) const {
  throw input_error(file_, line, problem);
}

std::map<std::string, std::string> XmlReader::properties(const XMLElement& testcase) const {
  std::map<std::string, std::string> found;
  for (const XMLElement* list = testcase.FirstChildElement("properties"); list;
       list = list->NextSiblingElement("properties")) {
    for (const XMLElement* property = list->FirstChildElement(); property;
         property = property->NextSiblingElement()) {
      if (!is(*property, "property")) {
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

void XmlReader::check_testcase_children(const XMLElement& testcase, const char* writer_hint) const {
  for (const XMLElement* element = testcase.FirstChildElement(); element;
       element = element->NextSiblingElement()) {
    if (!is_known_child(element->Name())) {
      fail(element->GetLineNum(), "unexpected <" + shown(element->Name()) + "> in <testcase>; " +
                                      writer_hint + " (JUnit also <error>, <system-out>, " +
                                      "<system-err>)");
    }
  }
}

std::vector<const XMLElement*> XmlReader::testcases(const XMLElement& suite) const {
  std::vector<const XMLElement*> found;
  for (const XMLElement* element = suite.FirstChildElement(); element;
       element = element->NextSiblingElement()) {
    // GoogleTest puts a suite's own properties (RecordProperty in SetUpTestSuite) beside its
    // test cases; JUnit writers put the suite's captured output there. Neither is a result.
    if (is(*element, "properties") || is(*element, "system-out") || is(*element, "system-err")) {
      continue;
    }
    if (!is(*element, "testcase")) {
      fail(element->GetLineNum(),
           "unexpected <" + shown(element->Name()) + "> in <testsuite>; expected <testcase>");
    }
    if (!element->Attribute("name")) fail(element->GetLineNum(), "<testcase> without a 'name'");
    found.push_back(element);
  }
  return found;
}

}  // namespace polydev::report::detail
