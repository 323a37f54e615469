#include "matrix.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "polydev/key.hpp"
#include "polydev/placeholders.hpp"

namespace polydev::report {

namespace {

constexpr const char* kHost = "host";
constexpr const char* kNoDevice = "no_device";

std::string property(const CaseResult& result, const char* name) {
  const auto found = result.properties.find(name);
  return found == result.properties.end() ? "" : found->second;
}

// The part of a test case's name where polydev puts the device key: after the last '/' or, for a
// device combined with the user's parameters, "__".
std::string instance_of(const std::string& name) { return std::string(instance_device_part(name)); }

// The name without its device part and the separator before it: the row of the matrix.
std::string without_instance(const std::string& name, const std::string& instance) {
  std::string row = name.substr(0, name.size() - instance.size());
  const std::size_t separator =
      row.size() >= 2 && row.compare(row.size() - 2, 2, "__") == 0 ? 2 : 1;
  row.resize(row.size() - std::min(separator, row.size()));
  return row;
}

struct Placement {
  ColumnKind kind;
  std::string column;  // device key, or kHost / kNoDevice
  std::string test;    // row name
};

// A name that polydev gives a device ("opencl_pocl_cpu_0", "cuda_nvidia_h200_pci_00_07"): the rule
// by which polydev_discover_device_tests gives an entry its device's CTest resource.
bool looks_like_device_key(const std::string& instance) {
  std::size_t prefix = 0;
  if (instance.rfind("opencl_", 0) == 0) prefix = 7;
  if (instance.rfind("cuda_", 0) == 0) prefix = 5;
  return prefix != 0 && instance.size() > prefix &&
         instance.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_", prefix) ==
             std::string::npos;
}

Placement place(const CaseResult& result, const std::set<std::string>& known_keys) {
  const std::string instance = instance_of(result.name);
  const auto row = [&](bool strip) {
    const std::string name = strip ? without_instance(result.name, instance) : result.name;
    if (result.suite.empty()) return name;
    return name.empty() ? result.suite : result.suite + "." + name;
  };
  if (!instance.empty() && polydev::is_placeholder(instance)) {
    return {ColumnKind::no_device, kNoDevice, row(true)};
  }
  const std::string key = property(result, "polydev_device_key");
  if (!key.empty() && instance == key) return {ColumnKind::device, key, row(true)};
  // A device instance that failed before its fixture recorded the key.
  if (!instance.empty() && known_keys.count(instance)) {
    return {ColumnKind::device, instance, row(true)};
  }
  // A CTest entry has no properties: its name is all there is. polydev_discover_device_tests
  // names an entry of a device "<binary>/<device key>", of the tests without one "<binary>/host".
  if (result.source == Source::ctest && looks_like_device_key(instance)) {
    return {ColumnKind::device, instance, row(true)};
  }
  if (result.source == Source::ctest && instance == "host" && result.suite.empty()) {
    return {ColumnKind::host, kHost, row(true)};
  }
  return {ColumnKind::host, kHost, row(false)};
}

std::string location(const CaseResult& result) {
  return result.file + ":" + std::to_string(result.line);
}

// The CTest entry's name, as CTest's file had it.
std::string entry_name(const CaseResult& result) {
  return result.suite.empty() ? result.name : result.suite + "." + result.name;
}

// Whether the GoogleTest results of a report file failed, by the file's path without ".xml" and by
// every shorter path of it ("a/b/c", "b/c", "c"). A shorter path of several files names none.
struct ReportVerdict {
  std::size_t results = 0;
  bool failed = false;
  bool ambiguous = false;
};

std::map<std::string, ReportVerdict> reports_by_path(const std::vector<CaseResult>& results) {
  std::map<std::string, ReportVerdict> by_file;
  for (const CaseResult& result : results) {
    if (result.source != Source::gtest) continue;
    ReportVerdict& verdict = by_file[result.file];
    ++verdict.results;
    verdict.failed = verdict.failed || result.run_failed;
  }
  std::map<std::string, ReportVerdict> reports;
  for (const auto& [file, verdict] : by_file) {
    if (file.size() <= 4 || file.compare(file.size() - 4, 4, ".xml") != 0) continue;
    const std::string path = file.substr(0, file.size() - 4);
    for (std::size_t at = path.size(); at != std::string::npos && at > 0;
         at = path.rfind('/', at - 1)) {
      const std::string shorter = at == path.size() ? path : path.substr(at + 1);
      if (shorter.empty()) continue;
      const auto [found, added] = reports.emplace(shorter, verdict);
      if (!added) found->second.ambiguous = true;
    }
  }
  return reports;
}

// The results without the CTest entries that a GoogleTest report of the same run covers: CTest
// runs an entry with the report written to "<DIR>/<entry name>.xml" (gtest_discover_tests'
// XML_OUTPUT_DIR; polydev_discover_device_tests for an entry of a device), so the report holds
// the entry's tests one by one. The entry adds nothing where both agree on whether something
// failed, and stays where CTest says more: it failed after a report that passed (a crash at exit,
// a sanitizer, a timeout), or the report is empty.
std::vector<CaseResult> without_covered_entries(const std::vector<CaseResult>& results) {
  const std::map<std::string, ReportVerdict> reports = reports_by_path(results);
  std::vector<CaseResult> kept;
  for (const CaseResult& result : results) {
    if (result.source == Source::ctest) {
      const auto report = reports.find(entry_name(result));
      if (report != reports.end() && !report->second.ambiguous && report->second.results > 0 &&
          report->second.failed == result.run_failed) {
        continue;
      }
    }
    kept.push_back(result);
  }
  return kept;
}

// A CTest entry and the GoogleTest report that its run wrote are one result seen twice, also
// where the report is not named after the entry (given by hand with --gtest_output). The entry adds
// nothing where both agree on whether the test failed, and is kept where CTest says more: it failed
// an entry whose report passed (a crash or a sanitizer after the report was written, a timeout).
void reconcile(Cell& cell) {
  const auto from = [&](Source source) {
    return std::any_of(cell.results.begin(), cell.results.end(),
                       [&](const CaseResult& result) { return result.source == source; });
  };
  if (!from(Source::gtest) || !from(Source::ctest)) return;
  const bool gtest_failed = std::any_of(
      cell.results.begin(), cell.results.end(),
      [](const CaseResult& result) { return result.source == Source::gtest && result.run_failed; });
  cell.results.erase(std::remove_if(cell.results.begin(), cell.results.end(),
                                    [&](const CaseResult& result) {
                                      return result.source == Source::ctest &&
                                             result.run_failed == gtest_failed;
                                    }),
                     cell.results.end());
  cell.outcome = cell.results.front().outcome;
  for (const CaseResult& result : cell.results) {
    if (severity(result.outcome) > severity(cell.outcome)) cell.outcome = result.outcome;
  }
}

// Several results of one source in a device cell: the same file given twice, a rerun, identical
// runners.
bool overlaps(const Cell& cell) {
  for (Source source : {Source::gtest, Source::ctest}) {
    if (std::count_if(cell.results.begin(), cell.results.end(),
                      [&](const CaseResult& result) { return result.source == source; }) > 1) {
      return true;
    }
  }
  return false;
}

// The machines that results name (polydev_host), and the machine of each result.
struct Machines {
  bool several = false;
  std::unordered_map<std::string, std::string> by_file;  // "" where a file names several

