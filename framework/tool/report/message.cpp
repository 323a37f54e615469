#include <algorithm>
#include <sstream>
#include <unordered_set>
#include <vector>

#include "render.hpp"

namespace polydev::report {

namespace {

// "path/to/file.cpp:42" or "unknown file": the line GoogleTest puts before each failure's text.
bool is_location(const std::string& line) {
  if (line == "unknown file") return true;
  const auto colon = line.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == line.size()) return false;
  if (line.find(' ') != std::string::npos) return false;
  return line.find_first_not_of("0123456789", colon + 1) == std::string::npos;
}

}  // namespace

std::string readable_message(const std::string& message) {
  std::vector<std::string> kept;
  std::istringstream lines(message);
  bool after_location = false;
  for (std::string line; std::getline(lines, line);) {
    if (is_location(line)) {
      after_location = true;
      continue;
    }
    if (!(after_location && line == "Failed")) kept.push_back(line);
    after_location = false;
  }
  while (!kept.empty() && kept.back().empty()) kept.pop_back();
  std::string text;
  for (const std::string& line : kept) {
    if (text.empty() && line.empty()) continue;
    text += (text.empty() ? "" : "\n") + line;
  }
  return text;
}

std::string unexpected_pass(const std::string& source) {
  if (source.empty()) return kUnexpectedPass;
  return "passed, but the xfail expectation at " + source +
         " says it fails: if it is fixed, remove the expectation";
}

std::vector<std::string> message_locations(const std::string& message) {
  std::vector<std::string> found;
  std::unordered_set<std::string> seen;  // a message may have a hundred thousand locations
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);) {
    if (is_location(line) && seen.insert(line).second) found.push_back(line);
  }
  return found;
}

std::vector<std::string> result_locations(const CaseResult& result) {
  std::vector<std::string> found = message_locations(result.message);
  const auto source = result.properties.find("polydev_expectation_source");
  if (source != result.properties.end() && !source->second.empty() &&
      std::find(found.begin(), found.end(), source->second) == found.end()) {
    found.push_back(source->second);
  }
  return found;
}

}  // namespace polydev::report
