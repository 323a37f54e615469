// The text form of a report: a matrix narrow enough for a CI log however long the device keys are
// (columns are numbered; the legend above names them).
#include <algorithm>
#include <sstream>

#include "io/printable.hpp"
#include "render.hpp"

namespace polydev::report {

namespace {

constexpr std::size_t kLocationsShown = 2;  // per reason

// Everything a report holds (names, keys, drivers, messages) is shown with its control
// characters and ill-formed UTF-8 escaped: a report is a file anyone may have written.
std::string shown(const std::string& text) { return detail::printable(text, 256); }

std::string header_of(const Matrix& matrix, std::size_t index) {
  const Column& column = matrix.columns[index];
  if (column.kind == ColumnKind::host) return "host";
  if (column.kind == ColumnKind::no_device) return "none";
  // Devices follow the host column, when there is one: a device's number is its place among them,
  // found without counting (a label is made for every message's every result).
  const bool host_first = matrix.columns.front().kind == ColumnKind::host;
  return "[" + std::to_string(index + (host_first ? 0 : 1)) + "]";
}

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out += prefix + line + '\n';
  return out;
}

std::string column_label(const Matrix& matrix, std::size_t index) {
  const Column& column = matrix.columns[index];
  const std::string header = header_of(matrix, index);
  return column.kind == ColumnKind::device ? header + " " + shown(column.id) : header;
}

// What each column is: a device (key, name, platform, driver), the host, or the placeholders.
void write_columns(const Matrix& matrix, std::ostringstream& out) {
  out << "\ncolumns:\n";
  std::size_t key_width = 0;
  for (const Column& column : matrix.columns) {
    key_width = std::max(key_width, shown(column.id).size());
  }
  for (std::size_t i = 0; i < matrix.columns.size(); ++i) {
    const Column& column = matrix.columns[i];
    out << "  " << pad(header_of(matrix, i), 6);
    if (column.kind == ColumnKind::host) {
      out << "tests without a device\n";
    } else if (column.kind == ColumnKind::no_device) {
      out << "no device: the suite's placeholder (no_opencl_device, no_cuda_device, "
             "too_few_*_devices: skip;\n        *_selector_error, polydev_require_devices_error: "
             "fail)\n";
    } else {
      // A device known only from CTest's file has no name, platform or driver: its key it is.
      std::string line = pad(shown(column.id), key_width) + "  " + shown(column.name);
      std::string details = shown(column.platform);
      if (!column.driver.empty()) details += (details.empty() ? "" : ", ") + shown(column.driver);
      if (!details.empty()) line += " (" + details + ")";
      line.erase(line.find_last_not_of(' ') + 1);
      out << line << '\n';
    }
  }
}

// The matrix: one line per test, one cell per column, then the legend and the summary.
void write_matrix(const Matrix& matrix, std::ostringstream& out) {
  std::size_t name_width = 4;
  for (const Row& row : matrix.rows) name_width = std::max(name_width, shown(row.test).size());
  std::vector<std::size_t> widths;
  std::string header = pad("test", name_width);
  out << '\n';
  for (std::size_t i = 0; i < matrix.columns.size(); ++i) {
    widths.push_back(std::max<std::size_t>(6, header_of(matrix, i).size() + 1));
    header += "  " + pad(header_of(matrix, i), widths.back());
  }
  header.erase(header.find_last_not_of(' ') + 1);
  out << header << '\n';
  for (const Row& row : matrix.rows) {
    std::string line = pad(shown(row.test), name_width);
    for (std::size_t i = 0; i < matrix.columns.size(); ++i) {
      const auto cell = row.cells.find(i);
      std::string text = ".";
      if (cell != row.cells.end()) {
        text = cell_label(cell->second.outcome);
        if (cell->second.results.size() > 1) text += '+';
      }
      line += "  " + pad(text, widths[i]);
    }
    if (row.skipped_everywhere) line += "  <- skipped on every device";
    if (row.ran_on_no_device) line += "  <- ran on no device";
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
  }

  out << "\nlegend: pass, FAIL, skip, xfail (failed as expected), XPASS (passed but expected to "
         "fail),\n        . not run there, + several results (the worst shown)\n";
  out << "summary: " << matrix.count(Outcome::pass) << " pass, " << matrix.count(Outcome::fail)
      << " FAIL, " << matrix.count(Outcome::skip) << " skip, " << matrix.count(Outcome::xfail)
      << " xfail, " << matrix.count(Outcome::xpass) << " XPASS in " << matrix.rows.size()
      << " tests x " << matrix.columns.size() << " columns; " << matrix.skipped_everywhere()
      << " skipped on every device, " << matrix.ran_on_no_device() << " ran on no device\n";
}

// Every failure and unexpected pass: the tests and devices that have a message, then the message
// once (a selector error fails every test of its suites with the same words).
void write_failures(const Matrix& matrix, std::ostringstream& out) {
  const std::vector<MessageGroup> groups = group_messages(matrix, {Outcome::fail, Outcome::xpass});
  if (groups.empty()) return;
  out << "\nfailures and unexpected passes:\n";
  for (const MessageGroup& group : groups) {
    for (const Occurrence& occurrence : group.occurrences) {
      const CaseResult& result = *occurrence.result;
      out << "  " << cell_label(result.outcome) << ' ' << shown(matrix.rows[occurrence.row].test)
          << " on " << column_label(matrix, occurrence.column) << " (" << shown(result.file) << ':'
          << result.line << ")\n";
    }
    out << indent(detail::printable_text(group.message), "      ");
  }
}

// Every reason of a skip or an expected failure once, with how many results have it and where it
// was recorded (a polydev.yaml entry, the test's line).
void write_reasons(const Matrix& matrix, std::ostringstream& out) {
  const std::vector<MessageGroup> groups = group_messages(matrix, {Outcome::skip, Outcome::xfail});
  if (groups.empty()) return;
  out << "\nreasons for skips and expected failures:\n";
  for (const MessageGroup& group : groups) {
    out << "  " << group.occurrences.size() << ' ' << cell_label(group.outcome);
    for (std::size_t i = 0; i < group.locations.size() && i < kLocationsShown; ++i) {
      out << (i ? ", " : " at ") << shown(group.locations[i]);
    }
    if (group.locations.size() > kLocationsShown) {
      out << " and " << group.locations.size() - kLocationsShown << " more places";
    }
    out << '\n'
        << indent(
               detail::printable_text(group.message.empty() ? "(no reason given)" : group.message),
               "      ");
  }
}

// Tests skipped on every device or run on none. Their reasons are listed above, each once: a
// selector error that flags every test of a suite is not repeated for each.
void write_flagged(const Matrix& matrix, std::ostringstream& out) {
  bool heading = false;
  for (const Row& row : matrix.rows) {
    if (!row.skipped_everywhere && !row.ran_on_no_device) continue;
    if (!heading) out << "\nflagged (their reasons are listed above):\n";
    heading = true;
    out << "  " << shown(row.test) << ": "
        << (row.skipped_everywhere ? "skipped on every device" : "ran on no device") << '\n';
  }
}

}  // namespace

std::string format_text(const Matrix& matrix, const std::vector<std::string>& files) {
  std::ostringstream out;
  out << "polydev report: " << matrix.result_count << " results from " << files.size()
      << (files.size() == 1 ? " file" : " files") << '\n';
  if (matrix.rows.empty()) return out.str();
  write_columns(matrix, out);
  write_matrix(matrix, out);
  write_failures(matrix, out);
  write_reasons(matrix, out);
  write_flagged(matrix, out);
  return out.str();
}

}  // namespace polydev::report
