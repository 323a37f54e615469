#pragma once

// What the readers of GoogleTest's XML and CTest's JUnit file share: errors that name the file and
// line, values quoted as an error shows them, and the elements a <testsuite> and a <testcase> may
// hold. Anything else is an error, never skipped: it may be a failure under a name the reader does
// not know.

#include <tinyxml2.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "results.hpp"

namespace polydev::report::detail {

/// A name or value from a report as an error message quotes it: any bytes, at most 160 of them.
std::string shown(const char* text);
std::string shown(const std::string& text);

/// The value of `element`'s attribute `name`, or "" when it has none.
std::string attribute(const tinyxml2::XMLElement& element, const char* name);

/// A failure's or skip's `message` attribute, or its text when the attribute is missing.
std::string message_of(const tinyxml2::XMLElement& element);

/// The text inside `element` (a <system-out>), or "".
std::string text_of(const tinyxml2::XMLElement& element);

class XmlReader {
 public:
  explicit XmlReader(const std::string& file) : file_(file) {}

  const std::string& file() const { return file_; }

  /// @throws input_error "FILE:LINE: problem".
  [[noreturn]] void fail(int line, const std::string& problem) const;

  /// Refuses `element` (a <failure>, a <property>, a <system-out>) when it holds an element:
  /// its writer puts text there, and an element may be a failure the reader would not see.
  void check_text_only(const tinyxml2::XMLElement& element) const;

  /// Refuses a child of <properties> that is not a <property> holding text only.
  void check_property(const tinyxml2::XMLElement& element) const;

  /// The `<property>` elements of a test case's `<properties>` (RecordProperty, cmake_labels).
  std::map<std::string, std::string> properties(const tinyxml2::XMLElement& testcase) const;

  /// Refuses a child of `testcase` other than <failure>, <error>, <skipped>, <properties>,
  /// <system-out> and <system-err>; `writer_hint` says what the report's writer puts there.
  void check_testcase_children(const tinyxml2::XMLElement& testcase, const char* writer_hint) const;

  /// The <testcase> elements of a <testsuite>, in order. Its <properties> and captured output
  /// are not results and are passed over; any other element is refused.
  std::vector<const tinyxml2::XMLElement*> testcases(const tinyxml2::XMLElement& suite) const;

 private:
  const std::string& file_;
};

/// Reads `xml` once, before tinyxml2 parses it: refuses a NUL character (a byte, or a character
/// reference to 0, which tinyxml2 would turn into the end of a string) and a document above
/// `limits`, with the line. Linear in the size of `xml`. Every node tinyxml2 would make counts:
/// elements, attributes, text (not white space between elements), comments, CDATA sections,
/// processing instructions and the DOCTYPE; what the last four hold is passed over.
void scan_document(std::string_view xml, const XmlReader& reader, const XmlLimits& limits);

/// The results of a GoogleTest report whose root element is `root` (<testsuites>).
std::vector<CaseResult> read_gtest_report(const tinyxml2::XMLElement& root,
                                          const XmlReader& reader);

/// The results of CTest's JUnit file whose root element is `root` (<testsuite>), one per entry.
std::vector<CaseResult> read_ctest_junit(const tinyxml2::XMLElement& root, const XmlReader& reader);

}  // namespace polydev::report::detail
