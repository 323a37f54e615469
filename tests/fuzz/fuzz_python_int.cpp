// Python's int() for base 10 (parse_python_int), which decides whether a selector item is an index,
// and str.strip() (strip_python_whitespace).
//
// Input: the text, as UTF-8 bytes (or not).
//
// Checked:
// - ASCII text against an independent statement of Python's grammar (a regular expression:
//   whitespace " \t\n\v\f\r", one sign, digits with single '_' between them, whitespace) and the
//   value computed from the digits alone, saturating beyond long long.
// - Any text: writing its ASCII digits as fullwidth or Arabic-Indic digits, or its spaces as
//   U+00A0 or U+3000, changes nothing (int() reads every script's digits and Unicode spaces);
//   a byte that is never valid UTF-8 anywhere makes it no number.
// - A number stays the same number once the text is stripped, and prints and parses back to
//   itself; stripping is idempotent and only removes from the ends.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "selection/python_int.hpp"

namespace {

using polydev_fuzz::require;

// int()'s whitespace in ASCII. \x1c-\x1f are whitespace for str.strip(), not for int().
const char* const kSpace = "[\\t\\n\\v\\f\\r ]";

std::optional<long long> ascii_oracle(const std::string& text) {
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

bool is_ascii(const std::string& text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// `text` with each ASCII digit d replaced by the UTF-8 of `zero + d`, and each ' ' by `space`.
std::string rewritten(const std::string& text, char32_t zero, const char* space) {
  std::string out;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      const char32_t code = zero + static_cast<char32_t>(c - '0');
      if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      }
    } else if (c == ' ') {
      out += space;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::optional<long long> value = polydev::detail::parse_python_int(text);

  // std::regex recurses per character: keep the oracle to lengths it handles on any stack.
  if (text.size() <= 256 && is_ascii(text)) {
    require(value == ascii_oracle(text),
            "parse_python_int('" + text + "') disagrees with Python's int()");
  }
  if (text.size() <= 1024) {
    // U+FF10 fullwidth, U+0660 Arabic-Indic digit zero; U+00A0 and U+3000 are int() whitespace.
    require(polydev::detail::parse_python_int(rewritten(text, 0xFF10, "\xc2\xa0")) == value,
            "fullwidth digits and U+00A0 for spaces changed the value");
    require(polydev::detail::parse_python_int(rewritten(text, 0x0660, "\xe3\x80\x80")) == value,
            "Arabic-Indic digits and U+3000 for spaces changed the value");
    // 0xFF is never part of valid UTF-8; Python decodes it to a lone surrogate, not a digit.
    require(!polydev::detail::parse_python_int(text + "\xff"),
            "a text ending in an invalid byte was taken for a number");
  }

  const std::string_view stripped = polydev::detail::strip_python_whitespace(text);
  require(std::string_view(text).find(stripped) != std::string_view::npos,
          "strip_python_whitespace returned text that is not part of its input");
  require(polydev::detail::strip_python_whitespace(stripped) == stripped,
          "strip_python_whitespace is not idempotent");
  if (value) {
    // int() accepts only its own whitespace around a number, and str.strip() removes all of it.
    require(polydev::detail::parse_python_int(stripped) == value,
            "stripping the whitespace first changed the value");
    require(polydev::detail::parse_python_int(std::to_string(*value)) == value,
            "a value does not print and parse back to itself");
  }
  return 0;
}
