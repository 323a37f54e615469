// The HTML form of a report: one self-contained page (inline CSS, no scripts, no external
// resources), so that a CI job can keep it as an artifact and anyone can open it offline. What a
// person needs is on the page itself, not only in tooltips: the messages, grouped, with counts.
#include <algorithm>
#include <map>
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
.summary a { text-decoration: none; }
details.files { margin: 0 0 14px; }
details.files summary { font-size: 14px; }
details.files p { margin: 4px 0 0 16px; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; vertical-align: bottom; position: sticky; top: 0; }
.matrix thead th.dev { max-width: 13em; min-width: 8em; }
.matrix th .num { color: #57606a; font-weight: 400; }
.matrix th .twin { color: #57606a; }
.matrix.hosts thead { position: sticky; top: 0; z-index: 1; }
.matrix.hosts thead th { position: static; }
.matrix th.machine { text-align: center; background: #eaeef2; }
.matrix th .key { display: block; font: 400 11px "DejaVu Sans Mono", monospace; color: #57606a;
                  overflow-wrap: anywhere; }
.matrix td.test { font-family: "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.matrix td.test .name { white-space: nowrap; margin-right: 10px; }
.matrix td.cell { text-align: center; vertical-align: middle; font-weight: 600; min-width: 3.5em; }
td.cell a { color: inherit; text-decoration: none; display: block; }
td.cell a:hover { text-decoration: underline; }
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
.count { display: inline-block; padding: 0 7px; border-radius: 9px; background: #1f2328;
         color: #fff; font-weight: 600; font-size: 12px; }
.where { color: #57606a; font-size: 12.5px; overflow-wrap: anywhere; }
.where a, .occurrences a { color: #0969da; }
details { margin: 2px 0 4px; }
summary { cursor: pointer; color: #57606a; font-size: 12.5px; }
.occurrences td { font-size: 12.5px; border-color: #e5e8eb; padding: 2px 6px; }
.reasons td.cell { text-align: center; font-weight: 600; white-space: nowrap; }
.reasons td.n { text-align: right; font-weight: 600; }
.reasons { max-width: 100%; }
td.flagname { white-space: nowrap; }
pre { margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12.5px; }
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

// The first line of a message, at most 160 bytes of it: what a link to the whole message shows.
std::string first_line(const std::string& message) {
  constexpr std::size_t kShown = 160;
  std::string line = message.substr(0, message.find('\n'));
  const bool more = line.size() < message.size();
  if (line.size() > kShown) {
    std::size_t cut = kShown;
    // At a character boundary: not inside a UTF-8 sequence.
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xc0) == 0x80) --cut;
    line = line.substr(0, cut) + "...";
  } else if (more) {
    line += " ...";
  }
  return line;
}

// A badge of the summary; one that counts something links to the section that lists it, so that
// the first failure is a click away however long the matrix is.
void badge(std::ostringstream& out, const char* css, std::size_t count, const char* what,
           const char* section) {
  if (count != 0) out << "<a href=\"#" << section << "\">";
  out << "<span class=\"badge " << css << (count == 0 ? " zero" : "") << "\">" << count << ' '
      << what << "</span>";
  if (count != 0) out << "</a>";
}

// What the page's parts share: the matrix, the links, and the messages grouped, each with an
// anchor that the matrix's cells link to.
class Page {
 public:
  Page(const Matrix& matrix, const SourceLinks& links)
      : matrix_(matrix),
        links_(links),
        failures_(group_messages(matrix, {Outcome::fail, Outcome::xpass})),
        reasons_(group_messages(matrix, {Outcome::skip, Outcome::xfail})) {
    std::size_t number = 0;
    for (const Column& column : matrix.columns) {
      if (column.kind == ColumnKind::device) ++number;
      labels_.push_back(column.kind == ColumnKind::host ? "host"
                        : column.kind == ColumnKind::no_device
                            ? "no device"
                            : "[" + std::to_string(number) + "]");
    }
    // Names shared by devices of one machine (the machine's header tells machines apart).
    std::map<std::pair<std::string, std::string>, std::size_t> named;
    for (const Column& column : matrix.columns) {
      if (column.kind == ColumnKind::device && !column.name.empty()) {
        ++named[{column.host, column.name}];
      }
    }
    std::map<std::pair<std::string, std::string>, std::size_t> seen;
    for (const Column& column : matrix.columns) {
      const bool shared = column.kind == ColumnKind::device && !column.name.empty() &&
                          named[{column.host, column.name}] > 1;
      namesakes_.push_back(shared ? "#" + std::to_string(++seen[{column.host, column.name}]) : "");
    }
    for (std::size_t g = 0; g < failures_.size() + reasons_.size(); ++g) {
      const MessageGroup& group = this->group(g);
      for (const Occurrence& occurrence : group.occurrences) anchor_[occurrence.result] = g;
    }
  }

  // Results of several machines have a row of machines above their devices (a machine's devices
  // are next to each other: columns are ordered by machine).
  void header(std::ostringstream& out) const {
    const std::vector<Column>& columns = matrix_.columns;
    const char* span = matrix_.by_host ? " rowspan=\"2\"" : "";
    out << "<thead><tr><th" << span << ">test</th>";
    for (std::size_t i = 0; i < columns.size();) {
      if (columns[i].kind == ColumnKind::host) {
        out << "<th" << span << " title=\"tests without a device\">host</th>";
      } else if (columns[i].kind == ColumnKind::no_device) {
        out << "<th" << span
            << " title=\"the suite had no device (no_opencl_device, no_cuda_device) or a "
               "selector error\">no device</th>";
      } else if (matrix_.by_host) {
        std::size_t end = i;
        while (end < columns.size() && columns[end].kind == ColumnKind::device &&
               columns[end].host == columns[i].host) {
          ++end;
        }
        out << "<th class=\"machine\" colspan=\"" << end - i << "\""
            << (columns[i].host == kUnknownHost
                    ? " title=\"results that record no machine (polydev_host)\""
                    : "")
            << ">" << escape(columns[i].host) << "</th>";
        i = end;
        continue;
      } else {
        device_header(out, i);
      }
      ++i;
    }
    if (matrix_.by_host) {
      out << "</tr>\n<tr>";
      for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].kind == ColumnKind::device) device_header(out, i);
      }
    }
    out << "</tr></thead>\n";
  }

  void rows(std::ostringstream& out) const {
    out << "<tbody>\n";
    for (const Row& row : matrix_.rows) {
      const bool flagged = row.skipped_everywhere || row.ran_on_no_device;
      // The name never wraps; the flag goes below it when the columns need the room.
      out << "<tr" << (flagged ? " class=\"flagged\"" : "")
          << "><td class=\"test\"><span class=\"name\">" << escape(row.test) << "</span>";
      if (row.skipped_everywhere) out << "<span class=\"flag\">skipped on every device</span>";
      if (row.ran_on_no_device) out << "<span class=\"flag\">ran on no device</span>";
      out << "</td>";
      for (std::size_t i = 0; i < matrix_.columns.size(); ++i) {
        const auto found = row.cells.find(i);
        if (found == row.cells.end()) {
          out << "<td class=\"cell absent\" title=\"not run there\">&#183;</td>";
          continue;
        }
        const Cell& cell = found->second;
        out << "<td class=\"cell " << to_string(cell.outcome) << "\" title=\""
            << escape(cell_title(cell)) << "\">";
        std::string label = cell_label(cell.outcome);
        if (cell.results.size() > 1) label += "&#160;&#215;" + std::to_string(cell.results.size());
        // The cell's shown outcome links to its message below.
        const auto shown =
            std::find_if(cell.results.begin(), cell.results.end(),
                         [&](const CaseResult& r) { return r.outcome == cell.outcome; });
        const auto group = anchor_.find(&*shown);
        if (group != anchor_.end()) {
          out << "<a href=\"#m" << group->second << "\">" << label << "</a>";
        } else {
          out << label;
        }
        out << "</td>";
      }
      out << "</tr>\n";
    }
    out << "</tbody>\n";
  }

  // Each failure message once: the first test and device that have it, how many more, the
  // message, where it was recorded, and every test and device under <details>.
  void failures(std::ostringstream& out) const {
    if (failures_.empty()) return;
    out << "<section id=\"failures\"><h2>Failures and unexpected passes</h2>\n";
    for (std::size_t g = 0; g < failures_.size(); ++g) {
      const MessageGroup& group = failures_[g];
      const Occurrence& first = group.occurrences.front();
      const std::size_t count = group.occurrences.size();
      out << "<div class=\"failure" << (group.outcome == Outcome::xpass ? " unexpected" : "")
          << "\" id=\"m" << g << "\"><b>" << cell_label(group.outcome) << "</b> ";
      if (count > 1) out << "<span class=\"count\">&#215;" << count << "</span> ";
      out << "<code>" << escape(matrix_.rows[first.row].test) << "</code> on <code>"
          << escape(column_name(first.column)) << "</code>";
      if (count > 1) {
        out << " and " << count - 1 << " more";
      } else {
        out << " <span class=\"sub\">(" << escape(first.result->file) << ':' << first.result->line
            << ")</span>";
      }
      out << "<pre>" << escape(group.message) << "</pre>";
      where(out, group.locations);
      if (count > 1) occurrences(out, group);
      out << "</div>\n";
    }
    out << "</section>\n";
  }

  // Every reason of a skip or an expected failure once, with its count: a capability a device
  // lacks, a polydev.yaml entry, a backend without a device.
  void reasons(std::ostringstream& out) const {
    if (reasons_.empty()) return;
    out << "<section id=\"reasons\"><h2>Reasons for skips and expected failures</h2>\n"
           "<table class=\"reasons\"><thead>"
           "<tr><th></th><th>results</th><th>reason</th></tr></thead><tbody>\n";
    for (std::size_t g = 0; g < reasons_.size(); ++g) {
      const MessageGroup& group = reasons_[g];
      out << "<tr id=\"m" << failures_.size() + g << "\"><td class=\"cell "
          << to_string(group.outcome) << "\">" << cell_label(group.outcome)
          << "</td><td class=\"n\">" << group.occurrences.size() << "</td><td><pre>"
          << escape(group.message.empty() ? "(no reason given)" : group.message) << "</pre>";
      where(out, group.locations);
      occurrences(out, group);
      out << "</td></tr>\n";
    }
    out << "</tbody></table></section>\n";
  }

  // The flagged tests, each with links to its messages (shown in full once, above).
  void flagged(std::ostringstream& out) const {
    if (matrix_.skipped_everywhere() + matrix_.ran_on_no_device() == 0) return;
    out << "<h2>Flagged</h2>\n<table><thead><tr><th>test</th><th>flag</th><th>why</th></tr>"
           "</thead><tbody>\n";
    for (const Row& row : matrix_.rows) {
      if (!row.skipped_everywhere && !row.ran_on_no_device) continue;
      std::set<std::size_t> groups;
      for (const auto& [index, cell] : row.cells) {
        for (const CaseResult& result : cell.results) {
          const auto group = anchor_.find(&result);
          if (group != anchor_.end()) groups.insert(group->second);
        }
      }
      out << "<tr class=\"flagged\"><td class=\"mono\">" << escape(row.test)
          << "</td><td class=\"flagname\">"
          << (row.skipped_everywhere ? "skipped on every device" : "ran on no device")
          << "</td><td>";
      for (const std::size_t g : groups) {
        const std::string& message = group(g).message;
        if (message.empty()) continue;
        out << "<div><a href=\"#m" << g << "\">" << escape(first_line(message)) << "</a></div>";
      }
      out << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
  }

  void devices(std::ostringstream& out) const {
    out << "<h2>Devices</h2>\n<table><thead><tr><th></th>"
        << (matrix_.by_host ? "<th>machine</th>" : "")
        << "<th>key</th><th>name</th><th>platform</th><th>driver</th></tr></thead><tbody>\n";
    for (std::size_t i = 0; i < matrix_.columns.size(); ++i) {
      const Column& column = matrix_.columns[i];
      if (column.kind != ColumnKind::device) continue;
      out << "<tr><td>" << labels_[i] << "</td>";
      if (matrix_.by_host) out << "<td class=\"mono\">" << escape(column.host) << "</td>";
      out << "<td class=\"mono\">" << escape(column.key) << "</td><td>" << escape(column.name)
          << "</td><td>" << escape(column.platform) << "</td><td>" << escape(column.driver)
          << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
  }

 private:
  // A device's header: its number, name and key; a device known only from CTest's file has no
  // name, its key says what it is. Devices of one name (identical boards) are numbered among
  // themselves, "#1", "#2": their keys may differ in the last characters only.
  void device_header(std::ostringstream& out, std::size_t i) const {
    const Column& column = matrix_.columns[i];
    out << "<th class=\"dev\" title=\""
        << escape(column.platform + (column.driver.empty() ? "" : ", " + column.driver))
        << "\"><span class=\"num\">" << labels_[i] << "</span> " << escape(column.name);
    if (!namesakes_[i].empty()) {
      out << " <span class=\"twin\" title=\"one of several devices of this name\">" << namesakes_[i]
          << "</span>";
    }
    out << "<span class=\"key\">" << breakable_key(column.key) << "</span></th>";
  }

  const MessageGroup& group(std::size_t g) const {
    return g < failures_.size() ? failures_[g] : reasons_[g - failures_.size()];
  }

  std::string column_name(std::size_t column) const {
    return matrix_.columns[column].kind == ColumnKind::device ? matrix_.columns[column].id
                                                              : labels_[column];
  }

  // A location as a link where `links_` gives one, else as text.
  std::string location(const std::string& where) const {
    const std::string href = source_link(where, links_);
    if (href.empty()) return "<code>" + escape(where) + "</code>";
    return "<a href=\"" + escape(href) + "\"><code>" + escape(where) + "</code></a>";
  }

  void where(std::ostringstream& out, const std::vector<std::string>& locations) const {
    if (locations.empty()) return;
    out << "<div class=\"where\">at ";
    for (std::size_t i = 0; i < locations.size(); ++i) {
      out << (i ? ", " : "") << location(locations[i]);
    }
    out << "</div>";
  }

  // The tests and devices that have a message, collapsed: "12 results: 4 tests on [1], [2]".
  void occurrences(std::ostringstream& out, const MessageGroup& group) const {
    std::set<std::size_t> tests;
    std::set<std::size_t> columns;
    for (const Occurrence& occurrence : group.occurrences) {
      tests.insert(occurrence.row);
      columns.insert(occurrence.column);
    }
    out << "<details><summary>" << group.occurrences.size()
        << (group.occurrences.size() == 1 ? " result: " : " results: ") << tests.size()
        << (tests.size() == 1 ? " test" : " tests") << " on ";
    bool first = true;
    for (const std::size_t column : columns) {
      out << (first ? "" : ", ") << labels_[column];
      first = false;
    }
    out << "</summary><table class=\"occurrences\"><tbody>\n";
    for (const Occurrence& occurrence : group.occurrences) {
      const CaseResult& result = *occurrence.result;
      out << "<tr><td class=\"mono\">" << escape(matrix_.rows[occurrence.row].test)
          << "</td><td class=\"mono\">" << escape(column_name(occurrence.column)) << "</td><td>";
      const std::vector<std::string> at = result_locations(result);
      for (std::size_t i = 0; i < at.size(); ++i) out << (i ? ", " : "") << location(at[i]);
      out << "</td><td class=\"sub\">" << escape(result.file) << ':' << result.line
          << "</td></tr>\n";
    }
    out << "</tbody></table></details>";
  }

  const Matrix& matrix_;
  const SourceLinks& links_;
  std::vector<MessageGroup> failures_;
  std::vector<MessageGroup> reasons_;
  std::vector<std::string> labels_;                  // by column: "[1]", "host", "no device"
  std::vector<std::string> namesakes_;               // by column: "#2" of a shared name, or ""
  std::map<const CaseResult*, std::size_t> anchor_;  // a result's message: "m<index>"
};

}  // namespace

std::string format_html(const Matrix& matrix, const std::vector<std::string>& files,
                        const SourceLinks& links) {
  const Page page(matrix, links);
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>polydev report</title>\n<style>"
      << kStyle << "</style>\n</head>\n<body>\n<h1>polydev report</h1>\n";
  // The files read are folded: a CI run reads hundreds, and the summary belongs at the top.
  out << "<details class=\"files\"><summary>" << matrix.result_count << " results from "
      << files.size() << (files.size() == 1 ? " file" : " files");
  // Reports usually share a folder: name it once.
  std::string folder = files.empty() ? "" : files.front().substr(0, files.front().rfind('/') + 1);
  for (const std::string& file : files) {
    if (file.compare(0, folder.size(), folder) != 0) folder.clear();
  }
  if (!folder.empty()) out << " in <code>" << escape(folder) << "</code>";
  out << "</summary><p class=\"sub\">";
  for (std::size_t i = 0; i < files.size(); ++i) {
    out << (i ? ", " : "") << "<code>" << escape(files[i].substr(folder.size())) << "</code>";
  }
  out << "</p></details>\n<div class=\"summary\">";
  badge(out, "pass", matrix.count(Outcome::pass), "pass", "matrix");
  badge(out, "fail", matrix.count(Outcome::fail), "fail", "failures");
  badge(out, "skip", matrix.count(Outcome::skip), "skip", "reasons");
  badge(out, "xfail", matrix.count(Outcome::xfail), "xfail", "reasons");
  badge(out, "xpass", matrix.count(Outcome::xpass), "xpass", "failures");
  out << "</div>\n<p class=\"sub\">" << matrix.rows.size() << " tests &#215; "
      << matrix.columns.size() << " columns; <b>" << matrix.skipped_everywhere()
      << "</b> skipped on every device, <b>" << matrix.ran_on_no_device()
      << "</b> ran on no device</p>\n";
  if (!matrix.rows.empty()) {
    out << "<table class=\"matrix" << (matrix.by_host ? " hosts" : "") << "\" id=\"matrix\">\n";
    page.header(out);
    page.rows(out);
    out << "</table>\n<p class=\"legend sub\"><span class=\"pass\">pass</span>"
           "<span class=\"fail\">FAIL</span><span class=\"skip\">skip</span>"
           "<span class=\"xfail\">xfail</span> failed as expected "
           "<span class=\"xpass\">XPASS</span> passed but expected to fail "
           "&#183; not run there, &#215;N several results (the worst shown); a cell links to "
           "its message below, and its tooltip shows all of them</p>\n";
  }
  page.failures(out);
  page.reasons(out);
  page.flagged(out);
  if (std::any_of(matrix.columns.begin(), matrix.columns.end(),
                  [](const Column& column) { return column.kind == ColumnKind::device; })) {
    page.devices(out);
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
