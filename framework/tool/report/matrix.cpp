#include "matrix.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <utility>

namespace polydev::report {

namespace {

constexpr const char* kHost = "host";
constexpr const char* kNoDevice = "no_device";

std::string property(const CaseResult& result, const char* name) {
  const auto found = result.properties.find(name);
  return found == result.properties.end() ? "" : found->second;
}

// The part of a test case's name after its last '/', where polydev puts the device key.
std::string instance_of(const std::string& name) {
  const auto slash = name.rfind('/');
  return slash == std::string::npos ? "" : name.substr(slash + 1);
}

struct Placement {
  ColumnKind kind;
  std::string column;  // device key, or kHost / kNoDevice
  std::string test;    // row name
};

Placement place(const CaseResult& result, const std::set<std::string>& known_keys) {
  const std::string instance = instance_of(result.name);
  const auto row = [&](bool strip) {
    const std::string name =
        strip ? result.name.substr(0, result.name.size() - instance.size() - 1) : result.name;
    return name.empty() ? result.suite : result.suite + "." + name;
  };
  if (!instance.empty() && is_placeholder(instance)) {
    return {ColumnKind::no_device, kNoDevice, row(true)};
  }
  const std::string key = property(result, "polydev_device_key");
  if (!key.empty() && instance == key) return {ColumnKind::device, key, row(true)};
  // A device instance that failed before its fixture recorded the key.
  if (!instance.empty() && known_keys.count(instance)) {
    return {ColumnKind::device, instance, row(true)};
  }
  return {ColumnKind::host, kHost, row(false)};
}

std::string location(const CaseResult& result) {
  return result.file + ":" + std::to_string(result.line);
}

}  // namespace

bool is_placeholder(const std::string& instance) {
  for (const char* name : {"no_opencl_device", "no_cuda_device", "opencl_selector_error",
                           "cuda_selector_error", "polydev_require_devices_error"}) {
    if (instance == name) return true;
  }
  return false;
}

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

Matrix build_matrix(const std::vector<CaseResult>& results) {
  std::set<std::string> known_keys;
  for (const CaseResult& result : results) {
    const std::string key = property(result, "polydev_device_key");
    if (!key.empty() && instance_of(result.name) == key) known_keys.insert(key);
  }

  // Columns by id, described by the first result that names the device.
  std::map<std::string, Column> devices;
  bool has_host = false;
  bool has_no_device = false;
  std::vector<std::pair<std::string, std::map<std::string, Cell>>> rows;
  std::unordered_map<std::string, std::size_t> row_index;
  for (const CaseResult& result : results) {
    const Placement placement = place(result, known_keys);
    if (placement.kind == ColumnKind::host) has_host = true;
    if (placement.kind == ColumnKind::no_device) has_no_device = true;
    if (placement.kind == ColumnKind::device) {
      Column& column = devices[placement.column];
      column.kind = ColumnKind::device;
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
  matrix.result_count = results.size();
  if (has_host) matrix.columns.push_back({ColumnKind::host, kHost, "", "", ""});
  for (auto& [key, column] : devices) matrix.columns.push_back(std::move(column));
  if (has_no_device) matrix.columns.push_back({ColumnKind::no_device, kNoDevice, "", "", ""});
  std::map<std::string, std::size_t> column_index;
  for (std::size_t i = 0; i < matrix.columns.size(); ++i) column_index[matrix.columns[i].id] = i;

  for (auto& [test, cells] : rows) {
    Row row;
    row.test = test;
    bool ran_somewhere = false;
    bool all_skipped = true;
    for (auto& [column, cell] : cells) {
      const std::size_t index = column_index.at(column);
      if (matrix.columns[index].kind != ColumnKind::no_device) {
        ran_somewhere = true;
        all_skipped = all_skipped && cell.outcome == Outcome::skip;
      }
      // Every device shard and every machine of a CI matrix runs the host tests and writes the
      // placeholders of its suites without a device, so several of those are the rule; two
      // results of one device are not (the same file twice, a rerun, identical runners).
      if (cell.results.size() > 1 && matrix.columns[index].kind == ColumnKind::device) {
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
