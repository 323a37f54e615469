#include <cstddef>

#include "io/printable.hpp"
#include "polydev/config.hpp"

namespace polydev {

Glob::Glob() : Glob("*") {}

Glob::Glob(std::string pattern) : text_(std::move(pattern)) {
  if (text_.empty()) throw error("the pattern is empty");
  const auto fail = [&](const std::string& what) {
    throw error("pattern " + detail::quote(text_) + ": " + what);
  };
  for (std::size_t i = 0; i < text_.size(); ++i) {
    Token token;
    const char c = text_[i];
    if (c == '*') {
      token.kind = Token::Kind::star;
    } else if (c == '?') {
      token.kind = Token::Kind::any;
    } else if (c == '\\') {
      if (i + 1 == text_.size()) fail("'\\' at the end has no character to take literally");
      token.literal = text_[++i];
    } else if (c == '[') {
      token.kind = Token::Kind::set;
      std::size_t j = i + 1;
      if (j < text_.size() && text_[j] == '!') {
        token.negated = true;
        ++j;
      }
      // As in POSIX globs, a ']' right after the opening bracket is a member, not the end.
      const std::size_t first = j;
      for (; j < text_.size() && (text_[j] != ']' || j == first); ++j) {
        char low = text_[j];
        char high = low;
        if (j + 2 < text_.size() && text_[j + 1] == '-' && text_[j + 2] != ']') {
          high = text_[j + 2];
          if (high < low) {
            fail(std::string("the range '") + low + '-' + high + "' is reversed");
          }
          j += 2;
        }
        token.ranges.emplace_back(low, high);
      }
      if (j >= text_.size()) {
        fail("the '[' at character " + std::to_string(i + 1) + " has no closing ']'");
      }
      i = j;
    } else {
      token.literal = c;
    }
    tokens_.push_back(std::move(token));
  }
}

Glob Glob::gtest_filter_pattern(std::string pattern) {
  Glob glob;
  glob.tokens_.clear();
  for (const char c : pattern) {
    Token token;
    if (c == '*') token.kind = Token::Kind::star;
    if (c == '?') token.kind = Token::Kind::any;
    token.literal = c;
    glob.tokens_.push_back(std::move(token));
  }
  glob.text_ = std::move(pattern);
  return glob;
}

bool Glob::matches_one(const Token& token, char c) {
  switch (token.kind) {
    case Token::Kind::literal:
      return token.literal == c;
    case Token::Kind::any:
      return true;
    case Token::Kind::set: {
      bool member = false;
      for (const auto& [low, high] : token.ranges) member = member || (low <= c && c <= high);
      return member != token.negated;
    }
    case Token::Kind::star:
      break;
  }
  return false;
}

bool Glob::matches(std::string_view text) const {
  // Greedy matching with one backtrack point, the last '*': linear for the patterns used here,
  // never exponential.
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::size_t token = 0;
  std::size_t at = 0;
  std::size_t star = none;
  std::size_t star_at = 0;
  while (at < text.size()) {
    if (token < tokens_.size() && tokens_[token].kind == Token::Kind::star) {
      star = token++;
      star_at = at;
    } else if (token < tokens_.size() && matches_one(tokens_[token], text[at])) {
      ++token;
      ++at;
    } else if (star != none) {
      token = star + 1;
      at = ++star_at;
    } else {
      return false;
    }
  }
  while (token < tokens_.size() && tokens_[token].kind == Token::Kind::star) ++token;
  return token == tokens_.size();
}

}  // namespace polydev
