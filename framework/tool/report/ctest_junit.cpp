// CTest's JUnit file (ctest --output-junit): a <testsuite> root with one <testcase> per CTest
// entry, whose `status` is CTest's verdict and whose <system-out> holds what the entry printed.
// For the entries of gtest_discover_tests that is GoogleTest's console output of one test
// instance; for an entry that runs a whole binary, of many (a batch).
#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "console.hpp"
#include "xml_reader.hpp"

namespace polydev::report::detail {

namespace {

using tinyxml2::XMLElement;

constexpr const char* kCTestChildren =
    "CTest writes <failure>, <skipped>, <properties> and <system-out>";

// The words with which polydev's fixtures (fixtures/src/expectations.cpp) begin the skip of an
// expected failure and the failure of a strict entry's unexpected pass: CTest's file has no
// properties, so this is how an expectation is recognized in it.
constexpr std::string_view kExpectedFailure = "expected failure: ";
constexpr std::string_view kUnexpectedPass = "unexpected pass of an xfail entry: ";

// CTest's reasons for a "notrun" entry that are skips; any other (a missing executable or
// required file, a failed fixture) is a failure, as CTest counts it.
constexpr std::string_view kSkipRegex = "SKIP_REGULAR_EXPRESSION_MATCHED";
constexpr std::string_view kSkipCode = "SKIP_RETURN_CODE=";

// CTest's fixture entries (FIXTURES_SETUP, FIXTURES_CLEANUP) prepare and tidy up for the tests;
// they test nothing and are not rows of the matrix. CTest's file does not mark them, so the report
// knows them by name or label (docs/report.md):
// - polydev_resource_spec, the FIXTURES_SETUP entry that an older polydev_discover_device_tests
//   added to write the resource spec (now CTest writes it when it starts), which the JUnit files
//   of those versions still hold;
// - an entry with the label polydev_fixture, which a user gives the fixture entries of their own
//   (CMake 4 writes an entry's labels into the file as the property cmake_labels).
// Only one that passed or was skipped is left out: a failed fixture is the reason its tests did
// not run ("Fixture dependency failed"), so it stays, in a row of its own.
constexpr std::string_view kFixtureEntries[] = {"polydev_resource_spec"};
constexpr std::string_view kFixtureLabel = "polydev_fixture";

// How much of an entry's output a failure without a GoogleTest message shows: its last lines.
constexpr std::size_t kOutputTailLines = 12;

bool starts_with(std::string_view text, std::string_view start) {
  return text.substr(0, start.size()) == start;
}

// The last `count` lines of `output`, without blank lines around them.
std::string tail(const std::string& output, std::size_t count) {
  const std::size_t last = output.find_last_not_of("\r\n");
  if (last == std::string::npos) return "";
  std::size_t start = 0;
  std::size_t lines = 0;
  for (std::size_t search = last; search > 0;) {
    const std::size_t newline = output.rfind('\n', search - 1);
    if (newline == std::string::npos) break;
    if (++lines == count) {
      start = newline + 1;
      break;
    }
    search = newline;
  }
  start = output.find_first_not_of("\r\n", start);
  return output.substr(start, last + 1 - start);
}

// The parts as GoogleTest's XML writes each failure: "FILE:LINE", a line feed, the message; blank
// lines between them. A part of another test than the entry's own (an entry of a device or of a
// whole binary runs many) names its test; the same message of several tests (a reason of every
// test on a device) is given once, with their number.
std::string joined(const std::vector<const ConsolePart*>& parts, const std::string& entry) {
  struct Message {
    std::string text;
    std::vector<std::string> tests;
  };
  std::vector<Message> messages;
  // An entry of a whole binary may print a hundred thousand parts.
  std::unordered_map<std::string, std::size_t> index;
  for (const ConsolePart* part : parts) {
    std::string text = part->location + "\n" + part->text;
    const auto [found, added] = index.try_emplace(text, messages.size());
    if (added) messages.push_back({std::move(text), {}});
    Message& message = messages[found->second];
    if (!part->test.empty() && part->test != entry) message.tests.push_back(part->test);
  }
  std::string joined;
  for (const Message& message : messages) {
    if (!joined.empty()) joined += "\n\n";
    joined += message.text;
    if (message.tests.size() == 1) joined += "\n(in " + message.tests.front() + ")";
    if (message.tests.size() > 1) {
      joined += "\n(in " + message.tests.front() + " and " +
                std::to_string(message.tests.size() - 1) + " more)";
    }
  }
  return joined;
}

class CTestReader {
 public:
  explicit CTestReader(const XmlReader& reader) : reader_(reader) {}

