// The HTML form of a report: one self-contained page (inline CSS, no scripts, no external
// resources), so that a CI job can keep it as an artifact and anyone can open it offline.
#include <algorithm>
#include <set>
#include <sstream>

#include "io/printable.hpp"
#include "render.hpp"

namespace polydev::report {

namespace {

// Text from a report as HTML: its control characters and ill-formed UTF-8 shown as escapes (the
// page is UTF-8, and a browser would show neither), then the characters HTML gives a meaning.
std::string escape(const std::string& report_text) {
  const std::string text = detail::printable_text(report_text);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A device key that wraps after its underscores in a narrow column header, not inside a word.
std::string breakable_key(const std::string& key) {
  std::string out;
  for (char c : escape(key)) {
    out += c;
    if (c == '_') out += "<wbr>";
  }
  return out;
}

constexpr const char* kStyle = R"(
body { font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif; margin: 24px; color: #1f2328;
       background: #fff; }
h1 { font-size: 22px; margin: 0 0 2px; }
h2 { font-size: 16px; margin: 28px 0 8px; }
.sub { color: #57606a; margin: 0 0 14px; }
code, .mono { font-family: "DejaVu Sans Mono", ui-monospace, monospace; font-size: 12.5px; }
.summary { display: flex; flex-wrap: wrap; gap: 8px; margin: 10px 0 4px; }
.badge { padding: 4px 12px; border-radius: 14px; font-weight: 600; }
.badge.zero { opacity: 0.4; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; vertical-align: bottom; position: sticky; top: 0; }
.matrix thead th.dev { max-width: 13em; min-width: 8em; }
.matrix th .num { color: #57606a; font-weight: 400; }
.matrix th .key { display: block; font: 400 11px "DejaVu Sans Mono", monospace; color: #57606a;
                  overflow-wrap: anywhere; }
.matrix td.test { font-family: "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.matrix td.test .name { white-space: nowrap; margin-right: 10px; }
.matrix td.cell { text-align: center; vertical-align: middle; font-weight: 600; min-width: 3.5em; }
.pass { background: #dafbe1; color: #116329; }
.fail { background: #cf222e; color: #fff; }
.skip { background: #eaeef2; color: #57606a; }
.xfail { background: #e9ddff; color: #6639ba; }
.xpass { background: #e16f24; color: #fff; }
.absent { background: #fff; color: #afb8c1; }
tr.flagged td.test { background: #fff8c5; }
tr.flagged td.test .name::before { content: "\25B2  "; color: #bf8700; }
.flag { display: inline-block; white-space: nowrap; padding: 0 7px; border-radius: 9px;
        background: #bf8700; color: #fff; font: 600 11px "DejaVu Sans", sans-serif; }
.failure { margin: 6px 0; border-left: 4px solid #cf222e; padding: 2px 10px; background: #ffebe9; }
.failure.unexpected { border-left-color: #e16f24; background: #fff1e5; }
td.flagname { white-space: nowrap; }
pre { margin: 4px 0; white-space: pre-wrap; font-size: 12.5px; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px; border-radius: 4px;
               font-weight: 600; }
)";

// A cell's tooltip: every result behind it, with where it was read and its message.
std::string cell_title(const Cell& cell) {
  std::string title;
  for (const CaseResult& result : cell.results) {
    if (!title.empty()) title += "\n\n";
    title += std::string(to_string(result.outcome)) + " (" + result.file + ":" +
             std::to_string(result.line) + ")";
    const std::string message = readable_message(result.message);
    if (!message.empty()) title += "\n" + message;
  }
  return title;
}

void badge(std::ostringstream& out, const char* css, std::size_t count, const char* what) {
  out << "<span class=\"badge " << css << (count == 0 ? " zero" : "") << "\">" << count << ' '
      << what << "</span>";
}

void header(std::ostringstream& out, const Matrix& matrix) {
  out << "<thead><tr><th>test</th>";
  std::size_t number = 0;
  for (const Column& column : matrix.columns) {
    if (column.kind == ColumnKind::host) {
      out << "<th title=\"tests without a device\">host</th>";
    } else if (column.kind == ColumnKind::no_device) {
      out << "<th title=\"the suite had no device (no_opencl_device, no_cuda_device) or a "
             "selector error\">no device</th>";
    } else {
      out << "<th class=\"dev\" title=\""
          << escape(column.platform + (column.driver.empty() ? "" : ", " + column.driver))
          << "\"><span class=\"num\">[" << ++number << "]</span> "
          << escape(column.name.empty() ? "?" : column.name) << "<span class=\"key\">"
          << breakable_key(column.id) << "</span></th>";
    }
  }
  out << "</tr></thead>\n";
}

void rows(std::ostringstream& out, const Matrix& matrix) {
  out << "<tbody>\n";
  for (const Row& row : matrix.rows) {
    const bool flagged = row.skipped_everywhere || row.ran_on_no_device;
    // The name never wraps; the flag goes below it when the columns need the room.
    out << "<tr" << (flagged ? " class=\"flagged\"" : "")
        << "><td class=\"test\"><span class=\"name\">" << escape(row.test) << "</span>";
    if (row.skipped_everywhere) out << "<span class=\"flag\">skipped on every device</span>";
    if (row.ran_on_no_device) out << "<span class=\"flag\">ran on no device</span>";
    out << "</td>";
    for (std::size_t i = 0; i < matrix.columns.size(); ++i) {
      const auto found = row.cells.find(i);
      if (found == row.cells.end()) {
        out << "<td class=\"cell absent\" title=\"not run there\">&#183;</td>";
        continue;
      }
      const Cell& cell = found->second;
      out << "<td class=\"cell " << to_string(cell.outcome) << "\" title=\""
          << escape(cell_title(cell)) << "\">" << cell_label(cell.outcome);
      if (cell.results.size() > 1) out << "&#160;&#215;" << cell.results.size();
      out << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody>\n";
}

void devices(std::ostringstream& out, const Matrix& matrix) {
  out << "<h2>Devices</h2>\n<table><thead><tr><th></th><th>key</th><th>name</th>"
         "<th>platform</th><th>driver</th></tr></thead><tbody>\n";
  std::size_t number = 0;
  for (const Column& column : matrix.columns) {
    if (column.kind != ColumnKind::device) continue;
    out << "<tr><td>[" << ++number << "]</td><td class=\"mono\">" << escape(column.id)
        << "</td><td>" << escape(column.name) << "</td><td>" << escape(column.platform)
        << "</td><td>" << escape(column.driver) << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

void failures(std::ostringstream& out, const Matrix& matrix) {
  bool heading = false;
  for (const Row& row : matrix.rows) {
    for (const auto& [index, cell] : row.cells) {
      for (const CaseResult& result : cell.results) {
        if (result.outcome != Outcome::fail && result.outcome != Outcome::xpass) continue;
        if (!heading) out << "<h2>Failures and unexpected passes</h2>\n";
        heading = true;
        std::string message = readable_message(result.message);
        if (message.empty() && result.outcome == Outcome::xpass) message = kUnexpectedPass;
        out << "<div class=\"failure" << (result.outcome == Outcome::xpass ? " unexpected" : "")
            << "\"><b>" << cell_label(result.outcome) << "</b> <code>" << escape(row.test)
            << "</code> on <code>"
            << escape(matrix.columns[index].kind == ColumnKind::no_device
                          ? "no device"
                          : matrix.columns[index].id)
            << "</code> <span class=\"sub\">(" << escape(result.file) << ':' << result.line
            << ")</span><pre>" << escape(message) << "</pre></div>\n";
      }
    }
  }
}

void flagged(std::ostringstream& out, const Matrix& matrix) {
  if (matrix.skipped_everywhere() + matrix.ran_on_no_device() == 0) return;
  out << "<h2>Flagged</h2>\n<table><thead><tr><th>test</th><th>flag</th><th>why</th></tr>"
         "</thead><tbody>\n";
  for (const Row& row : matrix.rows) {
    if (!row.skipped_everywhere && !row.ran_on_no_device) continue;
    std::set<std::string> reasons;
    for (const auto& [index, cell] : row.cells) {
      for (const CaseResult& result : cell.results) {
        const std::string reason = readable_message(result.message);
        if (!reason.empty()) reasons.insert(reason);
      }
    }
    out << "<tr class=\"flagged\"><td class=\"mono\">" << escape(row.test)
        << "</td><td class=\"flagname\">"
        << (row.skipped_everywhere ? "skipped on every device" : "ran on no device") << "</td><td>";
    for (const std::string& reason : reasons) out << "<pre>" << escape(reason) << "</pre>";
    out << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

std::string format_html(const Matrix& matrix, const std::vector<std::string>& files) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>polydev report</title>\n<style>"
      << kStyle << "</style>\n</head>\n<body>\n<h1>polydev report</h1>\n<p class=\"sub\">"
      << matrix.result_count << " results from " << files.size()
      << (files.size() == 1 ? " file" : " files");
  // Reports usually share a folder: name it once.
  std::string folder = files.empty() ? "" : files.front().substr(0, files.front().rfind('/') + 1);
  for (const std::string& file : files) {
    if (file.compare(0, folder.size(), folder) != 0) folder.clear();
  }
  if (!folder.empty()) out << " in <code>" << escape(folder) << "</code>";
  out << ": ";
  for (std::size_t i = 0; i < files.size(); ++i) {
    out << (i ? ", " : "") << "<code>" << escape(files[i].substr(folder.size())) << "</code>";
  }
  out << "</p>\n<div class=\"summary\">";
  badge(out, "pass", matrix.count(Outcome::pass), "pass");
  badge(out, "fail", matrix.count(Outcome::fail), "fail");
  badge(out, "skip", matrix.count(Outcome::skip), "skip");
  badge(out, "xfail", matrix.count(Outcome::xfail), "xfail");
  badge(out, "xpass", matrix.count(Outcome::xpass), "xpass");
  out << "</div>\n<p class=\"sub\">" << matrix.rows.size() << " tests &#215; "
      << matrix.columns.size() << " columns; <b>" << matrix.skipped_everywhere()
      << "</b> skipped on every device, <b>" << matrix.ran_on_no_device()
      << "</b> ran on no device</p>\n";
  if (!matrix.rows.empty()) {
    out << "<table class=\"matrix\">\n";
    header(out, matrix);
    rows(out, matrix);
    out << "</table>\n<p class=\"legend sub\"><span class=\"pass\">pass</span>"
           "<span class=\"fail\">FAIL</span><span class=\"skip\">skip</span>"
           "<span class=\"xfail\">xfail</span> failed as expected "
           "<span class=\"xpass\">XPASS</span> passed but expected to fail "
           "&#183; not run there, &#215;N several results (the worst shown); hover a cell for "
           "its messages</p>\n";
  }
  failures(out, matrix);
  flagged(out, matrix);
  if (std::any_of(matrix.columns.begin(), matrix.columns.end(),
                  [](const Column& column) { return column.kind == ColumnKind::device; })) {
    devices(out, matrix);
  }
  if (!matrix.warnings.empty()) {
    out << "<h2>Overlapping results</h2>\n";
    for (const std::string& warning : matrix.warnings)
      out << "<pre>" << escape(warning) << "</pre>";
  }
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace polydev::report
