// `polydev report [--html OUT.html] [--json] [--strict] FILE...`: GoogleTest XML reports (one per
// binary, shard or machine) as one matrix test x device.
#include <iostream>

#include "commands.hpp"

#if defined(POLYDEV_TOOL_WITH_REPORT)
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "io/printable.hpp"
#include "io/regular_file.hpp"
#include "matrix.hpp"
#include "render.hpp"
#include "results.hpp"
#endif

namespace polydev::tool {

namespace {

constexpr const char* kReportUsage =
    "usage: polydev report [--html OUT.html] [--json] [--strict] FILE...\n"
    "  reads GoogleTest XML reports (--gtest_output=xml:FILE; several files, e.g. shards or\n"
    "  machines, are merged) and prints the matrix test x device: pass, FAIL, skip, xfail,\n"
    "  XPASS; it flags tests skipped on every device and tests that ran on no device\n"
    "  --html OUT.html  also writes the matrix as a self-contained HTML page\n"
    "  --json           prints JSON instead of the text matrix\n"
    "  --strict         an unexpected pass (XPASS) fails the report too\n"
    "  --               ends the options: the files after it may start with '-'\n"
    "  exit status: 0 no failure, 1 a failure (or no results at all), 2 no report (bad usage,\n"
    "  a file that cannot be read or is not a GoogleTest report)\n";

const CommandSyntax kSyntax{kReportUsage,
                            {{"--html", "a file name"}, {"--json"}, {"--strict"}},
                            static_cast<std::size_t>(-1)};

}  // namespace

#if defined(POLYDEV_TOOL_WITH_REPORT)

namespace {

// The file's text, or nothing after saying on stderr why it cannot be read. Only a regular file
// of at most kTextFileLimit bytes is read: a FIFO would hang, /dev/zero would never end.
std::optional<std::string> read_file(const std::string& path) {
  try {
    return detail::read_regular_file(path, detail::kTextFileLimit);
  } catch (const detail::file_error& failure) {
    std::cerr << "polydev report: cannot read '" << detail::printable(path) << "': ";
    if (detail::describe_file_type(path) == "a directory") {
      // A folder of reports is a common slip: say how to name its files.
      std::string folder = path;
      while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
      std::cerr << "a directory; expected GoogleTest XML files (e.g. " << detail::printable(folder)
                << "/*.xml)";
    } else {
      std::cerr << detail::printable_text(failure.reason());
    }
    std::cerr << '\n';
    return std::nullopt;
  }
}

}  // namespace

int report_command(const Arguments& arguments) {
  const ParsedArguments parsed = parse_arguments(arguments, kSyntax);
  if (parsed.help) {
    std::cout << kReportUsage;
    return 0;
  }
  const std::optional<std::string> html = parsed.value("--html");
  const bool json = parsed.has("--json");
  const bool strict = parsed.has("--strict");
  const std::vector<std::string>& files = parsed.positionals;
  if (files.empty()) {
    return usage_error("report", "no report given; expected one or more GoogleTest XML files",
                       kReportUsage);
  }

  std::vector<report::CaseResult> results;
  for (const std::string& file : files) {
    const std::optional<std::string> text = read_file(file);
    if (!text) return 2;
    try {
      std::vector<report::CaseResult> read = report::parse_gtest_xml(*text, file);
      results.insert(results.end(), read.begin(), read.end());
    } catch (const report::input_error& failure) {
      std::cerr << "polydev report: " << detail::printable_text(failure.what()) << '\n';
      return 2;
    }
  }

  const report::Matrix matrix = report::build_matrix(results);
  for (const std::string& warning : matrix.warnings) {
    std::cerr << "polydev report: warning: " << detail::printable_text(warning) << '\n';
  }
  std::cout << (json ? report::format_json(matrix, files) : report::format_text(matrix, files));
  if (html) {
    if (const auto problem = write_file(*html, report::format_html(matrix, files))) {
      std::cerr << "polydev report: cannot write '" << detail::printable(*html) << "': " << *problem
                << '\n';
      return 2;
    }
  }
  if (results.empty()) {
    std::cerr << "polydev report: no test results in the given files; nothing was tested\n";
    return 1;
  }
  // An unexpected pass that GoogleTest reported as a failure (a strict xfail entry failed it) is
  // a failure of the run: the report does not turn it into a pass, with or without --strict.
  const bool failed_xpass =
      std::any_of(results.begin(), results.end(), [](const report::CaseResult& result) {
        return result.outcome == report::Outcome::xpass && result.run_failed;
      });
  const bool failed = matrix.count(report::Outcome::fail) > 0 || failed_xpass ||
                      (strict && matrix.count(report::Outcome::xpass) > 0);
  return failed ? 1 : 0;
}

#else

int report_command(const Arguments& arguments) {
  if (parse_arguments(arguments, kSyntax).help) {
    std::cout << kReportUsage;
    return 0;
  }
  std::cerr << "polydev report: this polydev was built without tinyxml2, which reads GoogleTest "
               "XML; install it (Debian: libtinyxml2-dev) and configure polydev again\n";
  return 2;
}

#endif

}  // namespace polydev::tool
