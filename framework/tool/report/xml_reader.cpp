#include "xml_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>

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

bool name_start(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || c == '_' || c == ':' ||
         byte >= 0x80;
}

// One pass over the document's text: where tinyxml2 would lose a NUL character silently, and how
// many nodes (elements, attributes, text, comments, ...) it would allocate, before it allocates
// them.
class Scanner {
 public:
  Scanner(std::string_view xml, const XmlReader& reader, const XmlLimits& limits)
      : xml_(xml), reader_(reader), limits_(limits) {}

  void scan() {
    // tinyxml2 reads its copy of the text as a C string: a NUL byte ends the document there.
    if (const auto nul = xml_.find('\0'); nul != std::string_view::npos) {
      reader_.fail(line_at(nul),
                   "a NUL byte; XML allows no NUL character (a binary file, or one "
                   "that a crash cut short)");
    }
    while (at_ < xml_.size()) {
      const char c = xml_[at_];
      if (c == '&') {
        text();
        reference();
      } else if (c == '<') {
        in_text_ = false;
        markup();
      } else {
        if (!is_space(c)) text();
        step();
      }
    }
  }

 private:
  int line_at(std::size_t offset) const {
    return 1 + static_cast<int>(std::count(xml_.begin(), xml_.begin() + offset, '\n'));
  }

  void step() {
    if (xml_[at_] == '\n') ++line_;
    ++at_;
  }

  // Past the next `end` (or to the end of the text: tinyxml2 then says what is missing).
  void skip_past(std::string_view end) {
    const auto found = xml_.find(end, at_);
    const std::size_t stop = found == std::string_view::npos ? xml_.size() : found + end.size();
    line_ += static_cast<int>(std::count(xml_.begin() + at_, xml_.begin() + stop, '\n'));
    at_ = stop;
  }

  bool at(std::string_view text) const { return xml_.substr(at_, text.size()) == text; }

  // "&#0;", "&#x00;": tinyxml2 writes the NUL into the name or message, which then ends there.
  void reference() {
    step();
    if (!at("#")) return;
    step();
    const bool hex = at("x");
    if (hex) step();
    const std::size_t digits = at_;
    while (at_ < xml_.size() && (hex ? std::isxdigit(static_cast<unsigned char>(xml_[at_]))
                                     : std::isdigit(static_cast<unsigned char>(xml_[at_])))) {
      step();
    }
    const std::string_view number = xml_.substr(digits, at_ - digits);
    if (!number.empty() && number.find_first_not_of('0') == std::string_view::npos) {
      reader_.fail(line_, "the character reference '&#" + std::string(hex ? "x" : "") +
                              shown(std::string(number)) +
                              ";' is NUL, which XML does not allow; expected a character other "
                              "than U+0000");
    }
  }

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  // Text that holds more than white space is a node of tinyxml2's (white space between elements
  // is not): one a run of text between two pieces of markup.
  void text() {
    if (in_text_) return;
    in_text_ = true;
    count_node();
  }

  // A comment, a CDATA section, a processing instruction (the declaration) and any other "<!"
  // markup is a node of tinyxml2's too, as large as an element: 60 MB of "<!---->" took 1 GB.
  void markup() {
    if (at("</")) return skip_past(">");
    if (at("<!--")) return counted_skip_past("-->");
    if (at("<![CDATA[")) return counted_skip_past("]]>");
    if (at("<?")) return counted_skip_past("?>");
    if (at("<!")) return counted_skip_past(">");
    step();
    if (at_ < xml_.size() && name_start(xml_[at_])) start_tag();
  }

  void counted_skip_past(std::string_view end) {
    count_node();
    skip_past(end);
  }

  void count_node() {
    if (++nodes_ > limits_.nodes) {
      reader_.fail(line_, "more than " + std::to_string(limits_.nodes) +
                              " XML nodes (elements, attributes, text, comments and other "
                              "markup); the report reads at most " +
                              std::to_string(limits_.nodes) +
                              " a file (GoogleTest writes about 15 a test case): give the "
                              "tests' reports one a shard or a binary");
    }
  }

