// `polydev report [--html OUT.html] [--json] [--strict] FILE...`: GoogleTest XML reports (one per
// binary, shard or machine) as one matrix test x device.
#include <iostream>

#include "commands.hpp"

#if defined(POLYDEV_TOOL_WITH_REPORT)
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

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
    "  exit status: 0 no failure, 1 a failure (or no results at all), 2 no report (bad usage,\n"
    "  a file that cannot be read or is not a GoogleTest report)\n";

}  // namespace

#if defined(POLYDEV_TOOL_WITH_REPORT)

namespace {

// The file's text, or nothing after saying on stderr why it cannot be read.
std::optional<std::string> read_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    std::string folder = path;
    while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
    std::cerr << "polydev report: cannot read '" << path
              << "': a directory; expected GoogleTest XML files (e.g. " << folder << "/*.xml)\n";
    return std::nullopt;
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  if (file) text << file.rdbuf();
  if (!file || file.bad()) {
    std::cerr << "polydev report: cannot read '" << path << "'\n";
    return std::nullopt;
  }
  return text.str();
}

}  // namespace

int report_command(const Arguments& arguments) {
  std::string html;
  bool json = false;
  bool strict = false;
  std::vector<std::string> files;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "--html") {
      if (i + 1 == arguments.size()) {
        return usage_error("report", "--html needs a file name", kReportUsage);
      }
      html = arguments[++i];
    } else if (argument.rfind("--html=", 0) == 0) {
      html = argument.substr(7);
      if (html.empty()) return usage_error("report", "--html needs a file name", kReportUsage);
    } else if (argument == "--json") {
      json = true;
    } else if (argument == "--strict") {
      strict = true;
    } else if (argument == "--help" || argument == "-h") {
      std::cout << kReportUsage;
      return 0;
    } else if (argument.size() > 1 && argument[0] == '-') {
      return usage_error("report", "unknown option '" + argument + "'", kReportUsage);
    } else {
      files.push_back(argument);
    }
  }
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
      std::cerr << "polydev report: " << failure.what() << '\n';
      return 2;
    }
  }

  const report::Matrix matrix = report::build_matrix(results);
  for (const std::string& warning : matrix.warnings) {
    std::cerr << "polydev report: warning: " << warning << '\n';
  }
  std::cout << (json ? report::format_json(matrix, files) : report::format_text(matrix, files));
  if (!html.empty()) {
    std::ofstream page(html, std::ios::trunc);
    page << report::format_html(matrix, files);
    page.close();
    if (!page) {
      std::cerr << "polydev report: cannot write '" << html << "'\n";
      return 2;
    }
  }
  if (results.empty()) {
    std::cerr << "polydev report: no test results in the given files; nothing was tested\n";
    return 1;
  }
  const bool failed = matrix.count(report::Outcome::fail) > 0 ||
                      (strict && matrix.count(report::Outcome::xpass) > 0);
  return failed ? 1 : 0;
}

#else

int report_command(const Arguments& arguments) {
  for (const std::string& argument : arguments) {
    if (argument == "--help" || argument == "-h") {
      std::cout << kReportUsage;
      return 0;
    }
  }
  std::cerr << "polydev report: this polydev was built without tinyxml2, which reads GoogleTest "
               "XML; install it (Debian: libtinyxml2-dev) and configure polydev again\n";
  return 2;
}

#endif

}  // namespace polydev::tool
