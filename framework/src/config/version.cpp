#include <algorithm>
#include <cctype>
#include <limits>

#include "io/printable.hpp"
#include "polydev/config.hpp"

namespace polydev {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Numbers separated by '.' from `at`, leaving `at` after the last number. Empty when `at` is not
// on a digit or a number does not fit.
std::vector<unsigned long> read_numbers(std::string_view text, std::size_t& at) {
  std::vector<unsigned long> numbers;
  while (at < text.size() && is_digit(text[at])) {
    unsigned long number = 0;
    for (; at < text.size() && is_digit(text[at]); ++at) {
      const unsigned long digit = static_cast<unsigned long>(text[at] - '0');
      if (number > (std::numeric_limits<unsigned long>::max() - digit) / 10) return {};
      number = number * 10 + digit;
    }
    numbers.push_back(number);
    if (at + 1 < text.size() && text[at] == '.' && is_digit(text[at + 1])) {
      ++at;
    } else {
      break;
    }
  }
  return numbers;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// -1, 0 or 1 as `a` is below, equal to or above `b`, the shorter padded with zeros.
int compare(const std::vector<unsigned long>& a, const std::vector<unsigned long>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const unsigned long x = i < a.size() ? a[i] : 0;
    const unsigned long y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

bool begins_with(const std::vector<unsigned long>& version,
                 const std::vector<unsigned long>& prefix) {
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if ((i < version.size() ? version[i] : 0) != prefix[i]) return false;
  }
  return true;
}

}  // namespace

VersionRange::VersionRange(std::string text) : text_(std::move(text)) {
  if (trim(text_).empty()) throw error("the version range is empty");
  std::size_t start = 0;
  for (int number = 1;; ++number) {
    const std::size_t comma = text_.find(',', start);
    const std::string_view clause_text = trim(std::string_view(text_).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    const auto fail = [&](const std::string& what) {
      throw error("clause " + std::to_string(number) + " " + detail::quote(clause_text) + " of " +
                  detail::quote(text_) + ": " + what);
    };
    if (clause_text.empty()) fail("it is empty");
    static const std::pair<const char*, Op> operators[] = {{">=", Op::ge}, {"<=", Op::le},
                                                           {"==", Op::eq}, {"!=", Op::ne},
                                                           {">", Op::gt},  {"<", Op::lt}};
    Clause clause;
    std::string_view rest = clause_text;
    for (const auto& [spelling, op] : operators) {
      const std::string_view symbol(spelling);
      if (rest.substr(0, symbol.size()) == symbol) {
        clause.op = op;
        rest = trim(rest.substr(symbol.size()));
        break;
      }
    }
    std::size_t at = 0;
    clause.version = read_numbers(rest, at);
    if (clause.version.empty() || at != rest.size()) {
      fail(detail::quote(rest) +
           " is not a version (numbers separated by '.', after one of >=, >, <=, <, ==, !=)");
    }
    clauses_.push_back(std::move(clause));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

std::optional<std::vector<unsigned long>> VersionRange::leading_version(std::string_view text) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (!is_digit(text[at])) continue;
    std::vector<unsigned long> numbers = read_numbers(text, at);
    if (numbers.empty()) return std::nullopt;
    return numbers;
  }
  return std::nullopt;
}

bool VersionRange::contains(std::string_view version_text) const {
  const auto version = leading_version(version_text);
  return version && contains(*version);
}

bool VersionRange::contains(const std::vector<unsigned long>& version) const {
  for (const Clause& clause : clauses_) {
    const int order = compare(version, clause.version);
    bool holds = false;
    switch (clause.op) {
      case Op::eq:
        holds = begins_with(version, clause.version);
        break;
      case Op::ne:
        holds = !begins_with(version, clause.version);
        break;
      case Op::lt:
        holds = order < 0;
        break;
      case Op::le:
        holds = order <= 0;
        break;
      case Op::gt:
        holds = order > 0;
        break;
      case Op::ge:
        holds = order >= 0;
        break;
    }
    if (!holds) return false;
  }
  return true;
}

}  // namespace polydev
