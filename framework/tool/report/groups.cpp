// Messages grouped: a selector error that fails every test of a suite, or a polydev.yaml entry
// that skips a test on every device, is one message with its count, not one per result; so is a
// reason that names the device it was recorded on.
#include <algorithm>
#include <map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "render.hpp"

namespace polydev::report {

namespace {

bool word_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Where `word` occurs in `text`, overlapping occurrences included, in time linear in both: a
// report may hold a message of megabytes and a device name of as many, for which repeated
// std::string::find takes their product.
std::vector<std::size_t> occurrences(const std::string& text, const std::string& word) {
  // Knuth-Morris-Pratt: border[i] is the length of the longest proper prefix of word[0..i] that
  // is also its suffix.
  std::vector<std::size_t> border(word.size(), 0);
  for (std::size_t i = 1, length = 0; i < word.size(); ++i) {
    while (length > 0 && word[i] != word[length]) length = border[length - 1];
    if (word[i] == word[length]) ++length;
    border[i] = length;
  }
  std::vector<std::size_t> found;
  for (std::size_t i = 0, matched = 0; i < text.size(); ++i) {
    while (matched > 0 && text[i] != word[matched]) matched = border[matched - 1];
    if (text[i] == word[matched]) ++matched;
    if (matched == word.size()) {
      found.push_back(i + 1 - word.size());
      matched = border[matched - 1];
    }
  }
  return found;
}

// `text` with every `word` that stands as a whole word (not "cpu" in "opencl_pocl_cpu_0") as
// `shown`.
std::string replace_word(const std::string& text, const std::string& word, const char* shown) {
  if (word.empty() || word.size() > text.size()) return text;
  std::string out;
  std::size_t from = 0;
  for (const std::size_t at : occurrences(text, word)) {
    const std::size_t end = at + word.size();
    if (at < from || (at > 0 && word_character(text[at - 1]) && word_character(word.front())) ||
        (end < text.size() && word_character(text[end]) && word_character(word.back()))) {
      continue;
    }
    out.append(text, from, at - from).append(shown);
    from = end;
  }
  return out.append(text, from, std::string::npos);
}

// A message as its group knows it: without its device's key and name, which make one reason of
// many devices as many messages ("opencl_a_0 lacks cl_khr_fp64").
std::string without_device(const std::string& message, const Column& column) {
  if (column.kind != ColumnKind::device) return message;
  return replace_word(replace_word(message, column.key, kDeviceKey), column.name, kDeviceName);
}

}  // namespace

std::vector<MessageGroup> group_messages(const Matrix& matrix,
                                         const std::vector<Outcome>& outcomes) {
  std::vector<MessageGroup> groups;
  std::map<std::pair<Outcome, std::string>, std::size_t> index;
  // The locations each group already has: a message that a hundred thousand results share may
  // have as many places.
  std::vector<std::unordered_set<std::string>> seen;
  std::vector<const std::string*> generic;  // each group's message without its devices
  for (std::size_t r = 0; r < matrix.rows.size(); ++r) {
    for (const auto& [column, cell] : matrix.rows[r].cells) {
      for (const CaseResult& result : cell.results) {
        if (std::find(outcomes.begin(), outcomes.end(), result.outcome) == outcomes.end()) continue;
        std::string message = readable_message(result.message);
        if (message.empty() && result.outcome == Outcome::xpass) {
          const auto source = result.properties.find("polydev_expectation_source");
          message = unexpected_pass(source == result.properties.end() ? "" : source->second);
        }
        const auto [found, added] = index.try_emplace(
            {result.outcome, without_device(message, matrix.columns[column])}, groups.size());
        if (added) {
          seen.emplace_back();
          generic.push_back(&found->first.second);
          groups.emplace_back();
          groups.back().outcome = result.outcome;
          groups.back().message = std::move(message);
        }
        MessageGroup& group = groups[found->second];
        // Shown as it is while every result says the same; as the devices' words once they differ.
        if (!added && group.message != message) group.message = *generic[found->second];
        group.occurrences.push_back({r, column, &result});
        for (std::string& location : result_locations(result)) {
          if (seen[found->second].insert(location).second) {
            group.locations.push_back(std::move(location));
          }
        }
      }
    }
  }
  return groups;
}

}  // namespace polydev::report
