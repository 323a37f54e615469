#include "inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "io/printable.hpp"
#include "polydev/error.hpp"

namespace polydev::report {

namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& path) { return "'" + detail::printable(path) + "'"; }

// The ".xml" files below `folder`, sorted; `budget` is how many more may be taken.
std::vector<std::string> xml_files_below(const std::string& folder, std::size_t limit,
                                         std::size_t& budget) {
  std::vector<std::string> found;
  std::error_code failure;
  fs::recursive_directory_iterator it(folder, fs::directory_options::none, failure);
  for (; !failure && it != fs::recursive_directory_iterator(); it.increment(failure)) {
    const fs::directory_entry& entry = *it;
    std::error_code ignored;
    // A folder named "x.xml" is walked, not read; anything else of the name is the reader's to
    // read or refuse (a FIFO, a dangling link).
    if (entry.path().extension() != ".xml" || entry.is_directory(ignored)) continue;
    if (budget == 0) {
      throw error("more than " + std::to_string(limit) + " .xml files in " + quoted(folder) +
                  " and the other folders given; expected a folder of reports, "
                  "such as gtest_discover_tests' XML_OUTPUT_DIR or a CI job's artifacts");
    }
    --budget;
    found.push_back(entry.path().string());
  }
  if (failure) {
    throw error("cannot read the folder " + quoted(folder) + ": " + failure.message());
  }
  if (found.empty()) {
    throw error("no .xml file in the folder " + quoted(folder) +
                " or below it; expected GoogleTest XML reports (--gtest_output=xml, "
                "gtest_discover_tests' XML_OUTPUT_DIR) or CTest's --output-junit file");
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

std::vector<std::string> report_files(const std::vector<std::string>& paths, std::size_t limit) {
  std::vector<std::string> files;
  std::size_t budget = limit;
  for (const std::string& path : paths) {
    std::error_code ignored;
    if (!fs::is_directory(path, ignored)) {
      files.push_back(path);
      continue;
    }
    const std::vector<std::string> found = xml_files_below(path, limit, budget);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace polydev::report
