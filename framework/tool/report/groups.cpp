// Messages grouped: a selector error that fails every test of a suite, or a polydev.yaml entry
// that skips a test on every device, is one message with its count, not one per result.
#include <algorithm>
#include <map>
#include <unordered_set>
#include <utility>

#include "render.hpp"

namespace polydev::report {

std::vector<MessageGroup> group_messages(const Matrix& matrix,
                                         const std::vector<Outcome>& outcomes) {
  std::vector<MessageGroup> groups;
  std::map<std::pair<Outcome, std::string>, std::size_t> index;
  // The locations each group already has: a message that a hundred thousand results share may
  // have as many places.
  std::vector<std::unordered_set<std::string>> seen;
  for (std::size_t r = 0; r < matrix.rows.size(); ++r) {
    for (const auto& [column, cell] : matrix.rows[r].cells) {
      for (const CaseResult& result : cell.results) {
        if (std::find(outcomes.begin(), outcomes.end(), result.outcome) == outcomes.end()) continue;
        std::string message = readable_message(result.message);
        if (message.empty() && result.outcome == Outcome::xpass) message = kUnexpectedPass;
        const auto [found, added] = index.try_emplace({result.outcome, message}, groups.size());
        if (added) {
          seen.emplace_back();
          groups.emplace_back();
          groups.back().outcome = result.outcome;
          groups.back().message = std::move(message);
        }
        MessageGroup& group = groups[found->second];
        group.occurrences.push_back({r, column, &result});
        for (std::string& location : message_locations(result.message)) {
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
