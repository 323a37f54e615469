#include <cstdint>

#include "io/json_writer.hpp"
#include "render.hpp"

namespace polydev::report {

namespace {

const char* kind_name(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::host:
      return "host";
    case ColumnKind::device:
      return "device";
    case ColumnKind::no_device:
      return "no_device";
  }
  return "?";
}

std::int64_t number(std::size_t value) { return static_cast<std::int64_t>(value); }

}  // namespace

std::string format_json(const Matrix& matrix, const std::vector<std::string>& files) {
  detail::JsonWriter json;
  json.begin_object().key("files").begin_array();
  for (const std::string& file : files) json.value(file);
  json.end_array().key("columns").begin_array();
  for (const Column& column : matrix.columns) {
    json.begin_object().key("id").value(column.id).key("kind").value(kind_name(column.kind));
    json.key("name").value(column.name).key("platform").value(column.platform);
    json.key("driver").value(column.driver);
    // Only for results of several machines: the JSON of one machine is what it always was.
    if (matrix.by_host && column.kind == ColumnKind::device) {
      json.key("host").value(column.host).key("key").value(column.key);
    }
    json.end_object();
  }
  json.end_array().key("tests").begin_array();
  for (const Row& row : matrix.rows) {
    json.begin_object().key("name").value(row.test);
    json.key("skipped_on_every_device").value(row.skipped_everywhere);
    json.key("ran_on_no_device").value(row.ran_on_no_device);
    json.key("cells").begin_array();
    for (const auto& [index, cell] : row.cells) {
      json.begin_object().key("column").value(matrix.columns[index].id);
      json.key("outcome").value(to_string(cell.outcome)).key("results").begin_array();
      for (const CaseResult& result : cell.results) {
        json.begin_object().key("outcome").value(to_string(result.outcome));
        json.key("message").value(result.message).key("file").value(result.file);
        json.key("line").value(std::int64_t{result.line}).end_object();
      }
      json.end_array().end_object();
    }
    json.end_array().end_object();
  }
  json.end_array().key("summary").begin_object();
  json.key("results").value(number(matrix.result_count));
  for (Outcome outcome :
       {Outcome::pass, Outcome::fail, Outcome::skip, Outcome::xfail, Outcome::xpass}) {
    json.key(to_string(outcome)).value(number(matrix.count(outcome)));
  }
  json.key("skipped_on_every_device").value(number(matrix.skipped_everywhere()));
  json.key("ran_on_no_device").value(number(matrix.ran_on_no_device())).end_object();
  json.key("warnings").begin_array();
  for (const std::string& warning : matrix.warnings) json.value(warning);
  json.end_array().end_object();
  return json.text() + "\n";
}

}  // namespace polydev::report
