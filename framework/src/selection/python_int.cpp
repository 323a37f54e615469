#include "selection/python_int.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>

namespace polydev::detail {

namespace {

// The digit zero of every run of ten Unicode decimal digits outside ASCII (category Nd; every Nd
// character is in exactly one such run, its digit value being its distance from the zero).
// Generated with Python 3.11.7 (Unicode 14.0.0):
//   python3 -c "import unicodedata as u; print([hex(c) for c in range(0x80, 0x110000)
//                                               if u.decimal(chr(c), None) == 0])"
// after checking that each zero is followed by the digits 1..9 and that these runs hold all the
// Nd characters.
constexpr char32_t kDigitZeros[] = {
    0x0660,  0x06F0,  0x07C0,  0x0966,  0x09E6,  0x0A66,  0x0AE6,  0x0B66,  0x0BE6,  0x0C66,
    0x0CE6,  0x0D66,  0x0DE6,  0x0E50,  0x0ED0,  0x0F20,  0x1040,  0x1090,  0x17E0,  0x1810,
    0x1946,  0x19D0,  0x1A80,  0x1A90,  0x1B50,  0x1BB0,  0x1C40,  0x1C50,  0xA620,  0xA8D0,
    0xA900,  0xA9D0,  0xA9F0,  0xAA50,  0xABF0,  0xFF10,  0x104A0, 0x10D30, 0x11066, 0x110F0,
    0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950,
    0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC,
    0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
};

// The characters above ASCII for which str.isspace() is true (Python 3.11.7:
// [hex(c) for c in range(0x80, 0x110000) if chr(c).isspace()]). int() turns each of them into a
// space before parsing.
constexpr char32_t kUnicodeSpaces[] = {0x0085, 0x00A0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
                                       0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
                                       0x2028, 0x2029, 0x202F, 0x205F, 0x3000};

// CPython's default sys.get_int_max_str_digits(): int() of a longer number is a ValueError.
constexpr std::size_t kMaxDigits = 4300;

constexpr char32_t kInvalid = 0xFFFFFFFF;

// One character of UTF-8 from the front of `text` as Python's strict decoder reads it: the code
// point and its length, or kInvalid for a byte that does not start a valid sequence (overlong
// forms, surrogates, values above U+10FFFF and cut sequences included). An invalid byte counts as
// one character: continuation bytes never start a valid sequence, so the valid characters after
// it are the ones Python finds.
std::pair<char32_t, std::size_t> decode(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  unsigned char low = 0x80;  // the range the second byte must be in
  unsigned char high = 0xBF;
  char32_t value = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    value = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    value = lead & 0x0Fu;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    value = lead & 0x07u;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return {kInvalid, 1};
  }
  if (text.size() < length) return {kInvalid, 1};
  for (std::size_t i = 1; i < length; ++i) {
    const unsigned char next = byte(i);
    const unsigned char min = i == 1 ? low : 0x80;
    const unsigned char max = i == 1 ? high : 0xBF;
    if (next < min || next > max) return {kInvalid, 1};
    value = (value << 6) | (next & 0x3Fu);
  }
  return {value, length};
}

bool is_unicode_space(char32_t c) {
  return std::find(std::begin(kUnicodeSpaces), std::end(kUnicodeSpaces), c) !=
         std::end(kUnicodeSpaces);
}

// The digit value of a non-ASCII decimal digit, or -1.
int unicode_digit(char32_t c) {
  // The zeros are sorted: the run that could hold `c` starts at the last zero not above it.
  const auto* after = std::upper_bound(std::begin(kDigitZeros), std::end(kDigitZeros), c);
  if (after == std::begin(kDigitZeros)) return -1;
  const char32_t offset = c - *(after - 1);
  return offset <= 9 ? static_cast<int>(offset) : -1;
}

// str.isspace() for one character.
bool is_strip_space(char32_t c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F) || is_unicode_space(c);
}

// The whitespace int() skips once non-ASCII spaces became ' ': C's isspace in the "C" locale.
bool is_ascii_int_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// What CPython does first (_PyUnicode_TransformDecimalAndSpaceToASCII): each non-ASCII space
// becomes ' ' and each non-ASCII digit its ASCII digit; any other non-ASCII character makes the
// text invalid, which here is nothing.
std::optional<std::string> to_ascii(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const auto [c, length] = decode(text);
    text.remove_prefix(length);
    if (c == kInvalid) return std::nullopt;
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (is_unicode_space(c)) {
      out += ' ';
    } else if (const int digit = unicode_digit(c); digit >= 0) {
      out += static_cast<char>('0' + digit);
    } else {
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace

std::string_view strip_python_whitespace(std::string_view text) {
  // Decoded from the front, so that the characters are the ones Python sees.
  std::size_t begin = 0;
  std::size_t end = 0;
  bool content = false;
  for (std::size_t i = 0; i < text.size();) {
    const auto [c, length] = decode(text.substr(i));
    if (c == kInvalid || !is_strip_space(c)) {
      if (!content) begin = i;
      content = true;
      end = i + length;
    }
    i += length;
  }
  return content ? text.substr(begin, end - begin) : std::string_view();
}

std::optional<long long> parse_python_int(std::string_view original) {
  const std::optional<std::string> ascii = to_ascii(original);
  if (!ascii) return std::nullopt;
  std::string_view text = *ascii;
  while (!text.empty() && is_ascii_int_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_ascii_int_space(text.back())) text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  constexpr unsigned long long limit = std::numeric_limits<long long>::max();
  unsigned long long magnitude = 0;
  std::size_t digits = 0;
  bool previous_was_digit = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '_') {
      // Only between two digits.
      if (!previous_was_digit || i + 1 == text.size()) return std::nullopt;
      previous_was_digit = false;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    previous_was_digit = true;
    ++digits;
    const auto digit = static_cast<unsigned long long>(c - '0');
    magnitude = magnitude > (limit - digit) / 10 ? limit : magnitude * 10 + digit;
  }
  if (digits > kMaxDigits) return std::nullopt;
  const auto value = static_cast<long long>(magnitude);
  return negative ? -value : value;
}

}  // namespace polydev::detail
