#pragma once

// Report text shaped like what GoogleTest 1.12 and polydev's fixtures write, matrices made of it,
// and ways to look into a matrix: what the report tests (one file a topic) share.

#include <cstddef>
#include <string>
#include <vector>

#include "matrix.hpp"
#include "results.hpp"

namespace polydev::report::samples {

// Keys of two PoCL devices, as polydev names them.
inline constexpr const char* kPthread0 = "opencl_pocl_pthread_skylake_avx512_amd_epyc_0";
inline constexpr const char* kPthread1 = "opencl_pocl_pthread_skylake_avx512_amd_epyc_1";

// The properties polydev's OpenCL fixture records, plus `extra` ones.
inline std::string device_properties(const std::string& key, const std::string& extra = "") {
  return "<properties>"
         "<property name=\"polydev_device_key\" value=\"" +
         key +
         "\"/>"
         "<property name=\"polydev_device_name\" value=\"pthread-skylake-avx512-AMD EPYC\"/>"
         "<property name=\"polydev_platform\" value=\"Portable Computing Language\"/>"
         "<property name=\"polydev_driver\" value=\"3.1+debian\"/>" +
         extra + "</properties>";
}

// A <testcase> of a polydev device suite: "<test>/<key>" with the fixture's properties.
inline std::string device_case(const std::string& test, const std::string& key,
                               const std::string& body = "",
                               const std::string& result = "completed",
                               const std::string& extra = "") {
  return "<testcase name=\"" + test + "/" + key + "\" status=\"run\" result=\"" + result +
         "\" time=\"0\" classname=\"x\">" + body + device_properties(key, extra) + "</testcase>\n";
}

inline std::string suite(const std::string& name, const std::string& cases) {
  return "<testsuite name=\"" + name + "\" tests=\"1\">\n" + cases + "</testsuite>\n";
}

inline std::string report(const std::string& suites) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"1\" "
         "name=\"AllTests\">\n" +
         suites + "</testsuites>\n";
}

inline std::string failure(const std::string& text) {
  return "<failure message=\"" + text + "\" type=\"\"><![CDATA[" + text + "]]></failure>";
}

inline std::string skipped(const std::string& text) {
  return "<skipped message=\"" + text + "\"/>";
}

inline std::vector<std::string> row_names(const polydev::report::Matrix& matrix) {
  std::vector<std::string> names;
  for (const auto& row : matrix.rows) names.push_back(row.test);
  return names;
}

inline std::vector<std::string> column_ids(const polydev::report::Matrix& matrix) {
  std::vector<std::string> ids;
  for (const auto& column : matrix.columns) ids.push_back(column.id);
  return ids;
}

// The outcome shown for `test` on column `id`; "." when it did not run there.
inline std::string shown(const polydev::report::Matrix& matrix, const std::string& test,
                         const std::string& id) {
  for (const auto& row : matrix.rows) {
    if (row.test != test) continue;
    for (std::size_t i = 0; i < matrix.columns.size(); ++i) {
      if (matrix.columns[i].id != id) continue;
      const auto cell = row.cells.find(i);
      return cell == row.cells.end() ? "." : polydev::report::to_string(cell->second.outcome);
    }
  }
  return "no such row or column";
}

inline polydev::report::Matrix sample() {
  const std::string xfail = "<property name=\"polydev_expectation\" value=\"xfail\"/>";
  return polydev::report::build_matrix(polydev::report::parse_report_xml(
      report(suite("KeyTest", "<testcase name=\"IsStable\" status=\"run\" result=\"completed\"/>") +
             suite("OpenCL/Saxpy",
                   device_case("Matches", kPthread0) +
                       device_case("Matches", kPthread1,
                                   failure("/src/saxpy_test.cpp:30&#x0A;Failed&#x0A;y[3] is 7, "
                                           "expected 8")) +
                       device_case("Known", kPthread0, skipped("expected failure: known bug"),
                                   "skipped", xfail) +
                       device_case("Known", kPthread1, "", "completed", xfail)) +
             suite("OpenCL/Fp64",
                   device_case("Adds", kPthread0, skipped("/src/f.cpp:3&#x0A;no cl_khr_fp64"),
                               "skipped")) +
             suite("CUDA/VectorAdd",
                   "<testcase name=\"Adds/no_cuda_device\" status=\"run\" result=\"skipped\">" +
                       skipped("CUDA unavailable: no NVIDIA driver is loaded") + "</testcase>")),
      "results/a.xml"));
}