  // Its polydev_host; else the one machine of its file; else kUnknownHost.
  std::string of(const CaseResult& result) const {
    std::string host = property(result, "polydev_host");
    if (!host.empty()) return host;
    const auto file = by_file.find(result.file);
    return file == by_file.end() || file->second.empty() ? kUnknownHost : file->second;
  }
};

Machines machines_of(const std::vector<CaseResult>& results) {
  Machines machines;
  std::string first;
  for (const CaseResult& result : results) {
    const std::string host = property(result, "polydev_host");
    if (host.empty()) continue;
    if (first.empty()) first = host;
    machines.several = machines.several || host != first;
    const auto [file, added] = machines.by_file.emplace(result.file, host);
    if (!added && file->second != host) file->second.clear();
  }
  return machines;
}

}  // namespace

std::size_t Matrix::count(Outcome outcome) const {
  std::size_t total = 0;
  for (const Row& row : rows) {
    for (const auto& [column, cell] : row.cells) total += cell.outcome == outcome;
  }
  return total;
}

std::size_t Matrix::skipped_everywhere() const {
  return static_cast<std::size_t>(std::count_if(
      rows.begin(), rows.end(), [](const Row& row) { return row.skipped_everywhere; }));
}

std::size_t Matrix::ran_on_no_device() const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const Row& row) { return row.ran_on_no_device; }));
}

