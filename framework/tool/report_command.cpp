// `polydev report [--html OUT.html] [--json] [--strict] FILE|DIR...`: GoogleTest XML reports (one
// per binary, shard, CTest entry or machine) and CTest's JUnit files as one matrix test x device.
#include <iostream>

#include "commands.hpp"

#if defined(POLYDEV_TOOL_WITH_REPORT)
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "io/printable.hpp"
#include "matrix.hpp"
#include "output.hpp"
#include "polydev/detail/regular_file.hpp"
#include "render.hpp"
#include "results.hpp"
#endif

namespace polydev::tool {

namespace {

constexpr const char* kReportUsage =
    "usage: polydev report [--html OUT.html [--source-url URL [--source-root DIR]]] [--json]\n"
    "                      [--strict] FILE|DIR...\n"
    "  reads GoogleTest XML reports (--gtest_output=xml:FILE) and CTest's JUnit files\n"
    "  (ctest --output-junit FILE), and the .xml files in folders (gtest_discover_tests'\n"
    "  XML_OUTPUT_DIR); several, e.g. shards or machines, are merged. Prints the matrix\n"
    "  test x device: pass, FAIL, skip, xfail, XPASS; flags tests skipped on every device and\n"
    "  tests that ran on no device; lists each failure message and each skip reason once\n"
    "  --html OUT.html    also writes the matrix as a self-contained HTML page; the files that\n"
    "                     messages name are linked relative to it\n"
    "  --source-url URL   links the files under the source root to URL + their path + #L<line>\n"
    "                     instead (e.g. https://github.com/ORG/REPO/blob/COMMIT/)\n"
    "  --source-root DIR  the folder that URL shows (default: the working directory)\n"
    "  --json             prints JSON instead of the text matrix\n"
    "  --strict           an unexpected pass (XPASS) fails the report too\n"
    "  --                 ends the options: the files after it may start with '-'\n"
    "  exit status: 0 no failure, 1 a failure (or no results at all), 2 no report (bad usage,\n"
    "  a file that cannot be read or is not a report)\n";

}  // namespace

const CommandSyntax kReportSyntax{kReportUsage,
                                  {{"--html", "a file name"},
                                   {"--source-url", "a URL"},
                                   {"--source-root", "a folder"},
                                   {"--json"},
                                   {"--strict"}},
                                  static_cast<std::size_t>(-1)};

#if defined(POLYDEV_TOOL_WITH_REPORT)

namespace {

// The file's text, or nothing after saying on stderr why it cannot be read. Only a regular file
// of at most kTextFileLimit bytes is read: a FIFO would hang, /dev/zero would never end.
std::optional<std::string> read_file(const std::string& path) {
  try {
    return detail::read_regular_file(path, detail::kTextFileLimit);
  } catch (const detail::file_error& failure) {
    std::cerr << "polydev report: cannot read '" << detail::printable(path)
              << "': " << detail::printable_text(failure.reason()) << '\n';
    return std::nullopt;
  }
}

// How the page links the files that messages name, from --html, --source-url and --source-root.
// @throws usage_failure for a combination that means nothing or a URL that is none.
report::SourceLinks source_links(const ParsedArguments& parsed) {
  namespace fs = std::filesystem;
  const std::optional<std::string> html = parsed.value("--html");
  const std::optional<std::string> url = parsed.value("--source-url");
  const std::optional<std::string> root = parsed.value("--source-root");
  if (url && !html) {
    throw usage_failure(
        "--source-url links the files that the --html page names; expected "
        "--html OUT.html with it",
        kReportUsage);
  }
  if (root && !url) {
    throw usage_failure("--source-root needs --source-url, the URL that shows that folder",
                        kReportUsage);
  }
  // The page puts the URL in links: a javascript: or data: URL there would run when clicked.
  if (url && url->rfind("https://", 0) != 0 && url->rfind("http://", 0) != 0 &&
      url->rfind("file://", 0) != 0) {
    throw usage_failure("--source-url " + detail::quote(*url) +
                            " is not a URL of files; expected one that starts with https://, "
                            "http:// or file://",
                        kReportUsage);
  }
  report::SourceLinks links;
  std::error_code ignored;
  if (html)
    links.page_folder = fs::absolute(*html, ignored).lexically_normal().parent_path().string();
  if (url) {
    links.url = *url;
    links.root = fs::absolute(root.value_or("."), ignored).lexically_normal().string();
  }
  return links;
}

}  // namespace

int report_command(const ParsedArguments& parsed) {
  const std::optional<std::string> html = parsed.value("--html");
  const bool json = parsed.has("--json");
  const bool strict = parsed.has("--strict");
  if (parsed.positionals.empty()) {
    return usage_error("report",
                       "no report given; expected GoogleTest XML files, CTest's JUnit file or "
                       "folders of them",
                       kReportUsage);
  }
  const report::SourceLinks links = source_links(parsed);
  std::vector<std::string> files;
  try {
    files = report::report_files(parsed.positionals);
  } catch (const error& failure) {
    std::cerr << "polydev report: " << detail::printable_text(failure.what()) << '\n';
    return 2;
  }
  // Checked before anything is read or printed: the page must not replace a report it is made
  // of, nor block on a FIFO after the matrix was printed.
  if (html) {
    if (const auto problem = report::output_problem("--html", *html, parsed.positionals, files)) {
      std::cerr << "polydev report: " << *problem << '\n';
      return 2;
    }
  }

  std::vector<report::CaseResult> results;
  for (const std::string& file : files) {
    const std::optional<std::string> text = read_file(file);
    if (!text) return 2;
    try {
      std::vector<report::CaseResult> read = report::parse_report_xml(*text, file);
      results.insert(results.end(), std::make_move_iterator(read.begin()),
                     std::make_move_iterator(read.end()));
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
    if (const auto problem =
            report::write_output(*html, report::format_html(matrix, files, links))) {
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

int report_command(const ParsedArguments& /*parsed*/) {
  std::cerr << "polydev report: this polydev was built without tinyxml2, which reads GoogleTest "
               "and CTest XML; install it (Debian: libtinyxml2-dev) and configure polydev again\n";
  return 2;
}

#endif

}  // namespace polydev::tool
