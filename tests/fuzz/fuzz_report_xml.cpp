// polydev report: parse_report_xml on any bytes, then the matrix and its three renderings.
//
// Input: the text of a report file.
//
// Checked: the reader gives results or an input_error "fuzz.xml:<line>: ..." with a line of at
// least 1 (never another exception, whatever tinyxml2 makes of the bytes); every result names
// the file and a line, and no name or message holds a NUL character. Whatever the report holds,
// the JSON is well-formed UTF-8 without raw control characters, and the text and HTML forms hold
// no terminal control character (only line feeds and tabs) and no ill-formed UTF-8.
//
// The same bytes are also read under small XmlLimits, so that inputs of a seed's size reach the
// limit checks: the reading gives the same results or an input_error of the same form, and a
// document read under the small limits is read under the default ones too.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "io/printable.hpp"
#include "matrix.hpp"
#include "render.hpp"
#include "results.hpp"

namespace {

using polydev_fuzz::require;

// Well-formed UTF-8 whose control characters are at most those in `allowed`.
void check_shown(const std::string& text, std::string_view allowed, const char* form) {
  for (std::size_t at = 0; at < text.size();) {
    const polydev::detail::Utf8Step step = polydev::detail::decode_utf8(text, at);
    require(step.valid,
            std::string(form) + " holds ill-formed UTF-8 at byte " + std::to_string(at));
    const char32_t c = step.code_point;
    const bool control = c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f);
    require(!control || allowed.find(static_cast<char>(c)) != std::string_view::npos,
            std::string(form) + " holds a raw control character at byte " + std::to_string(at));
    at += step.length;
  }
}

// Reads `xml` again under limits a few seeds exceed: within them it reads as under the defaults.
void check_small_limits(std::string_view xml,
                        const std::optional<std::vector<polydev::report::CaseResult>>& results) {
  polydev::report::XmlLimits small;
  small.nodes = 48;
  small.attributes_per_element = 4;
  std::string message;
  const auto bounded = polydev_fuzz::result_or_rejection<polydev::report::input_error>(
      [&] { return polydev::report::parse_report_xml(xml, "fuzz.xml", small); },
      "parse_report_xml under small limits", &message);
  if (!bounded) {
    require(message.rfind("fuzz.xml:", 0) == 0, "an input error without the file: " + message);
    check_shown(message, "\n\t", "an input error");
    return;
  }
  require(results.has_value(), "a report read under small limits but refused under the defaults");
  require(bounded->size() == results->size(),
          "a report gives " + std::to_string(bounded->size()) + " results under small limits, " +
              std::to_string(results->size()) + " under the defaults");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  std::string message;
  const auto results = polydev_fuzz::result_or_rejection<polydev::report::input_error>(
      [&] { return polydev::report::parse_report_xml(xml, "fuzz.xml"); }, "parse_report_xml",
      &message);
  check_small_limits(xml, results);
  if (!results) {
    require(message.rfind("fuzz.xml:", 0) == 0, "an input error without the file: " + message);
    check_shown(message, "\n\t", "an input error");
    return 0;
  }
  for (const polydev::report::CaseResult& result : *results) {
    require(result.file == "fuzz.xml", "a result names another file: " + result.file);
    require(result.line >= 1, "a result without a line");
    // The scan before tinyxml2 refuses a NUL character, which would have cut the text short.
    require(result.name.find('\0') == std::string::npos &&
                result.message.find('\0') == std::string::npos,
            "a result holds a NUL character");
  }
  const polydev::report::Matrix matrix = polydev::report::build_matrix(*results);
  const std::vector<std::string> files{"fuzz.xml"};
  const std::string json = polydev::report::format_json(matrix, files);
  check_shown(json.substr(0, json.size() - 1), "", "the JSON");
  require(json.back() == '\n', "the JSON does not end in a line feed");
  check_shown(polydev::report::format_text(matrix, files), "\n\t", "the text");
  check_shown(polydev::report::format_html(matrix, files), "\n\t", "the HTML");
  return 0;
}
