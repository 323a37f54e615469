#include "console.hpp"

#include <algorithm>
#include <utility>

namespace polydev::report {

namespace {

// GoogleTest's own lines: each ends the message of the part before it.
bool is_gtest_line(std::string_view line) {
  for (std::string_view marker :
       {"[ RUN      ] ", "[       OK ] ", "[  FAILED  ] ", "[  SKIPPED ] ", "[----------]",
        "[==========]", "[  PASSED  ] "}) {
    if (line.substr(0, marker.size()) == marker) return true;
  }
  return false;
}

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

// "FILE:LINE: Failure", "FILE: Skipped" (no line), "unknown file: Failure": the head of a part
// (PrettyUnitTestResultPrinter's FormatFileLocation, a space and the kind). The location of what
// it returns is "FILE:LINE" or "FILE", as GoogleTest's XML writes it.
bool part_head(std::string_view line, ConsolePart& part) {
  std::string_view location;
  if (ends_with(line, ": Failure")) {
    part.skip = false;
    location = line.substr(0, line.size() - 9);
  } else if (ends_with(line, ": Skipped")) {
    part.skip = true;
    location = line.substr(0, line.size() - 9);
  } else {
    return false;
  }
  // "FILE:LINE" (FILE may hold spaces), "FILE" (no line; then it must look like a path, not a
  // word of the test's own output such as "Expected: Failure") or "unknown file".
  const auto colon = location.rfind(':');
  const bool with_line =
      colon != std::string_view::npos && colon > 0 && colon + 1 < location.size() &&
      location.find_first_not_of("0123456789", colon + 1) == std::string_view::npos;
  const bool path_only = location.find(' ') == std::string_view::npos &&
                         location.find_first_of("/\\.") != std::string_view::npos;
  if (!with_line && !path_only && location != "unknown file") return false;
  part.location = std::string(location);
  return true;
}

// polydev's "[  SKIPPED ] NAME: REASON", not GoogleTest's "[  SKIPPED ] NAME (3 ms)" or its
// summary "[  SKIPPED ] 1 test, listed below:".
bool skipped_entry(std::string_view line, std::pair<std::string, std::string>& entry) {
  constexpr std::string_view marker = "[  SKIPPED ] ";
  if (line.substr(0, marker.size()) != marker) return false;
  const std::string_view rest = line.substr(marker.size());
  const auto colon = rest.find(": ");
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::string_view name = rest.substr(0, colon);
  if (name.find(' ') != std::string_view::npos) return false;
  entry = {std::string(name), std::string(rest.substr(colon + 2))};
  return true;
}

// GoogleTest's summary of failed tests: " 1 FAILED TEST", " 3 FAILED TESTS" (after spaces, a
// count, then the words; "YOU HAVE N DISABLED TESTS" is another line).
bool failed_tests_summary(std::string_view line) {
  const auto digits = line.find_first_not_of(' ');
  if (digits == std::string_view::npos) return false;
  const auto words = line.find_first_not_of("0123456789", digits);
  if (words == digits || words == std::string_view::npos) return false;
  const std::string_view rest = line.substr(words);
  return rest == " FAILED TEST" || rest == " FAILED TESTS";
}

void trim_trailing_blank_lines(std::string& text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
}

}  // namespace

bool ConsoleOutput::has_failures() const {
  return !failed_lines.empty() || std::any_of(parts.begin(), parts.end(),
                                              [](const ConsolePart& part) { return !part.skip; });
}

ConsoleOutput parse_gtest_console(std::string_view output) {
  ConsoleOutput parsed;
  std::string test;
  ConsolePart* open = nullptr;  // the part whose message is being read
  const auto close = [&] {
    if (open) trim_trailing_blank_lines(open->text);
    open = nullptr;
  };
  for (std::size_t at = 0; at < output.size();) {
    const std::size_t end = output.find('\n', at);
    std::string_view line = output.substr(at, end == std::string_view::npos ? end : end - at);
    at = end == std::string_view::npos ? output.size() : end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    ConsolePart head;
    if (part_head(line, head)) {
      close();
      head.test = test;
      parsed.parts.push_back(std::move(head));
      open = &parsed.parts.back();
      continue;
    }
    if (line.substr(0, 13) == "[  FAILED  ] " || failed_tests_summary(line)) {
      parsed.failed_lines.emplace_back(line);
    }
    if (is_gtest_line(line)) {
      close();
      if (line.substr(0, 13) == "[ RUN      ] ") test = std::string(line.substr(13));
      std::pair<std::string, std::string> entry;
      if (skipped_entry(line, entry)) parsed.skipped_entries.push_back(std::move(entry));
      continue;
    }
    if (open && (!open->text.empty() || !line.empty())) {
      if (!open->text.empty()) open->text += '\n';
      open->text += line;
    }
  }
  close();
  return parsed;
}

}  // namespace polydev::report
