#pragma once

// Warnings about a selector, bounded however long the selector is. A value with 100 000 empty
// entries must not print 100 000 lines, nor lines that each quote the whole value: warnings of one
// kind become one line with a count and the first few places (quotes of a selector are cut to a
// short prefix by printable.hpp's `quote`). Header-only, so that every target that compiles the
// selectors has it.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/printable.hpp"

namespace polydev::detail {

/// "1, 2, 3, ... 100000": the first three places and the last of `count` places, or every place
/// when there are at most four.
inline std::string places_text(const std::vector<std::size_t>& first, std::size_t last,
                               std::size_t count) {
  std::string text;
  for (std::size_t place : first) text += (text.empty() ? "" : ", ") + std::to_string(place);
  if (count > first.size()) {
    text += count > first.size() + 1 ? ", ... " : ", ";
    text += std::to_string(last);
  }
  return text;
}

/// Warnings collected while a selector is read, one line per kind.
///
/// A kind is what stays the same when a selector repeats itself ("an empty entry", "device 0
/// again"): occurring at one place it is its full warning (`once`); at several, one line from
/// `many`, given how many places and which ("1, 2, 3, ... 100000"). Lines come in the order their
/// kinds first occurred.
class WarningSummary {
 public:
  using Many = std::function<std::string(std::size_t count, const std::string& places)>;

  /// One occurrence of `kind` at `place` (an entry number, an item number). Places must not
  /// decrease; the same place twice in a row counts once. `once()` and `many` are taken from the
  /// first occurrence only, so that a repeated warning does not build its text again; `many` is
  /// called by lines(), so what it refers to must live until then.
  template <typename Once, typename MakeMany>
  void add(const std::string& kind, std::size_t place, Once&& once, MakeMany&& many) {
    const auto [it, inserted] = index_.try_emplace(kind, kinds_.size());
    if (inserted) {
      kinds_.push_back(
          Kind{std::forward<Once>(once)(), Many(std::forward<MakeMany>(many)), 1, {place}, place});
      return;
    }
    Kind& seen = kinds_[it->second];
    if (seen.last == place) return;
    ++seen.count;
    if (seen.first.size() < 3) seen.first.push_back(place);
    seen.last = place;
  }

  /// The warnings, one per kind.
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    out.reserve(kinds_.size());
    for (const Kind& kind : kinds_) {
      out.push_back(kind.count == 1
                        ? kind.once
                        : kind.many(kind.count, places_text(kind.first, kind.last, kind.count)));
    }
    return out;
  }

 private:
  struct Kind {
    std::string once;
    Many many;
    std::size_t count = 0;
    std::vector<std::size_t> first;  // the first three places
    std::size_t last = 0;
  };
  std::vector<Kind> kinds_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace polydev::detail