  CaseResult entry(const XMLElement& testcase) const {
    CaseResult result;
    const std::string entry = attribute(testcase, "name");
    // gtest_discover_tests names an entry "<suite>.<test>" (TEST_PREFIX and TEST_SUFFIX aside);
    // GoogleTest's suite names hold no '.', so the first one splits them as its XML does. An entry
    // of a device ("<binary>/<device key>") or of a whole binary has no suite.
    const auto dot = entry.find('.');
    result.suite = dot == std::string::npos ? "" : entry.substr(0, dot);
    result.name = dot == std::string::npos ? entry : entry.substr(dot + 1);
    result.source = Source::ctest;
    result.file = reader_.file();
    result.line = testcase.GetLineNum();
    reader_.check_testcase_children(testcase, kCTestChildren);
    result.properties = reader_.properties(testcase);

    const std::string status = attribute(testcase, "status");
    if (status != "run" && status != "fail" && status != "notrun" && status != "disabled") {
      reader_.fail(testcase.GetLineNum(),
                   (status.empty() ? std::string("a <testcase> without a 'status'")
                                   : "status '" + shown(status) + "' of a <testcase>") +
                       "; CTest writes 'run', 'fail', 'notrun' or 'disabled'");
    }
    const XMLElement* out = testcase.FirstChildElement("system-out");
    const std::string output = out ? text_of(*out) : "";
    const ConsoleOutput console = parse_gtest_console(output);
    // Conservative: a <failure> element is a failure whatever the status says.
    const bool failure_element =
        testcase.FirstChildElement("failure") || testcase.FirstChildElement("error");
    if (status == "fail" || failure_element) {
      failed(testcase, entry, console, output, result);
    } else if (status == "notrun") {
      not_run(testcase, entry, console, output, result);
    } else if (status == "run" && testcase.FirstChildElement("skipped")) {
      reader_.fail(testcase.GetLineNum(),
                   "a 'run' <testcase> with <skipped>; CTest writes <skipped> only in a 'notrun' "
                   "or 'disabled' one");
    } else if (status == "disabled") {
      result.outcome = Outcome::skip;
      result.message = "not run: disabled (the CTest property DISABLED)";
    } else {
      result.outcome = Outcome::pass;
    }
    return result;
  }

 private:
  static std::vector<const ConsolePart*> parts(const ConsoleOutput& console, bool skip) {
    std::vector<const ConsolePart*> found;
    for (const ConsolePart& part : console.parts) {
      if (part.skip == skip) found.push_back(&part);
    }
    return found;
  }

  static bool all_start_with(const std::vector<const ConsolePart*>& parts, std::string_view start) {
    if (parts.empty()) return false;
    for (const ConsolePart* part : parts) {
      if (!starts_with(part->text, start)) return false;
    }
    return true;
  }

  void failed(const XMLElement& testcase, const std::string& entry, const ConsoleOutput& console,
              const std::string& output, CaseResult& result) const {
    result.run_failed = true;
    const auto failures = parts(console, false);
    result.outcome = all_start_with(failures, kUnexpectedPass) ? Outcome::xpass : Outcome::fail;
    if (!failures.empty()) {
      result.message = joined(failures, entry);
      return;
    }
    // No failure that GoogleTest printed: the process crashed, timed out, exited with an error
    // after its tests, or is not a GoogleTest binary. CTest 3.x leaves the reason empty.
    std::string reason;
    if (const XMLElement* failure = testcase.FirstChildElement("failure")) {
      reason = message_of(*failure);
    } else if (const XMLElement* error = testcase.FirstChildElement("error")) {
      reason = message_of(*error);
    }
    result.message = "CTest reports the entry failed" + (reason.empty() ? "" : ": " + reason) +
                     "; its output holds no GoogleTest failure (a crash, a timeout, an exit "
                     "status)";
    const std::string last = tail(output, kOutputTailLines);
    result.message += last.empty() ? "; it printed nothing" : "; its output ends with:\n" + last;
  }