// A report holding terminal control sequences and bytes that are not UTF-8, in a test name, a
// device's properties and a failure message.
inline std::string hostile_report() {
  return report(
      suite("OpenCL/S\x1b[31m",
            "<testcase name=\"T\xff/" + std::string(kPthread0) +
                "\" status=\"run\" result=\"completed\">" +
                failure("line one&#10;\x1b]0;title\x07 \xc0\xaf \xed\xa0\x80 \xe2\x82") +
                "<properties><property name=\"polydev_device_key\" value=\"" + kPthread0 +
                "\"/><property name=\"polydev_device_name\" value=\"GPU\x1b[5m\xc2\x9b\"/>"
                "<property name=\"polydev_driver\" value=\"\x7f\xf5\"/></properties></testcase>"));
}

// Three devices skip for the same reason, two tests are expected to fail per one polydev.yaml
// entry, five suites fail with the same selector error.
inline polydev::report::Matrix grouped_sample() {
  std::string fp64;
  for (const char* key : {"opencl_a_0", "opencl_b_0", "opencl_c_0"}) {
    fp64 +=
        device_case("Adds", key, skipped("/src/fp64_test.cpp:12&#x0A;no cl_khr_fp64"), "skipped");
  }
  const std::string xfail = "<property name=\"polydev_expectation\" value=\"xfail\"/>";
  std::string known;
  for (const char* test : {"Sorts", "Scans"}) {
    known += device_case(test, "opencl_a_0",
                         skipped("/work/proj/polydev.yaml:3&#x0A;expected failure: known bug "
                                 "[/work/proj/polydev.yaml:3]"),
                         "skipped", xfail);
  }
  std::string selector;
  for (int i = 0; i < 5; ++i) {
    selector += suite("OpenCL/Suite" + std::to_string(i),
                      "<testcase name=\"T/opencl_selector_error\" status=\"run\">" +
                          failure("/src/params.cpp:80&#x0A;PYOPENCL_TEST entry 1 &apos;x&apos;: "
                                  "no platform matches") +
                          "</testcase>");
  }
  return polydev::report::build_matrix(polydev::report::parse_report_xml(
      report(suite("OpenCL/Fp64", fp64) + suite("OpenCL/Known", known) + selector), "a.xml"));
}

// The property by which polydev's fixtures name the machine an instance ran on.
inline std::string host_property(const std::string& host) {
  return "<property name=\"polydev_host\" value=\"" + host + "\"/>";
}

// Two machines of one kind, "ci-a" (a.xml) and "ci-b" (b.xml): the same device key on both, a
// failure on ci-a only, and an instance of ci-b that failed before its fixture recorded anything.
inline std::vector<polydev::report::CaseResult> two_machines() {
  std::vector<polydev::report::CaseResult> results = polydev::report::parse_report_xml(
      report(suite("OpenCL/S", device_case("T", kPthread0, failure("bad on a"), "completed",
                                           host_property("ci-a")))),
      "a.xml");
  const auto b = polydev::report::parse_report_xml(
      report(suite("OpenCL/S", device_case("T", kPthread0, "", "completed", host_property("ci-b")) +
                                   "<testcase name=\"U/" + std::string(kPthread0) +
                                   "\" status=\"run\">" + failure("early") + "</testcase>")),
      "b.xml");
  results.insert(results.end(), b.begin(), b.end());
  return results;
}

inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

}  // namespace polydev::report::samples
