#include "python_int.hpp"

#include <limits>

namespace polydev::detail {

namespace {
bool is_python_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}
}  // namespace

std::string_view strip_python_whitespace(std::string_view text) {
  while (!text.empty() && is_python_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_python_space(text.back())) text.remove_suffix(1);
  return text;
}

std::optional<long long> parse_python_int(std::string_view text) {
  text = strip_python_whitespace(text);
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  constexpr unsigned long long limit = std::numeric_limits<long long>::max();
  unsigned long long magnitude = 0;
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
    const auto digit = static_cast<unsigned long long>(c - '0');
    magnitude = magnitude > (limit - digit) / 10 ? limit : magnitude * 10 + digit;
  }
  const auto value = static_cast<long long>(magnitude);
  return negative ? -value : value;
}

}  // namespace polydev::detail