  static void skipped_with_failures(const std::string& entry, const std::string& reason,
                                    const ConsoleOutput& console, CaseResult& result) {
    result.run_failed = true;
    const auto failures = parts(console, false);
    result.outcome = all_start_with(failures, kUnexpectedPass) ? Outcome::xpass : Outcome::fail;
    if (!failures.empty()) {
      result.message = joined(failures, entry);
    } else {
      result.message = "GoogleTest reports failed tests:";
      for (std::size_t i = 0; i < console.failed_lines.size() && i < kOutputTailLines; ++i) {
        result.message += "\n" + console.failed_lines[i];
      }
    }
    result.message += "\n\n(CTest counted the entry as skipped, " + reason +
                      ", but its output holds GoogleTest failures)";
  }

  void not_run(const XMLElement& testcase, const std::string& entry, const ConsoleOutput& console,
               const std::string& output, CaseResult& result) const {
    const XMLElement* skipped = testcase.FirstChildElement("skipped");
    if (!skipped) {
      reader_.fail(testcase.GetLineNum(),
                   "a 'notrun' <testcase> without <skipped>; CTest writes its reason there");
    }
    const std::string reason = message_of(*skipped);
    if (reason != kSkipRegex && !starts_with(reason, kSkipCode)) {
      result.outcome = Outcome::fail;
      result.run_failed = true;
      result.message = "CTest did not run the entry: " + reason;
      const std::string last = tail(output, kOutputTailLines);
      if (!last.empty() && last != reason) result.message += "\n" + last;
      return;
    }
    // CTest's SKIP_REGULAR_EXPRESSION matches anywhere in the output, so a failing test that
    // prints polydev's marker or a "[  SKIPPED ]" line makes CTest count it as skipped. What
    // GoogleTest says failed has failed.
    if (console.has_failures()) {
      skipped_with_failures(entry, reason, console, result);
      return;
    }
    const auto skips = parts(console, true);
    result.outcome = all_start_with(skips, kExpectedFailure) ? Outcome::xfail : Outcome::skip;
    result.message = joined(skips, entry);
    // polydev's explanation of an entry that this run does not have (another selection, another
    // shard): "[  SKIPPED ] <entry>: <reason>".
    for (const auto& [name, why] : console.skipped_entries) {
      if (!result.message.empty()) result.message += "\n\n";
      result.message += name == entry ? why : name + ": " + why;
    }
    if (result.message.empty()) {
      result.message = reason == kSkipRegex
                           ? "skipped: the output matched the entry's SKIP_REGULAR_EXPRESSION"
                           : "skipped: the exit status matched the entry's SKIP_RETURN_CODE";
    }
  }

  const XmlReader& reader_;
};

// Whether `result`, an entry of CTest's file, is a fixture entry (above).
bool is_fixture(const CaseResult& result) {
  const std::string entry = result.suite.empty() ? result.name : result.suite + "." + result.name;
  for (const std::string_view name : kFixtureEntries) {
    if (entry == name) return true;
  }
  const auto labels = result.properties.find("cmake_labels");
  if (labels == result.properties.end()) return false;
  // A CMake list: labels separated by ';'.
  std::string_view rest = labels->second;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find(';'), rest.size());
    if (rest.substr(0, end) == kFixtureLabel) return true;
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  return false;
}

}  // namespace

std::vector<CaseResult> read_ctest_junit(const XMLElement& root, const XmlReader& reader) {
  const CTestReader ctest(reader);
  std::vector<CaseResult> results;
  for (const XMLElement* element : reader.testcases(root)) {
    CaseResult result = ctest.entry(*element);
    if (is_fixture(result) && !result.run_failed) continue;
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace polydev::report::detail
