// Python's int() for base 10 (parse_python_int), which decides whether a selector item is an index.
//
// Input: the text.
//
// Checked against an independent statement of Python's grammar (a regular expression over ASCII:
// whitespace, one sign, digits with single '_' between them, whitespace) and the value computed
// from the digits alone, saturating beyond long long. Also: stripping first changes nothing, and
// a value prints and parses back to itself.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "python_int.hpp"

namespace {

using polydev_fuzz::require;

// Python's str.strip() and int() whitespace in ASCII: \t \n \v \f \r, \x1c-\x1f and the space.
const char* const kSpace = "[\\t\\n\\v\\f\\r\\x1c-\\x1f ]";

std::optional<long long> oracle(const std::string& text) {
  static const std::regex grammar(std::string("^") + kSpace + "*([+-]?)([0-9](?:_?[0-9])*)" +
                                  kSpace + "*$");
  std::smatch match;
  if (!std::regex_match(text, match, grammar)) return std::nullopt;
  constexpr unsigned long long limit = std::numeric_limits<long long>::max();
  unsigned long long magnitude = 0;
  for (char c : match[2].str()) {
    if (c == '_') continue;
    const auto digit = static_cast<unsigned long long>(c - '0');
    magnitude = magnitude > (limit - digit) / 10 ? limit : magnitude * 10 + digit;
  }
  const auto value = static_cast<long long>(magnitude);
  return match[1].str() == "-" ? -value : value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::optional<long long> value = polydev::detail::parse_python_int(text);

  // std::regex recurses per character: keep the oracle to lengths it handles on any stack.
  if (text.size() <= 256) {
    require(value == oracle(text),
            "parse_python_int('" + text + "') disagrees with Python's int()");
  }
  const std::string_view stripped = polydev::detail::strip_python_whitespace(text);
  require(polydev::detail::parse_python_int(stripped) == value,
          "stripping the whitespace first changed the value");
  require(polydev::detail::strip_python_whitespace(stripped) == stripped,
          "strip_python_whitespace is not idempotent");
  if (value) {
    require(polydev::detail::parse_python_int(std::to_string(*value)) == value,
            "a value does not print and parse back to itself");
  }
  return 0;
}