Matrix build_matrix(const std::vector<CaseResult>& all_results) {
  const std::vector<CaseResult> results = without_covered_entries(all_results);
  std::set<std::string> known_keys;
  for (const CaseResult& result : results) {
    const std::string key = property(result, "polydev_device_key");
    if (!key.empty() && instance_of(result.name) == key) known_keys.insert(key);
  }

  const Machines machines = machines_of(results);

  // Columns by (machine, key), described by the first result that names the device.
  std::map<std::tuple<bool, std::string, std::string>, Column> devices;
  bool has_host = false;
  bool has_no_device = false;
  std::vector<std::pair<std::string, std::map<std::string, Cell>>> rows;
  std::unordered_map<std::string, std::size_t> row_index;
  for (const CaseResult& result : results) {
    Placement placement = place(result, known_keys);
    if (placement.kind == ColumnKind::host) has_host = true;
    if (placement.kind == ColumnKind::no_device) has_no_device = true;
    if (placement.kind == ColumnKind::device) {
      const std::string host = machines.several ? machines.of(result) : "";
      // The unknown machine last.
      Column& column = devices[{host == kUnknownHost, host, placement.column}];
      column.kind = ColumnKind::device;
      column.host = host;
      column.key = placement.column;
      if (!host.empty()) placement.column = host + "/" + placement.column;
      column.id = placement.column;
      if (column.name.empty()) column.name = property(result, "polydev_device_name");
      if (column.platform.empty()) column.platform = property(result, "polydev_platform");
      if (column.driver.empty()) column.driver = property(result, "polydev_driver");
      const std::string capability = property(result, "polydev_compute_capability");
      if (column.driver.empty() && !capability.empty()) {
        column.driver = "compute capability " + capability;
      }
    }
    const auto [found, inserted] = row_index.try_emplace(placement.test, rows.size());
    if (inserted) rows.emplace_back(placement.test, std::map<std::string, Cell>{});
    Cell& cell = rows[found->second].second[placement.column];
    if (cell.results.empty() || severity(result.outcome) > severity(cell.outcome)) {
      cell.outcome = result.outcome;
    }
    cell.results.push_back(result);
  }

  Matrix matrix;
  matrix.result_count = all_results.size();
  matrix.by_host = machines.several;
  if (has_host) matrix.columns.push_back({ColumnKind::host, kHost, "", "", "", "", ""});
  for (auto& [key, column] : devices) matrix.columns.push_back(std::move(column));
  if (has_no_device) {
    matrix.columns.push_back({ColumnKind::no_device, kNoDevice, "", "", "", "", ""});
  }
  std::map<std::string, std::size_t> column_index;
  for (std::size_t i = 0; i < matrix.columns.size(); ++i) column_index[matrix.columns[i].id] = i;

  for (auto& [test, cells] : rows) {
    Row row;
    row.test = test;
    bool ran_somewhere = false;
    bool all_skipped = true;
    for (auto& [column, cell] : cells) {
      reconcile(cell);
      const std::size_t index = column_index.at(column);
      if (matrix.columns[index].kind != ColumnKind::no_device) {
        ran_somewhere = true;
        all_skipped = all_skipped && cell.outcome == Outcome::skip;
      }
      // Every device shard and every machine of a CI matrix runs the host tests and writes the
      // placeholders of its suites without a device, so several of those are the rule; two
      // results of one device are not (the same file twice, a rerun, identical runners).
      if (overlaps(cell) && matrix.columns[index].kind == ColumnKind::device) {
        std::string where;
        for (const CaseResult& result : cell.results) {
          where += (where.empty() ? "" : ", ") + location(result);
        }
        matrix.warnings.push_back(test + " on " + column + ": " +
                                  std::to_string(cell.results.size()) + " results (" + where +
                                  "); showing the worst, " + to_string(cell.outcome));
      }
      row.cells.emplace(index, std::move(cell));
    }
    row.ran_on_no_device = !ran_somewhere;
    row.skipped_everywhere = ran_somewhere && all_skipped;
    matrix.rows.push_back(std::move(row));
  }
  return matrix;
}

}  // namespace polydev::report