  // From an element's name to the '>' that ends its tag, outside quoted values.
  void start_tag() {
    const int line = line_;
    const std::size_t name = at_;
    const std::size_t name_end = xml_.find_first_of(" \t\r\n/>", at_);
    count_node();
    std::size_t attributes = 0;
    char quote = 0;
    while (at_ < xml_.size()) {
      const char c = xml_[at_];
      if (quote != 0) {
        if (c == quote) quote = 0;
        if (c == '&') {
          reference();
          continue;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        step();
        return;
      } else if (c == '=') {
        count_node();
        if (++attributes > limits_.attributes_per_element) {
          const std::string element(xml_.substr(name, name_end - name));
          reader_.fail(line, "<" + shown(element) + "> with more than " +
                                 std::to_string(limits_.attributes_per_element) +
                                 " attributes; the report reads at most " +
                                 std::to_string(limits_.attributes_per_element) +
                                 " an element (GoogleTest writes about 10)");
        }
      }
      step();
    }
  }

  std::string_view xml_;
  const XmlReader& reader_;
  const XmlLimits& limits_;
  std::size_t at_ = 0;
  int line_ = 1;
  std::size_t nodes_ = 0;
  bool in_text_ = false;  // inside a run of text already counted
};

}  // namespace

void scan_document(std::string_view xml, const XmlReader& reader, const XmlLimits& limits) {
  Scanner(xml, reader, limits).scan();
}

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

void XmlReader::check_text_only(const XMLElement& element) const {
  if (const XMLElement* inner = element.FirstChildElement()) {
    fail(inner->GetLineNum(), "unexpected <" + shown(inner->Name()) + "> in <" +
                                  shown(element.Name()) + ">; its writer puts only text there");
  }
}

void XmlReader::check_property(const XMLElement& element) const {
  if (!is(element, "property")) {
    fail(element.GetLineNum(),
         "unexpected <" + shown(element.Name()) + "> in <properties>; expected <property>");
  }
  check_text_only(element);
}

std::map<std::string, std::string> XmlReader::properties(const XMLElement& testcase) const {
  std::map<std::string, std::string> found;
  for (const XMLElement* list = testcase.FirstChildElement("properties"); list;
       list = list->NextSiblingElement("properties")) {
    for (const XMLElement* property = list->FirstChildElement(); property;
         property = property->NextSiblingElement()) {
      check_property(*property);
      const char* name = property->Attribute("name");
      const char* value = property->Attribute("value");
      if (!name || !value) {
        fail(property->GetLineNum(), "<property> needs the attributes 'name' and 'value'");
      }
      // polydev's fixtures record each of theirs once (GoogleTest's RecordProperty replaces an
      // earlier value): two of one name would decide the outcome or the device by their order.
      if (std::string_view(name).rfind("polydev_", 0) == 0 && found.count(name) != 0) {
        fail(property->GetLineNum(), "property '" + shown(name) +
                                         "' given twice in one <testcase>; polydev's fixtures "
                                         "record each of theirs once");
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
    if (!is(*element, "properties")) check_text_only(*element);
  }
}

std::vector<const XMLElement*> XmlReader::testcases(const XMLElement& suite) const {
  std::vector<const XMLElement*> found;
  for (const XMLElement* element = suite.FirstChildElement(); element;
       element = element->NextSiblingElement()) {
    // GoogleTest puts a suite's own properties (RecordProperty in SetUpTestSuite) beside its
    // test cases; JUnit writers put the suite's captured output there. Neither is a result.
    if (is(*element, "system-out") || is(*element, "system-err")) {
      check_text_only(*element);
      continue;
    }
    if (is(*element, "properties")) {
      for (const XMLElement* property = element->FirstChildElement(); property;
           property = property->NextSiblingElement()) {
        check_property(*property);
      }
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
