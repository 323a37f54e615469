// Loading a report: the XML document, its one root element, and which reader it goes to.
#include "results.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "xml_reader.hpp"

namespace polydev::report {

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

constexpr const char* kExpected =
    "a GoogleTest XML report (--gtest_output=xml) has <testsuites>, CTest's JUnit file "
    "(--output-junit) <testsuite>";

}  // namespace

const char* to_string(Outcome outcome) { return words(outcome).name; }

const char* cell_label(Outcome outcome) { return words(outcome).label; }

int severity(Outcome outcome) { return words(outcome).severity; }

input_error::input_error(std::string file, int line, const std::string& problem)
    : error(file + ":" + std::to_string(line) + ": " + problem),
      file_(std::move(file)),
      line_(line) {}

std::vector<CaseResult> parse_report_xml(std::string_view xml, const std::string& file,
                                         const XmlLimits& limits) {
  using detail::shown;
  const detail::XmlReader reader(file);
  if (xml.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    reader.fail(1, std::string("an empty file; ") + kExpected);
  }
  detail::scan_document(xml, reader, limits);
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
  const tinyxml2::XMLElement* root = document.RootElement();
  if (!root) reader.fail(1, std::string("no XML element; ") + kExpected);
  // tinyxml2 reads a document with several top-level elements without complaint (text there is
  // malformed XML to it). XML allows one root: a second <testsuites> (two reports concatenated)
  // or a stray <testcase> after the first would be results silently dropped.
  for (const tinyxml2::XMLElement* element = root->NextSiblingElement(); element;
       element = element->NextSiblingElement()) {
    reader.fail(element->GetLineNum(), "<" + shown(element->Name()) + "> after the root element <" +
                                           shown(root->Name()) + "> (line " +
                                           std::to_string(root->GetLineNum()) +
                                           "); a report has one root element");
  }
  if (std::strcmp(root->Name(), "testsuites") == 0) return detail::read_gtest_report(*root, reader);
  if (std::strcmp(root->Name(), "testsuite") == 0) return detail::read_ctest_junit(*root, reader);
  reader.fail(root->GetLineNum(), "root element <" + shown(root->Name()) + ">; " + kExpected);
}

}  // namespace polydev::report
