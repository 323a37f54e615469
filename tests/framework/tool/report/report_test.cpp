// `polydev report`'s reading of GoogleTest XML and CTest's JUnit file, its matrix test x device and
// the three renderings, on XML text shaped like what GoogleTest 1.12, CTest 3.25 and polydev's
// fixtures write (no driver; files only for the folders of reports).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "console.hpp"
#include "inputs.hpp"
#include "matrix.hpp"
#include "render.hpp"
#include "results.hpp"

namespace {

using polydev::report::build_matrix;
using polydev::report::CaseResult;
using polydev::report::ColumnKind;
using polydev::report::Matrix;
using polydev::report::Outcome;
using polydev::report::parse_report_xml;
using polydev::report::Source;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kPthread0 = "opencl_pocl_pthread_skylake_avx512_amd_epyc_0";
constexpr const char* kPthread1 = "opencl_pocl_pthread_skylake_avx512_amd_epyc_1";
constexpr const char* kCuda = "cuda_nvidia_h200_pci_00_07";

// The properties polydev's OpenCL fixture records, plus `extra` ones.
std::string device_properties(const std::string& key, const std::string& extra = "") {
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
std::string device_case(const std::string& test, const std::string& key,
                        const std::string& body = "", const std::string& result = "completed",
                        const std::string& extra = "") {
  return "<testcase name=\"" + test + "/" + key + "\" status=\"run\" result=\"" + result +
         "\" time=\"0\" classname=\"x\">" + body + device_properties(key, extra) + "</testcase>\n";
}

std::string suite(const std::string& name, const std::string& cases) {
  return "<testsuite name=\"" + name + "\" tests=\"1\">\n" + cases + "</testsuite>\n";
}

std::string report(const std::string& suites) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"1\" "
         "name=\"AllTests\">\n" +
         suites + "</testsuites>\n";
}

std::string failure(const std::string& text) {
  return "<failure message=\"" + text + "\" type=\"\"><![CDATA[" + text + "]]></failure>";
}

std::string skipped(const std::string& text) { return "<skipped message=\"" + text + "\"/>"; }

std::vector<std::string> row_names(const Matrix& matrix) {
  std::vector<std::string> names;
  for (const auto& row : matrix.rows) names.push_back(row.test);
  return names;
}

std::vector<std::string> column_ids(const Matrix& matrix) {
  std::vector<std::string> ids;
  for (const auto& column : matrix.columns) ids.push_back(column.id);
  return ids;
}

// The outcome shown for `test` on column `id`; "." when it did not run there.
std::string shown(const Matrix& matrix, const std::string& test, const std::string& id) {
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

const polydev::report::Row& row_of(const Matrix& matrix, const std::string& test) {
  for (const auto& row : matrix.rows) {
    if (row.test == test) return row;
  }
  throw std::runtime_error("no row " + test);
}

// --- reading ---

TEST(ReportParse, ReadsOutcomeMessageAndPropertiesOfEachTestCase) {
  const std::string xml = report(suite(
      "OpenCL/Saxpy",
      device_case("Matches", kPthread0) +
          device_case("Matches", kPthread1,
                      failure("/src/saxpy_test.cpp:30&#x0A;Expected equality") +
                          failure("/src/saxpy_test.cpp:31&#x0A;second")) +
          device_case("NeedsFp64", kPthread0, skipped("/src/x.cpp:5&#x0A;no fp64"), "skipped") +
          "<testcase name=\"DISABLED_Later\" status=\"notrun\" result=\"suppressed\" time=\"0\" "
          "classname=\"OpenCL/Saxpy\"/>"));
  const std::vector<CaseResult> results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].suite, "OpenCL/Saxpy");
  EXPECT_EQ(results[0].name, std::string("Matches/") + kPthread0);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  EXPECT_EQ(results[0].properties.at("polydev_device_key"), kPthread0);
  EXPECT_EQ(results[0].properties.at("polydev_driver"), "3.1+debian");
  EXPECT_EQ(results[0].file, "a.xml");
  EXPECT_EQ(results[0].line, 4);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message,
            "/src/saxpy_test.cpp:30\nExpected equality\n\n/src/saxpy_test.cpp:31\nsecond");
  EXPECT_EQ(results[2].outcome, Outcome::skip);
  EXPECT_EQ(results[2].message, "/src/x.cpp:5\nno fp64");
  EXPECT_EQ(results[3].outcome, Outcome::skip);
  EXPECT_EQ(results[3].message, "not run (disabled)");
}

TEST(ReportParse, SkippedResultWithoutElementAndJUnitErrorElement) {
  const std::string xml = report(suite("S",
                                       "<testcase name=\"a\" status=\"run\" result=\"skipped\"/>"
                                       "<testcase name=\"b\" status=\"run\" result=\"completed\">"
                                       "<error message=\"crashed\"/></testcase>"));
  const auto results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::skip);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message, "crashed");
}

TEST(ReportParse, EmptyReportHasNoResults) {
  EXPECT_TRUE(parse_report_xml(report(""), "a.xml").empty());
}

TEST(ReportParse, ExpectationsMakeXfailAndXpass) {
  const std::string xfail = "<property name=\"polydev_expectation\" value=\"xfail\"/>";
  const std::string xml = report(suite(
      "OpenCL/Known",
      // Without the fixture's word, a failure is not taken for the expected one.
      device_case("Fails", kPthread0, failure("boom"), "completed", xfail) +
          device_case("Passes", kPthread0, "", "completed", xfail) +
          // polydev's fixtures report an intercepted expected failure as a skip.
          device_case("Intercepted", kPthread0, skipped("expected failure: ..."), "skipped",
                      xfail) +
          // A fixture that failed an unexpected pass itself (strict mode).
          device_case("StrictXpass", kPthread0, failure("remove the entry"), "completed",
                      xfail + "<property name=\"polydev_expectation_result\" value=\"passed\"/>") +
          // A fixture that kept the expected failure from GoogleTest.
          device_case("Hidden", kPthread0, "", "completed",
                      xfail + "<property name=\"polydev_expectation_result\" value=\"failed\"/>")));
  const auto results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[0].outcome, Outcome::fail);
  EXPECT_EQ(results[0].message, "boom");
  EXPECT_EQ(results[1].outcome, Outcome::xpass);
  EXPECT_EQ(results[2].outcome, Outcome::xfail);
  EXPECT_EQ(results[2].message, "expected failure: ...");
  EXPECT_EQ(results[3].outcome, Outcome::xpass);
  EXPECT_EQ(results[4].outcome, Outcome::xfail);
  // What GoogleTest itself said stays known: the strict XPASS failed the run.
  EXPECT_TRUE(results[0].run_failed);
  EXPECT_FALSE(results[1].run_failed);
  EXPECT_TRUE(results[3].run_failed);
  EXPECT_FALSE(results[4].run_failed);
}

// Every way the input can be wrong, with the line the error names and what it says.
TEST(ReportParse, BadInputIsAnErrorWithFileAndLine) {
  struct Case {
    std::string xml;
    int line;
    std::string message;
  };
  const std::string head = "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  const std::vector<Case> cases{
      {"", 1, "an empty file; a GoogleTest XML report (--gtest_output=xml) has <testsuites>"},
      {"\n  \n", 1, "an empty file"},
      {"<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"S\">\n", 3, "malformed XML"},
      {"<testsuites>\n<testsuite name=\"S\">\n</testsuites>\n", 2,
       "malformed XML: XML_ERROR_MISMATCHED_ELEMENT at XMLElement name=testsuite"},
      {"<?xml version=\"1.0\"?>\n<project>\n</project>\n", 2,
       "root element <project>; a GoogleTest XML report (--gtest_output=xml) has <testsuites>"},
      {"<testsuites>\n<suite/>\n</testsuites>", 2,
       "unexpected <suite> in <testsuites>; expected <testsuite>"},
      {"<testsuites>\n<testsuite/>\n</testsuites>", 2, "<testsuite> without a 'name'"},
      {head + "<test name=\"a\"/>\n" + tail, 4,
       "unexpected <test> in <testsuite>; expected <testcase>"},
      {head + "<testcase status=\"run\"/>\n" + tail, 4, "<testcase> without a 'name'"},
      {head + "<testcase name=\"a\" status=\"ran\"/>\n" + tail, 4,
       "status 'ran' of a <testcase>; GoogleTest writes 'run' or 'notrun'"},
      {head + "<testcase name=\"a\" result=\"done\"/>\n" + tail, 4,
       "result 'done' of a <testcase>; GoogleTest writes 'completed', 'skipped' or 'suppressed'"},
      {head + "<testcase name=\"a\">\n<properties><prop/></properties></testcase>\n" + tail, 5,
       "unexpected <prop> in <properties>; expected <property>"},
      {head +
           "<testcase name=\"a\"><properties>\n<property name=\"x\"/></properties></testcase>\n" +
           tail,
       5, "<property> needs the attributes 'name' and 'value'"},
      {head +
           "<testcase name=\"a\"><properties><property name=\"polydev_expectation\" "
           "value=\"flaky\"/></properties></testcase>\n" +
           tail,
       4, "property polydev_expectation = 'flaky'; the report knows 'xfail'"},
      {head +
           "<testcase name=\"a\"><properties><property name=\"polydev_expectation\" "
           "value=\"xfail\"/><property name=\"polydev_expectation_result\" value=\"maybe\"/>"
           "</properties></testcase>\n" +
           tail,
       4, "property polydev_expectation_result = 'maybe'; expected 'failed' or 'passed'"},
      {head +
           "<testcase name=\"a\"><properties><property name=\"polydev_expectation_result\" "
           "value=\"passed\"/></properties></testcase>\n" +
           tail,
       4, "property polydev_expectation_result without polydev_expectation = 'xfail'"},
  };
  for (const Case& bad : cases) {
    try {
      parse_report_xml(bad.xml, "results/shard1.xml");
      ADD_FAILURE() << "accepted:\n" << bad.xml;
    } catch (const polydev::report::input_error& error) {
      EXPECT_EQ(error.file(), "results/shard1.xml");
      EXPECT_EQ(error.line(), bad.line) << error.what();
      EXPECT_THAT(error.what(),
                  HasSubstr("results/shard1.xml:" + std::to_string(bad.line) + ": " + bad.message));
    }
  }
}

// What is outside the first root element, or unknown inside a test case, may be results: it is
// an error, never dropped (a dropped failure would make the report pass).
TEST(ReportParse, ContentTheReportDoesNotUnderstandIsAnErrorWithItsLine) {
  struct Case {
    std::string xml;
    int line;
    std::string message;
  };
  const std::string first =
      "<testsuites>\n<testsuite name=\"S\">\n<testcase name=\"a\"/>\n"
      "</testsuite>\n</testsuites>\n";
  const std::string head = "<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  const std::vector<Case> cases{
      {first + "<testsuites>\n<testsuite name=\"S\">\n<testcase name=\"b\">" + failure("boom") +
           "</testcase>\n" + tail,
       6,
       "<testsuites> after the root element <testsuites> (line 1); a report has one root element"},
      {first + "<testcase name=\"b\">" + failure("boom") + "</testcase>\n", 6,
       "<testcase> after the root element <testsuites> (line 1)"},
      {first + "trailing words\n", 6, "malformed XML: XML_ERROR_PARSING_TEXT"},
      {head + "<testcase name=\"a\">\n<Failure message=\"boom\"/></testcase>\n" + tail, 4,
       "unexpected <Failure> in <testcase>; GoogleTest writes <failure>, <skipped> and "
       "<properties> (JUnit also <error>, <system-out>, <system-err>)"},
      {head + "<testcase name=\"a\"><failur message=\"boom\"/></testcase>\n" + tail, 3,
       "unexpected <failur> in <testcase>"},
      {head + "<testcase name=\"a\">\n\n<flakyFailure message=\"boom\"/></testcase>\n" + tail, 5,
       "unexpected <flakyFailure> in <testcase>"},
  };
  for (const Case& bad : cases) {
    try {
      const auto results = parse_report_xml(bad.xml, "r.xml");
      ADD_FAILURE() << "accepted, " << results.size() << " results:\n" << bad.xml;
    } catch (const polydev::report::input_error& error) {
      EXPECT_EQ(error.line(), bad.line) << error.what();
      EXPECT_THAT(error.what(),
                  HasSubstr("r.xml:" + std::to_string(bad.line) + ": " + bad.message));
    }
  }
}

TEST(ReportParse, CommentsAndDeclarationsAroundTheRootAreFine) {
  const std::string xml =
      "<?xml version=\"1.0\"?>\n<!-- run 3 -->\n<!DOCTYPE testsuites>\n"
      "<testsuites><testsuite name=\"S\"><testcase name=\"a\"/></testsuite>"
      "</testsuites>\n<!-- end -->\n";
  EXPECT_EQ(parse_report_xml(xml, "a.xml").size(), 1u);
}

TEST(ReportParse, JUnitOutputElementsAreNotResults) {
  const std::string xml = report(
      suite("S",
            "<testcase name=\"a\"><system-out>hello</system-out><system-err>oops</system-err>"
            "</testcase>"
            "<testcase name=\"b\"><system-out>x</system-out><failure message=\"boom\"/>"
            "</testcase>"
            "<system-out>suite output</system-out><system-err/>"));
  const auto results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message, "boom");
}

TEST(ReportParse, ErrorsQuoteTheReportWithoutControlCharactersAndCutLongValues) {
  const std::string head = "<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  try {
    parse_report_xml(head + "<testcase name=\"a\" status=\"&#27;[2J\xff\"/>\n" + tail, "a.xml");
    ADD_FAILURE() << "accepted";
  } catch (const polydev::report::input_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("status '\\x1b[2J\\xff' of a <testcase>"));
    EXPECT_THAT(error.what(), Not(HasSubstr("\x1b")));
  }
  try {
    parse_report_xml(
        head + "<testcase name=\"a\" result=\"" + std::string(100000, 'x') + "\"/>\n" + tail,
        "a.xml");
    ADD_FAILURE() << "accepted";
  } catch (const polydev::report::input_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("... (100000 bytes)' of a <testcase>"));
    EXPECT_LT(std::string(error.what()).size(), 600u);
  }
}

TEST(ReportParse, InputErrorIsAPolydevError) {
  EXPECT_THROW(parse_report_xml("<testsuites>", "a.xml"), polydev::error);
}

// --- the matrix ---

TEST(ReportMatrix, DeviceInstancesShareARowAndDevicesAreColumnsByKey) {
  const auto results = parse_report_xml(
      report(suite("OpenCL/Saxpy", device_case("Matches", kPthread1) +
                                       device_case("Matches", kPthread0) +
                                       device_case("Other", kPthread1, failure("no")))),
      "a.xml");
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(row_names(matrix), ElementsAre("OpenCL/Saxpy.Matches", "OpenCL/Saxpy.Other"));
  EXPECT_THAT(column_ids(matrix), ElementsAre(kPthread0, kPthread1));
  EXPECT_EQ(matrix.columns[0].kind, ColumnKind::device);
  EXPECT_EQ(matrix.columns[0].name, "pthread-skylake-avx512-AMD EPYC");
  EXPECT_EQ(matrix.columns[0].platform, "Portable Computing Language");
  EXPECT_EQ(matrix.columns[0].driver, "3.1+debian");
  EXPECT_EQ(shown(matrix, "OpenCL/Saxpy.Matches", kPthread0), "pass");
  EXPECT_EQ(shown(matrix, "OpenCL/Saxpy.Other", kPthread0), ".");
  EXPECT_EQ(shown(matrix, "OpenCL/Saxpy.Other", kPthread1), "fail");
  EXPECT_EQ(matrix.count(Outcome::pass), 2u);
  EXPECT_EQ(matrix.count(Outcome::fail), 1u);
  EXPECT_EQ(matrix.result_count, 3u);
  EXPECT_TRUE(matrix.warnings.empty());
}

TEST(ReportMatrix, CudaColumnsShowTheComputeCapability) {
  const std::string xml = report(
      suite("CUDA/VectorAdd",
            "<testcase name=\"Adds/" + std::string(kCuda) +
                "\" status=\"run\" result=\"completed\"><properties>"
                "<property name=\"polydev_device_key\" value=\"cuda_nvidia_h200_pci_00_07\"/>"
                "<property name=\"polydev_device_name\" value=\"NVIDIA H200\"/>"
                "<property name=\"polydev_platform\" value=\"CUDA\"/>"
                "<property name=\"polydev_compute_capability\" value=\"9.0\"/>"
                "</properties></testcase>"));
  const Matrix matrix = build_matrix(parse_report_xml(xml, "cuda.xml"));
  ASSERT_EQ(matrix.columns.size(), 1u);
  EXPECT_EQ(matrix.columns[0].name, "NVIDIA H200");
  EXPECT_EQ(matrix.columns[0].driver, "compute capability 9.0");
}

TEST(ReportMatrix, ShardsOfOneSuiteMergeIntoOneRow) {
  std::vector<CaseResult> results =
      parse_report_xml(report(suite("OpenCL/Saxpy", device_case("Matches", kPthread0))), "0.xml");
  const auto second = parse_report_xml(
      report(suite("OpenCL/Saxpy", device_case("Matches", kPthread1, skipped("no")))), "1.xml");
  results.insert(results.end(), second.begin(), second.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(row_names(matrix), ElementsAre("OpenCL/Saxpy.Matches"));
  EXPECT_EQ(shown(matrix, "OpenCL/Saxpy.Matches", kPthread0), "pass");
  EXPECT_EQ(shown(matrix, "OpenCL/Saxpy.Matches", kPthread1), "skip");
  EXPECT_FALSE(matrix.rows[0].skipped_everywhere);
  EXPECT_TRUE(matrix.warnings.empty());
}

TEST(ReportMatrix, TheSameTestOnTheSameDeviceTwiceShowsTheWorstAndKeepsBoth) {
  std::vector<CaseResult> results = parse_report_xml(
      report(suite("OpenCL/Saxpy", device_case("Matches", kPthread0, failure("bad")))), "a.xml");
  const auto later =
      parse_report_xml(report(suite("OpenCL/Saxpy", device_case("Matches", kPthread0))), "b.xml");
  results.insert(results.end(), later.begin(), later.end());
  const Matrix matrix = build_matrix(results);
  ASSERT_EQ(matrix.rows.size(), 1u);
  const auto& cell = matrix.rows[0].cells.at(0);
  EXPECT_EQ(cell.outcome, Outcome::fail) << "a later pass must not hide a failure";
  ASSERT_EQ(cell.results.size(), 2u);
  EXPECT_EQ(cell.results[0].file, "a.xml");
  EXPECT_EQ(cell.results[1].file, "b.xml");
  EXPECT_THAT(matrix.warnings,
              ElementsAre("OpenCL/Saxpy.Matches on " + std::string(kPthread0) +
                          ": 2 results (a.xml:4, b.xml:4); showing the worst, fail"));
  EXPECT_EQ(matrix.count(Outcome::fail), 1u);
  EXPECT_EQ(matrix.count(Outcome::pass), 0u);
}

TEST(ReportMatrix, SeverityOrdersEveryOutcome) {
  using polydev::report::severity;
  EXPECT_GT(severity(Outcome::fail), severity(Outcome::xpass));
  EXPECT_GT(severity(Outcome::xpass), severity(Outcome::xfail));
  EXPECT_GT(severity(Outcome::xfail), severity(Outcome::pass));
  EXPECT_GT(severity(Outcome::pass), severity(Outcome::skip));
}

TEST(ReportMatrix, TestsWithoutADeviceGoToTheHostColumnUnderTheirFullName) {
  const std::string xml = report(
      suite("KeyTest", "<testcase name=\"IsStable\" status=\"run\" result=\"completed\"/>") +
      suite("Sizes/PoolTest", "<testcase name=\"Rounds/3\" status=\"run\" result=\"completed\"/>") +
      suite("OpenCL/Saxpy", device_case("Matches", kPthread0)));
  const Matrix matrix = build_matrix(parse_report_xml(xml, "a.xml"));
  EXPECT_THAT(column_ids(matrix), ElementsAre("host", kPthread0));
  EXPECT_EQ(matrix.columns[0].kind, ColumnKind::host);
  EXPECT_THAT(row_names(matrix),
              ElementsAre("KeyTest.IsStable", "Sizes/PoolTest.Rounds/3", "OpenCL/Saxpy.Matches"));
  EXPECT_EQ(shown(matrix, "Sizes/PoolTest.Rounds/3", "host"), "pass");
}

TEST(ReportMatrix, AnInstanceNamedByAKnownKeyIsThatDeviceEvenWithoutProperties) {
  const std::string xml = report(
      suite("OpenCL/Saxpy", device_case("Matches", kPthread0) + "<testcase name=\"Early/" +
                                kPthread0 + "\" status=\"run\" result=\"completed\">" +
                                failure("thrown before the fixture's SetUp") + "</testcase>"));
  const Matrix matrix = build_matrix(parse_report_xml(xml, "a.xml"));
  EXPECT_THAT(column_ids(matrix), ElementsAre(kPthread0));
  EXPECT_EQ(shown(matrix, "OpenCL/Saxpy.Early", kPthread0), "fail");
}

TEST(ReportMatrix, PlaceholdersGoToTheNoDeviceColumnAndFlagTheRow) {
  const std::string xml =
      report(suite("CUDA/VectorAdd",
                   "<testcase name=\"Adds/no_cuda_device\" status=\"run\" result=\"skipped\">" +
                       skipped("CUDA unavailable: no NVIDIA driver is loaded") + "</testcase>") +
             suite("OpenCL/Probe",
                   "<testcase name=\"Fills/opencl_selector_error\" status=\"run\" "
                   "result=\"completed\">" +
                       failure("PYOPENCL_TEST entry 1 'x': no platform matches") + "</testcase>") +
             suite("KeyTest", "<testcase name=\"IsStable\" status=\"run\" result=\"completed\"/>"));
  const Matrix matrix = build_matrix(parse_report_xml(xml, "a.xml"));
  EXPECT_THAT(column_ids(matrix), ElementsAre("host", "no_device"));
  EXPECT_EQ(matrix.columns[1].kind, ColumnKind::no_device);
  EXPECT_EQ(shown(matrix, "CUDA/VectorAdd.Adds", "no_device"), "skip");
  EXPECT_EQ(shown(matrix, "OpenCL/Probe.Fills", "no_device"), "fail");
  EXPECT_TRUE(row_of(matrix, "CUDA/VectorAdd.Adds").ran_on_no_device);
  EXPECT_TRUE(row_of(matrix, "OpenCL/Probe.Fills").ran_on_no_device);
  EXPECT_FALSE(row_of(matrix, "KeyTest.IsStable").ran_on_no_device);
  EXPECT_FALSE(row_of(matrix, "CUDA/VectorAdd.Adds").skipped_everywhere);
  EXPECT_EQ(matrix.ran_on_no_device(), 2u);
  EXPECT_EQ(matrix.skipped_everywhere(), 0u);
}

TEST(ReportMatrix, EveryPlaceholderNameIsKnown) {
  for (const char* name : {"no_opencl_device", "no_cuda_device", "opencl_selector_error",
                           "cuda_selector_error", "polydev_require_devices_error"}) {
    EXPECT_TRUE(polydev::report::is_placeholder(name)) << name;
  }
  EXPECT_FALSE(polydev::report::is_placeholder(kPthread0));
  EXPECT_FALSE(polydev::report::is_placeholder("no_device"));
}

TEST(ReportMatrix, ARowThatRanOnADeviceSomewhereIsNotFlaggedForItsPlaceholder) {
  // The same suite on a CPU-only runner (no CUDA device) and on a GPU runner.
  std::vector<CaseResult> results = parse_report_xml(
      report(suite("CUDA/VectorAdd",
                   "<testcase name=\"Adds/no_cuda_device\" status=\"run\" result=\"skipped\"/>")),
      "cpu.xml");
  const auto gpu =
      parse_report_xml(report(suite("CUDA/VectorAdd", device_case("Adds", kCuda))), "gpu.xml");
  results.insert(results.end(), gpu.begin(), gpu.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(column_ids(matrix), ElementsAre(kCuda, "no_device"));
  EXPECT_FALSE(matrix.rows.at(0).ran_on_no_device);
  EXPECT_FALSE(matrix.rows.at(0).skipped_everywhere);
}

TEST(ReportMatrix, HostTestsOfSeveralShardsAreNoOverlap) {
  const std::string xml =
      report(suite("KeyTest", "<testcase name=\"IsStable\" status=\"run\" result=\"completed\"/>"));
  std::vector<CaseResult> results = parse_report_xml(xml, "shard0.xml");
  const auto second = parse_report_xml(xml, "shard1.xml");
  results.insert(results.end(), second.begin(), second.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_TRUE(matrix.warnings.empty());
  EXPECT_EQ(matrix.rows.at(0).cells.at(0).results.size(), 2u);
}

TEST(ReportMatrix, PlaceholdersOfSeveralShardsAreNoOverlap) {
  const std::string xml =
      report(suite("CUDA/VectorAdd",
                   "<testcase name=\"Adds/no_cuda_device\" status=\"run\" result=\"skipped\"/>"));
  std::vector<CaseResult> results = parse_report_xml(xml, "shard0.xml");
  const auto second = parse_report_xml(xml, "shard1.xml");
  results.insert(results.end(), second.begin(), second.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_TRUE(matrix.warnings.empty());
  EXPECT_EQ(matrix.rows.at(0).cells.at(0).results.size(), 2u);
  EXPECT_TRUE(matrix.rows.at(0).ran_on_no_device);
}

TEST(ReportMatrix, SkippedOnEveryDeviceIsFlagged) {
  const std::string xml = report(suite(
      "OpenCL/Fp64", device_case("Adds", kPthread0, skipped("no cl_khr_fp64"), "skipped") +
                         device_case("Adds", kPthread1, skipped("no cl_khr_fp64"), "skipped") +
                         device_case("Mixed", kPthread0, skipped("no"), "skipped") +
                         device_case("Mixed", kPthread1)));
  const Matrix matrix = build_matrix(parse_report_xml(xml, "a.xml"));
  EXPECT_TRUE(row_of(matrix, "OpenCL/Fp64.Adds").skipped_everywhere);
  EXPECT_FALSE(row_of(matrix, "OpenCL/Fp64.Adds").ran_on_no_device);
  EXPECT_FALSE(row_of(matrix, "OpenCL/Fp64.Mixed").skipped_everywhere);
  EXPECT_EQ(matrix.skipped_everywhere(), 1u);
}

TEST(ReportMatrix, AHostTestThatAlwaysSkipsIsFlaggedToo) {
  const std::string xml = report(suite("Disabled",
                                       "<testcase name=\"DISABLED_Later\" status=\"notrun\" "
                                       "result=\"suppressed\"/>"));
  const Matrix matrix = build_matrix(parse_report_xml(xml, "a.xml"));
  EXPECT_TRUE(matrix.rows.at(0).skipped_everywhere);
}

TEST(ReportMatrix, NoResultsNoRowsNoColumns) {
  const Matrix matrix = build_matrix({});
  EXPECT_TRUE(matrix.rows.empty());
  EXPECT_TRUE(matrix.columns.empty());
  EXPECT_EQ(matrix.result_count, 0u);
}

// --- renderings ---

Matrix sample() {
  const std::string xfail = "<property name=\"polydev_expectation\" value=\"xfail\"/>";
  return build_matrix(parse_report_xml(
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

TEST(ReportText, MatrixWithLegendFlagsSummaryAndFailures) {
  const std::string text = polydev::report::format_text(sample(), {"results/a.xml"});
  EXPECT_THAT(text, HasSubstr("polydev report: 7 results from 1 file\n"));
  EXPECT_THAT(text, HasSubstr("  host  tests without a device\n"));
  EXPECT_THAT(text, HasSubstr(std::string("  [1]   ") + kPthread0 +
                              "  pthread-skylake-avx512-AMD EPYC (Portable Computing Language, "
                              "3.1+debian)\n"));
  EXPECT_THAT(text, HasSubstr("  none  no device: "));
  EXPECT_THAT(text, HasSubstr("test                  host    [1]     [2]     none\n"));
  EXPECT_THAT(text, HasSubstr("KeyTest.IsStable      pass    .       .       .\n"));
  EXPECT_THAT(text, HasSubstr("OpenCL/Saxpy.Matches  .       pass    FAIL    .\n"));
  EXPECT_THAT(text, HasSubstr("OpenCL/Saxpy.Known    .       xfail   XPASS   .\n"));
  EXPECT_THAT(text, HasSubstr("OpenCL/Fp64.Adds      .       skip    .       .       <- "
                              "skipped on every device\n"));
  EXPECT_THAT(text, HasSubstr("CUDA/VectorAdd.Adds   .       .       .       skip    <- ran "
                              "on no device\n"));
  EXPECT_THAT(text, HasSubstr("summary: 2 pass, 1 FAIL, 2 skip, 1 xfail, 1 XPASS in 5 tests x 4 "
                              "columns; 1 skipped on every device, 1 ran on no device\n"));
  EXPECT_THAT(text, HasSubstr("  FAIL OpenCL/Saxpy.Matches on [2] " + std::string(kPthread1) +
                              " (results/a.xml:"));
  EXPECT_THAT(text, HasSubstr("      y[3] is 7, expected 8\n"));
  EXPECT_THAT(text, HasSubstr("  XPASS OpenCL/Saxpy.Known on [2] "));
  EXPECT_THAT(text, HasSubstr(polydev::report::kUnexpectedPass));
  EXPECT_THAT(text, HasSubstr("reasons for skips and expected failures:\n"
                              "  1 xfail\n      expected failure: known bug\n"
                              "  1 skip at /src/f.cpp:3\n      no cl_khr_fp64\n"));
  EXPECT_THAT(text, HasSubstr("  1 skip\n      CUDA unavailable: no NVIDIA driver is loaded\n"));
  EXPECT_THAT(text, HasSubstr("flagged (their reasons are listed above):\n"
                              "  OpenCL/Fp64.Adds: skipped on every device\n"
                              "  CUDA/VectorAdd.Adds: ran on no device\n"));
}

TEST(ReportText, SeveralResultsInACellAreMarked) {
  std::vector<CaseResult> results =
      parse_report_xml(report(suite("OpenCL/S", device_case("T", kPthread0))), "a.xml");
  results.push_back(results.front());
  const std::string text = polydev::report::format_text(build_matrix(results), {"a.xml", "b.xml"});
  EXPECT_THAT(text, HasSubstr("OpenCL/S.T  pass+\n"));
  EXPECT_THAT(text, HasSubstr("2 results from 2 files"));
}

TEST(ReportText, NoResultsSaysSo) {
  EXPECT_EQ(polydev::report::format_text(build_matrix({}), {"a.xml"}),
            "polydev report: 0 results from 1 file\n");
}

TEST(ReportMessage, DropsGoogleTestsLocationAndFailedLines) {
  using polydev::report::readable_message;
  EXPECT_EQ(readable_message("/src/a.cpp:12\nFailed\nno platform"), "no platform");
  EXPECT_EQ(readable_message("/src/a.cpp:12\nExpected equality of these values:\n  a\n    b"),
            "Expected equality of these values:\n  a\n    b");
  EXPECT_EQ(readable_message("unknown file\nC++ exception with description \"x\" thrown"),
            "C++ exception with description \"x\" thrown");
  EXPECT_EQ(readable_message("a.cpp:1\nfirst\n\nb.cpp:2\nsecond"), "first\n\nsecond");
  EXPECT_EQ(readable_message("ratio 3:4 is off"), "ratio 3:4 is off");
  EXPECT_EQ(readable_message("Failed"), "Failed") << "only right after a location";
  EXPECT_EQ(readable_message(""), "");
}

TEST(ReportJson, DescribesColumnsCellsAndSummary) {
  std::vector<CaseResult> results = parse_report_xml(
      report(
          suite("OpenCL/S", device_case("T", kPthread0, failure("a &quot;quoted&quot; problem")))),
      "a.xml");
  const std::string json = polydev::report::format_json(build_matrix(results), {"a.xml"});
  EXPECT_EQ(json, std::string(R"({"files": ["a.xml"], "columns": [{"id": ")") + kPthread0 +
                      R"(", "kind": "device", "name": "pthread-skylake-avx512-AMD EPYC", )"
                      R"("platform": "Portable Computing Language", "driver": "3.1+debian"}], )"
                      R"("tests": [{"name": "OpenCL/S.T", "skipped_on_every_device": false, )"
                      R"("ran_on_no_device": false, "cells": [{"column": ")" +
                      kPthread0 +
                      R"(", "outcome": "fail", "results": [{"outcome": "fail", )"
                      R"("message": "a \"quoted\" problem", "file": "a.xml", "line": 4}]}]}], )"
                      R"("summary": {"results": 1, "pass": 0, "fail": 1, "skip": 0, "xfail": 0, )"
                      R"("xpass": 0, "skipped_on_every_device": 0, "ran_on_no_device": 0}, )"
                      R"("warnings": []})"
                      "\n");
}

TEST(ReportHtml, SelfContainedPageWithColoredCellsAndFlaggedRows) {
  const std::string html = polydev::report::format_html(sample(), {"results/a.xml"});
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<style>"));
  for (const char* external : {"<script", "<link", "src=", "http://", "https://", "@import"}) {
    EXPECT_THAT(html, Not(HasSubstr(external))) << external;
  }
  std::string wrappable = kPthread1;  // a header may wrap after each underscore
  for (std::size_t at = wrappable.find('_'); at != std::string::npos;
       at = wrappable.find('_', at + 6)) {
    wrappable.insert(at + 1, "<wbr>");
  }
  EXPECT_THAT(html, HasSubstr("<span class=\"key\">" + wrappable + "</span>"));
  EXPECT_THAT(html, HasSubstr("<span class=\"badge xfail\">1 xfail</span>"));
  EXPECT_THAT(html, HasSubstr("<span class=\"badge skip\">2 skip</span>"));
  EXPECT_THAT(html, HasSubstr("pthread-skylake-avx512-AMD EPYC"));
  EXPECT_THAT(html, HasSubstr("<td class=\"cell fail\""));
  EXPECT_THAT(html, HasSubstr("<td class=\"cell xpass\""));
  EXPECT_THAT(html, HasSubstr("<tr class=\"flagged\"><td class=\"test\"><span "
                              "class=\"name\">OpenCL/Fp64.Adds</span><span class=\"flag\">skipped "
                              "on every device</span>"));
  EXPECT_THAT(html,
              HasSubstr("7 results from 1 file in <code>results/</code>: <code>a.xml</code>"));
  EXPECT_THAT(html, HasSubstr("<span class=\"flag\">ran on no device</span>"));
  EXPECT_THAT(html, HasSubstr("<span class=\"badge fail\">1 fail</span>"));
  EXPECT_THAT(html, HasSubstr("y[3] is 7, expected 8"));
}

TEST(ReportHtml, EscapesEveryTextFromTheReports) {
  const std::string xml =
      report(suite("OpenCL/S&lt;script&gt;",
                   device_case("T", kPthread0,
                               failure("&lt;img onerror=&apos;x&apos;&gt; &amp; &quot;q&quot;"))));
  const std::string html =
      polydev::report::format_html(build_matrix(parse_report_xml(xml, "a<b>.xml")), {"a<b>.xml"});
  EXPECT_THAT(html, Not(HasSubstr("<script>")));
  EXPECT_THAT(html, Not(HasSubstr("<img")));
  EXPECT_THAT(html, Not(HasSubstr("a<b>")));
  EXPECT_THAT(html, HasSubstr("OpenCL/S&lt;script&gt;.T"));
  EXPECT_THAT(html, HasSubstr("&lt;img onerror=&#39;x&#39;&gt; &amp; &quot;q&quot;"));
  EXPECT_THAT(html, HasSubstr("a&lt;b&gt;.xml"));
}

// A report holding terminal control sequences and bytes that are not UTF-8, in a test name, a
// device's properties and a failure message.
std::string hostile_report() {
  return report(
      suite("OpenCL/S\x1b[31m",
            "<testcase name=\"T\xff/" + std::string(kPthread0) +
                "\" status=\"run\" result=\"completed\">" +
                failure("line one&#10;\x1b]0;title\x07 \xc0\xaf \xed\xa0\x80 \xe2\x82") +
                "<properties><property name=\"polydev_device_key\" value=\"" + kPthread0 +
                "\"/><property name=\"polydev_device_name\" value=\"GPU\x1b[5m\xc2\x9b\"/>"
                "<property name=\"polydev_driver\" value=\"\x7f\xf5\"/></properties></testcase>"));
}

TEST(ReportText, ShowsForeignTextWithoutControlCharacters) {
  const std::string text = polydev::report::format_text(
      build_matrix(parse_report_xml(hostile_report(), "a\x1b.xml")), {"a\x1b.xml"});
  for (const char raw : {'\x1b', '\x07', '\x7f', '\r'}) {
    EXPECT_EQ(text.find(raw), std::string::npos) << "raw byte " << int{raw} << " in:\n" << text;
  }
  EXPECT_THAT(text, HasSubstr("OpenCL/S\\x1b[31m.T\\xff"));
  EXPECT_THAT(text, HasSubstr("GPU\\x1b[5m\\xc2\\x9b"));
  EXPECT_THAT(text, HasSubstr("\\x7f\\xf5"));
  EXPECT_THAT(text, HasSubstr("(a\\x1b.xml:"));
  EXPECT_THAT(text, HasSubstr("line one\n"));
  EXPECT_THAT(text, HasSubstr("\\x1b]0;title\\x07 \\xc0\\xaf \\xed\\xa0\\x80 \\xe2\\x82"));
}

TEST(ReportJson, IsValidUtf8WhateverTheReportHolds) {
  const std::string json = polydev::report::format_json(
      build_matrix(parse_report_xml(hostile_report(), "a\xff.xml")), {"a\xff.xml"});
  for (std::size_t i = 0; i + 1 < json.size(); ++i) {
    EXPECT_GE(static_cast<unsigned char>(json[i]), 0x20u) << "a raw control character at " << i;
  }
  EXPECT_THAT(json, HasSubstr("\"OpenCL/S\\u001b[31m.T\xef\xbf\xbd\""));
  EXPECT_THAT(json, HasSubstr("\"name\": \"GPU\\u001b[5m\\u009b\""));
  EXPECT_THAT(json, HasSubstr("\"driver\": \"\\u007f\xef\xbf\xbd\""));
  EXPECT_THAT(json, HasSubstr("\"a\xef\xbf\xbd.xml\""));
  EXPECT_EQ(json.find('\xff'), std::string::npos);
  EXPECT_EQ(json.find("\xc0\xaf"), std::string::npos);
  EXPECT_EQ(json.find("\xed\xa0\x80"), std::string::npos);
}

TEST(ReportHtml, ShowsForeignTextWithoutControlCharacters) {
  const std::string html = polydev::report::format_html(
      build_matrix(parse_report_xml(hostile_report(), "a.xml")), {"a.xml"});
  for (const char raw : {'\x1b', '\x07', '\x7f', '\xff', '\xc0'}) {
    EXPECT_EQ(html.find(raw), std::string::npos) << "raw byte " << int{raw};
  }
  EXPECT_THAT(html, HasSubstr("OpenCL/S\\x1b[31m.T\\xff"));
}

TEST(ReportHtml, NamesTheFilesFolderOnceWhenTheyShareOne) {
  const Matrix matrix = build_matrix({});
  EXPECT_THAT(polydev::report::format_html(matrix, {"out/a.xml", "out/b.xml"}),
              HasSubstr("2 files in <code>out/</code>: <code>a.xml</code>, <code>b.xml</code>"));
  EXPECT_THAT(polydev::report::format_html(matrix, {"out/a.xml", "b.xml"}),
              HasSubstr("2 files: <code>out/a.xml</code>, <code>b.xml</code>"));
}

// --- CTest's JUnit file ---

// Text as the content of an XML element.
std::string xml_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else {
      out += c;
    }
  }
  return out;
}

// A file as `ctest --output-junit` (CMake 3.25) writes it: a <testsuite> root, one <testcase> an
// entry.
std::string junit(const std::string& entries) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"(empty)\"\n\ttests=\"1\"\n"
         "\tfailures=\"0\"\n\tdisabled=\"0\"\n\tskipped=\"0\"\n\thostname=\"\"\n\ttime=\"0\"\n"
         "\ttimestamp=\"2026-11-25T15:40:20\"\n\t>\n" +
         entries + "</testsuite>\n";
}

// One entry: `body` is what CTest puts before the output (<failure>, <skipped>), `output` what the
// entry printed.
std::string entry(const std::string& name, const std::string& status, const std::string& body,
                  const std::string& output) {
  return "\t<testcase name=\"" + name + "\" classname=\"" + name + "\" time=\"0.15\" status=\"" +
         status + "\">\n" + body + "\t\t<system-out>" + xml_text(output) +
         "</system-out>\n\t</testcase>\n";
}

const std::string kSkipRegex = "\t\t<skipped message=\"SKIP_REGULAR_EXPRESSION_MATCHED\"/>\n";
const std::string kFailed = "\t\t<failure message=\"\"/>\n";

// GoogleTest's console output of one test: `parts` are its failures or skips, `verdict` the
// line that ends it ("[       OK ]", "[  FAILED  ]", "[  SKIPPED ]").
std::string console(const std::string& test, const std::string& parts, const std::string& verdict) {
  return "polydev devices\nOpenCL: available; PYOPENCL_TEST unset\nNote: Google Test filter = " +
         test +
         "\n[==========] Running 1 test from 1 test suite.\n[----------] Global test environment "
         "set-up.\n[----------] 1 test from S\n[ RUN      ] " +
         test + "\n" + parts + verdict + " " + test +
         " (0 ms)\n[----------] 1 test from S (0 ms total)\n\n[==========] 1 test from 1 test "
         "suite ran. (0 ms total)\n";
}

TEST(ReportCTest, EntriesOfGtestDiscoverTestsAreInstancesWithTheirMessages) {
  const std::string pass = "OpenCL/Saxpy.Matches/opencl_pocl_cpu_0";
  const std::string fail = "OpenCL/Saxpy.Matches/opencl_pocl_cpu_1";
  const std::string skip = "OpenCL/Fp64.Adds/opencl_pocl_cpu_0";
  const auto results = parse_report_xml(
      junit(entry(pass, "run", "", console(pass, "", "[       OK ]")) +
            entry(fail, "fail", kFailed,
                  console(fail,
                          "/src/saxpy_test.cpp:30: Failure\nExpected equality of these values:\n"
                          "  y[3]\n    Which is: 7\n  8\n\n/src/saxpy_test.cpp:31: Failure\n"
                          "Failed\nsecond\n",
                          "[  FAILED  ]")) +
            entry(skip, "notrun", kSkipRegex,
                  console(skip,
                          "/src/fp64_test.cpp:12: Skipped\nrequires fp64 (cl_khr_fp64), but "
                          "device 'cpu' does not list cl_khr_fp64 among its extensions\n",
                          "[  SKIPPED ]"))),
      "ctest.xml");
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].suite, "OpenCL/Saxpy");
  EXPECT_EQ(results[0].name, "Matches/opencl_pocl_cpu_0");
  EXPECT_EQ(results[0].source, Source::ctest);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  EXPECT_EQ(results[0].file, "ctest.xml");
  EXPECT_EQ(results[0].line, 11);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_TRUE(results[1].run_failed);
  EXPECT_EQ(results[1].message,
            "/src/saxpy_test.cpp:30\nExpected equality of these values:\n  y[3]\n    Which is: "
            "7\n  8\n\n/src/saxpy_test.cpp:31\nFailed\nsecond");
  EXPECT_EQ(polydev::report::readable_message(results[1].message),
            "Expected equality of these values:\n  y[3]\n    Which is: 7\n  8\n\nsecond");
  EXPECT_EQ(results[2].outcome, Outcome::skip);
  EXPECT_FALSE(results[2].run_failed);
  EXPECT_EQ(results[2].message,
            "/src/fp64_test.cpp:12\nrequires fp64 (cl_khr_fp64), but device 'cpu' does not "
            "list cl_khr_fp64 among its extensions");
}

// CTest's file has no properties: polydev's expectations are known by the words with which the
// fixtures begin their messages.
TEST(ReportCTest, ExpectationsAreRecognizedByTheFixturesWords) {
  const std::string xfail_part =
      "/p/polydev.yaml:3: Skipped\nexpected failure: known [/p/polydev.yaml:3]; the test failed "
      "with: /src/t.cpp:9: boom\n";
  const std::string xpass_part =
      "/p/polydev.yaml:3: Failure\nunexpected pass of an xfail entry: remove /p/polydev.yaml:3 "
      "(known), or give it 'strict: false' if the test passes only at times\n";
  const auto results = parse_report_xml(
      junit(entry("S.A/opencl_x_0", "notrun", kSkipRegex,
                  console("S.A/opencl_x_0", xfail_part, "[  SKIPPED ]")) +
            entry("S.B/opencl_x_0", "fail", kFailed,
                  console("S.B/opencl_x_0", xpass_part, "[  FAILED  ]")) +
            entry("S.C/opencl_x_0", "fail", kFailed,
                  console("S.C/opencl_x_0", xpass_part + "/src/t.cpp:20: Failure\nother\n",
                          "[  FAILED  ]")) +
            entry("S.D/opencl_x_0", "notrun", kSkipRegex,
                  console("S.D/opencl_x_0",
                          "/p/polydev.yaml:7: Skipped\nknown problem: slow [/p/polydev.yaml:7]\n",
                          "[  SKIPPED ]"))),
      "ctest.xml");
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].outcome, Outcome::xfail);
  EXPECT_THAT(results[0].message, testing::StartsWith("/p/polydev.yaml:3\nexpected failure: "));
  EXPECT_EQ(results[1].outcome, Outcome::xpass);
  EXPECT_TRUE(results[1].run_failed) << "a strict entry's pass failed the run";
  EXPECT_EQ(results[2].outcome, Outcome::fail) << "another failure is a failure";
  EXPECT_EQ(results[3].outcome, Outcome::skip);
}

TEST(ReportCTest, WhatCTestDidNotRunFailsAsCTestCountsItAndItsSkipsAreSkips) {
  const auto results = parse_report_xml(
      junit(entry("missing", "notrun", "<skipped message=\"Unable to find executable\"/>",
                  "Unable to find executable: /no/such/exe") +
            entry("needs", "notrun", "<skipped message=\"Fixture dependency failed\"/>",
                  "Failed test dependencies: setup") +
            entry("code", "notrun", "<skipped message=\"SKIP_RETURN_CODE=77\"/>", "") +
            entry("regex", "notrun", kSkipRegex, "nothing of GoogleTest's\n") +
            "\t<testcase name=\"off\" classname=\"off\" time=\"0\" status=\"disabled\">\n"
            "\t\t<system-out>Disabled</system-out>\n\t</testcase>\n" +
            entry("crash", "fail", "<failure message=\"SEGFAULT\"/>",
                  "[ RUN      ] S.T\nwork\nmore work\n") +
            entry("silent", "fail", kFailed, "") +
            entry("odd", "run", "<failure message=\"a failure\"/>", "")),
      "ctest.xml");
  ASSERT_EQ(results.size(), 8u);
  EXPECT_EQ(results[0].outcome, Outcome::fail);
  EXPECT_TRUE(results[0].run_failed);
  EXPECT_EQ(results[0].message,
            "CTest did not run the entry: Unable to find executable\n"
            "Unable to find executable: /no/such/exe");
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_THAT(results[1].message, HasSubstr("Fixture dependency failed\nFailed test dependencies"));
  EXPECT_EQ(results[2].outcome, Outcome::skip);
  EXPECT_EQ(results[2].message, "skipped: the exit status matched the entry's SKIP_RETURN_CODE");
  EXPECT_EQ(results[3].outcome, Outcome::skip);
  EXPECT_EQ(results[3].message, "skipped: the output matched the entry's SKIP_REGULAR_EXPRESSION");
  EXPECT_EQ(results[4].outcome, Outcome::skip);
  EXPECT_EQ(results[4].message, "not run: disabled (the CTest property DISABLED)");
  EXPECT_EQ(results[5].outcome, Outcome::fail);
  EXPECT_EQ(results[5].message,
            "CTest reports the entry failed: SEGFAULT; its output holds no GoogleTest failure (a "
            "crash, a timeout, an exit status); its output ends with:\n"
            "[ RUN      ] S.T\nwork\nmore work");
  EXPECT_THAT(results[6].message, HasSubstr("; it printed nothing"));
  EXPECT_EQ(results[7].outcome, Outcome::fail) << "a <failure> is never read as a pass";
}

TEST(ReportCTest, AFailureWithoutGoogleTestsMessageShowsTheLastLinesOfTheOutput) {
  std::string output;
  for (int line = 1; line <= 30; ++line) output += "line " + std::to_string(line) + "\n";
  const auto results = parse_report_xml(junit(entry("t", "fail", kFailed, output)), "c.xml");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_THAT(results[0].message, HasSubstr("ends with:\nline 19\nline 20\n"));
  EXPECT_THAT(results[0].message, testing::EndsWith("line 30"));
  EXPECT_THAT(results[0].message, Not(HasSubstr("line 18\n")));
}

// An entry whose instance this run does not have (another selection, another shard): polydev's
// listener prints "[  SKIPPED ] <entry>: <reason>", which is the reason.
TEST(ReportCTest, PolydevsExplanationOfAnEntryThisRunDoesNotHaveIsItsReason) {
  const std::string name = "OpenCL/S.T/opencl_x_0";
  const std::string output =
      "polydev devices\nNote: Google Test filter = " + name +
      "\n[==========] Running 0 tests from 0 test suites.\n[  SKIPPED ] " + name +
      ": device opencl_x_0 is left out by the selection: not named by "
      "PYOPENCL_TEST='portable:basic'\n[==========] 0 tests from 0 test suites ran. (0 ms "
      "total)\n[  PASSED  ] 0 tests.\n";
  const auto results = parse_report_xml(junit(entry(name, "notrun", kSkipRegex, output)), "c.xml");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::skip);
  EXPECT_EQ(results[0].message,
            "device opencl_x_0 is left out by the selection: not named by "
            "PYOPENCL_TEST='portable:basic'");
}

// An entry that runs a whole binary is a row of its own; its messages name their tests.
TEST(ReportCTest, ABatchEntryIsAHostRowWhoseMessagesNameTheirTests) {
  const std::string output =
      "[ RUN      ] Keys.A\n[       OK ] Keys.A (0 ms)\n[ RUN      ] Keys.B\n"
      "/src/keys_test.cpp:40: Failure\nwrong key\n[  FAILED  ] Keys.B (0 "
      "ms)\n";
  const auto results =
      parse_report_xml(junit(entry("polydev_unit_tests", "fail", kFailed, output)), "c.xml");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].message, "/src/keys_test.cpp:40\nwrong key\n(in Keys.B)");
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(row_names(matrix), ElementsAre("polydev_unit_tests"));
  EXPECT_THAT(column_ids(matrix), ElementsAre("host"));
}

TEST(ReportCTest, CMake4sLabelPropertiesAreRead) {
  const auto results = parse_report_xml(
      junit("<testcase name=\"t\" classname=\"t\" time=\"0\" status=\"run\"><properties>"
            "<property name=\"cmake_labels\" value=\"gpu;slow\"/></properties>"
            "<system-out/></testcase>\n"),
      "c.xml");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  EXPECT_EQ(results[0].properties.at("cmake_labels"), "gpu;slow");
}

TEST(ReportCTest, WhatCTestDoesNotWriteIsAnErrorWithItsLine) {
  struct Case {
    std::string entries;
    int line;
    std::string message;
  };
  const std::vector<Case> cases{
      {"<testcase name=\"t\"/>\n", 11,
       "a <testcase> without a 'status'; CTest writes 'run', 'fail', 'notrun' or 'disabled'"},
      {"<testcase name=\"t\" status=\"passed\"/>\n", 11,
       "status 'passed' of a <testcase>; CTest writes 'run', 'fail', 'notrun' or 'disabled'"},
      {"<testcase name=\"t\" status=\"notrun\"><system-out/></testcase>\n", 11,
       "a 'notrun' <testcase> without <skipped>; CTest writes its reason there"},
      {"<testcase name=\"t\" status=\"run\">\n<Failure/></testcase>\n", 12,
       "unexpected <Failure> in <testcase>; CTest writes <failure>, <skipped>, <properties> and "
       "<system-out>"},
      {"<testcase status=\"run\"/>\n", 11, "<testcase> without a 'name'"},
      {"<testsuite name=\"nested\"/>\n", 11, "unexpected <testsuite> in <testsuite>"},
  };
  for (const Case& bad : cases) {
    try {
      parse_report_xml(junit(bad.entries), "ctest.xml");
      ADD_FAILURE() << "accepted:\n" << bad.entries;
    } catch (const polydev::report::input_error& error) {
      EXPECT_EQ(error.line(), bad.line) << error.what();
      EXPECT_THAT(error.what(),
                  HasSubstr("ctest.xml:" + std::to_string(bad.line) + ": " + bad.message));
    }
  }
}

// polydev_discover_device_tests' entries of a device: "<binary>/<device key>", "<binary>/host" for
// the tests without a device, "<binary>/<placeholder>".
TEST(ReportCTest, AnEntryOfADeviceIsTheBinarysRowInThatDevicesColumn) {
  const std::string binary = "polydev_opencl_tests";
  const std::string key = "opencl_pocl_cpu_0";
  const std::string output =
      "[ RUN      ] OpenCL/A.T/" + key + "\n/src/a.cpp:5: Skipped\nrequires fp64\n" +
      "[  SKIPPED ] OpenCL/A.T/" + key + " (0 ms)\n[ RUN      ] OpenCL/B.T/" + key +
      "\n/src/b.cpp:9: Skipped\nrequires fp64\n[  SKIPPED ] OpenCL/B.T/" + key +
      " (0 ms)\n[ RUN      ] OpenCL/C.T/" + key + "\n/src/c.cpp:2: Skipped\nrequires fp64\n" +
      "[  SKIPPED ] OpenCL/C.T/" + key + " (0 ms)\npolydev: every test of this run was skipped\n";
  const auto results =
      parse_report_xml(junit(entry(binary + "/" + key, "notrun", kSkipRegex, output) +
                             entry(binary + "/host", "run", "", "") +
                             entry(binary + "/no_cuda_device", "notrun", kSkipRegex, "")),
                       "ctest.xml");
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].suite, "");
  EXPECT_EQ(results[0].name, binary + "/" + key);
  EXPECT_EQ(results[0].message, "/src/a.cpp:5\nrequires fp64\n(in OpenCL/A.T/" + key +
                                    ")\n\n/src/b.cpp:9\n" + "requires fp64\n(in OpenCL/B.T/" + key +
                                    ")\n\n/src/c.cpp:2\nrequires fp64\n" + "(in OpenCL/C.T/" + key +
                                    ")");
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(row_names(matrix), ElementsAre(binary));
  EXPECT_THAT(column_ids(matrix), ElementsAre("host", key, "no_device"));
  EXPECT_EQ(shown(matrix, binary, key), "skip");
  EXPECT_EQ(shown(matrix, binary, "host"), "pass");
  EXPECT_EQ(shown(matrix, binary, "no_device"), "skip");
}

// The same message of many tests of an entry (a reason of every test on a device) is given once.
TEST(ReportCTest, TheSameMessageOfManyTestsOfAnEntryIsGivenOnce) {
  std::string output;
  for (const char* test : {"S.A/no_cuda_device", "S.B/no_cuda_device", "S.C/no_cuda_device"}) {
    output += std::string("[ RUN      ] ") + test +
              "\n/src/t.cpp:4: Skipped\nCUDA unavailable: no NVIDIA driver\n[  SKIPPED ] " + test +
              " (0 ms)\n";
  }
  const auto results = parse_report_xml(
      junit(entry("tests/no_cuda_device", "notrun", kSkipRegex, output)), "ctest.xml");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].message,
            "/src/t.cpp:4\nCUDA unavailable: no NVIDIA driver\n(in S.A/no_cuda_device and 2 more)");
}

// --- GoogleTest's console output ---

TEST(ReportConsole, PartsWithTheirPlaceTextAndTest) {
  const auto parsed = polydev::report::parse_gtest_console(
      "noise before\r\n[ RUN      ] S.A\r\n/src/a.cpp:3: Failure\r\nfirst line\r\n\r\nafter a "
      "blank line\r\n\r\n[  FAILED  ] S.A (0 ms)\r\n[ RUN      ] S.B\r\nunknown file: Failure\r\n"
      "C++ exception thrown\r\nC:/My Files/b.cpp:7: Skipped\r\nskipped there\r\n"
      "Expected: Failure\r\n[ RUN      ] S.C\r\nheader.h: Skipped\r\nno line\r\n");
  ASSERT_EQ(parsed.parts.size(), 4u);
  EXPECT_FALSE(parsed.parts[0].skip);
  EXPECT_EQ(parsed.parts[0].location, "/src/a.cpp:3");
  EXPECT_EQ(parsed.parts[0].text, "first line\n\nafter a blank line");
  EXPECT_EQ(parsed.parts[0].test, "S.A");
  EXPECT_EQ(parsed.parts[1].location, "unknown file");
  EXPECT_EQ(parsed.parts[1].text, "C++ exception thrown");
  EXPECT_EQ(parsed.parts[1].test, "S.B");
  EXPECT_TRUE(parsed.parts[2].skip);
  EXPECT_EQ(parsed.parts[2].location, "C:/My Files/b.cpp:7");
  EXPECT_EQ(parsed.parts[2].text, "skipped there\nExpected: Failure")
      << "a word of the output is no place";
  EXPECT_EQ(parsed.parts[3].location, "header.h");
  EXPECT_EQ(parsed.parts[3].test, "S.C");
  EXPECT_TRUE(parsed.skipped_entries.empty());
}

TEST(ReportConsole, OnlyPolydevsSkippedLinesAreEntries) {
  const auto parsed = polydev::report::parse_gtest_console(
      "[  SKIPPED ] S.T/opencl_x_0: runs in another shard\n[  SKIPPED ] S.U (0 ms)\n"
      "[  SKIPPED ] 1 test, listed below:\n[  SKIPPED ] S.U\n");
  ASSERT_EQ(parsed.skipped_entries.size(), 1u);
  EXPECT_EQ(parsed.skipped_entries[0].first, "S.T/opencl_x_0");
  EXPECT_EQ(parsed.skipped_entries[0].second, "runs in another shard");
  EXPECT_TRUE(parsed.parts.empty());
}

// --- CTest entries in the matrix ---

TEST(ReportMatrix, CTestEntriesGoToTheDeviceTheirNameEndsIn) {
  const auto results = parse_report_xml(
      junit(entry("OpenCL/S.T/opencl_pocl_cpu_0", "run", "", "") +
            entry("CUDA/V.Adds/cuda_nvidia_h200_pci_00_07", "run", "", "") +
            entry("CUDA/V.Adds/no_cuda_device", "notrun", kSkipRegex, "") +
            entry("Prefix/P.Q/3", "run", "", "") + entry("Odd/S.T/opencl_", "run", "", "") +
            entry("Odd/S.T/opencl_X", "run", "", "")),
      "c.xml");
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(column_ids(matrix),
              ElementsAre("host", "cuda_nvidia_h200_pci_00_07", "opencl_pocl_cpu_0", "no_device"));
  EXPECT_THAT(row_names(matrix), ElementsAre("OpenCL/S.T", "CUDA/V.Adds", "Prefix/P.Q/3",
                                             "Odd/S.T/opencl_", "Odd/S.T/opencl_X"));
  EXPECT_EQ(shown(matrix, "CUDA/V.Adds", "no_device"), "skip");
}

// The folder of XML_OUTPUT_DIR and CTest's file of the same run: one result per cell.
TEST(ReportMatrix, ACTestEntryAndTheReportItsRunWroteAreOneResult) {
  const std::string name = std::string("OpenCL/S.T/") + kPthread0;
  std::vector<CaseResult> results =
      parse_report_xml(report(suite("OpenCL/S", device_case("T", kPthread0))), "gtest.xml");
  const auto passed = parse_report_xml(junit(entry(name, "run", "", "")), "ctest.xml");
  results.insert(results.end(), passed.begin(), passed.end());
  Matrix matrix = build_matrix(results);
  ASSERT_EQ(matrix.rows.size(), 1u);
  ASSERT_EQ(matrix.rows[0].cells.size(), 1u);
  EXPECT_EQ(matrix.rows[0].cells.begin()->second.results.size(), 1u);
  EXPECT_EQ(matrix.rows[0].cells.begin()->second.results[0].source, Source::gtest);
  EXPECT_EQ(matrix.columns[0].name, "pthread-skylake-avx512-AMD EPYC") << "from GoogleTest's XML";
  EXPECT_TRUE(matrix.warnings.empty());

  // CTest failed the entry after its report passed (a crash at exit, a sanitizer, a timeout):
  // CTest says more, and the cell fails.
  results.resize(1);
  const auto crashed = parse_report_xml(junit(entry(name, "fail", kFailed, "")), "ctest.xml");
  results.insert(results.end(), crashed.begin(), crashed.end());
  matrix = build_matrix(results);
  EXPECT_EQ(shown(matrix, "OpenCL/S.T", kPthread0), "fail");
  EXPECT_EQ(matrix.rows[0].cells.begin()->second.results.size(), 2u);
  EXPECT_TRUE(matrix.warnings.empty());

  // Two CTest files of the same device: an overlap as any other.
  results = passed;
  results.insert(results.end(), passed.begin(), passed.end());
  EXPECT_EQ(build_matrix(results).warnings.size(), 1u);
}

TEST(ReportMatrix, AFailedEntryWhoseReportFailedIsOneFailure) {
  std::vector<CaseResult> results = parse_report_xml(
      report(suite("OpenCL/S", device_case("T", kPthread0, failure("/src/t.cpp:3&#x0A;bad")))),
      "gtest.xml");
  const auto failed = parse_report_xml(
      junit(entry(std::string("OpenCL/S.T/") + kPthread0, "fail", kFailed, "")), "ctest.xml");
  results.insert(results.end(), failed.begin(), failed.end());
  const Matrix matrix = build_matrix(results);
  ASSERT_EQ(matrix.rows[0].cells.begin()->second.results.size(), 1u);
  EXPECT_EQ(matrix.rows[0].cells.begin()->second.results[0].message, "/src/t.cpp:3\nbad");
}

// CTest runs an entry with its report written to "<DIR>/<entry>.xml": given both, the report
// holds the entry's tests one by one, and the entry adds nothing unless CTest says more.
TEST(ReportMatrix, AnEntryIsCoveredByTheReportNamedAfterIt) {
  const std::string key = kPthread0;
  const std::string entry_name = "polydev_opencl_tests/" + key;
  const auto reports =
      parse_report_xml(report(suite("OpenCL/S", device_case("T", key) + device_case("U", key))),
                       "build/polydev_results/" + entry_name + ".xml");
  const auto with = [&](const std::string& entries) {
    std::vector<CaseResult> results = reports;
    const auto read = parse_report_xml(junit(entries), "ctest.xml");
    results.insert(results.end(), read.begin(), read.end());
    return build_matrix(results);
  };
  Matrix matrix = with(entry(entry_name, "run", "", ""));
  EXPECT_THAT(row_names(matrix), ElementsAre("OpenCL/S.T", "OpenCL/S.U"));
  EXPECT_EQ(matrix.result_count, 3u) << "every result read is counted";

  // It crashed after its report was written: the binary's row shows CTest's failure.
  matrix = with(entry(entry_name, "fail", kFailed, "[ RUN      ] exit\n"));
  EXPECT_THAT(row_names(matrix), ElementsAre("OpenCL/S.T", "OpenCL/S.U", "polydev_opencl_tests"));
  EXPECT_EQ(shown(matrix, "polydev_opencl_tests", key), "fail");

  // An entry of another binary, or one that no report covers, stays.
  matrix = with(entry("other_tests/" + key, "run", "", ""));
  EXPECT_THAT(row_names(matrix), ElementsAre("OpenCL/S.T", "OpenCL/S.U", "other_tests"));
}

TEST(ReportMatrix, AnEntryOfTwoReportsNamedAlikeIsKept) {
  std::vector<CaseResult> results =
      parse_report_xml(report(suite("S", "<testcase name=\"a\"/>")), "one/tests.xml");
  const auto second =
      parse_report_xml(report(suite("S", "<testcase name=\"b\"/>")), "two/tests.xml");
  const auto entries = parse_report_xml(junit(entry("tests", "run", "", "")), "ctest.xml");
  results.insert(results.end(), second.begin(), second.end());
  results.insert(results.end(), entries.begin(), entries.end());
  EXPECT_THAT(row_names(build_matrix(results)), ElementsAre("S.a", "S.b", "tests"));
}

// --- messages grouped: the HTML page and the text ---

// Three devices skip for the same reason, two tests are expected to fail per one polydev.yaml
// entry, five suites fail with the same selector error.
Matrix grouped_sample() {
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
  return build_matrix(parse_report_xml(
      report(suite("OpenCL/Fp64", fp64) + suite("OpenCL/Known", known) + selector), "a.xml"));
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(ReportGroups, OneGroupPerOutcomeAndMessageWithEveryResult) {
  const Matrix matrix = grouped_sample();
  const auto reasons = polydev::report::group_messages(matrix, {Outcome::skip, Outcome::xfail});
  ASSERT_EQ(reasons.size(), 2u);
  EXPECT_EQ(reasons[0].outcome, Outcome::skip);
  EXPECT_EQ(reasons[0].message, "no cl_khr_fp64");
  EXPECT_EQ(reasons[0].occurrences.size(), 3u);
  EXPECT_THAT(reasons[0].locations, ElementsAre("/src/fp64_test.cpp:12"));
  EXPECT_EQ(reasons[1].outcome, Outcome::xfail);
  EXPECT_EQ(reasons[1].occurrences.size(), 2u);
  EXPECT_THAT(reasons[1].locations, ElementsAre("/work/proj/polydev.yaml:3"));
  const auto failures = polydev::report::group_messages(matrix, {Outcome::fail});
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].occurrences.size(), 5u);
  EXPECT_EQ(failures[0].message, "PYOPENCL_TEST entry 1 'x': no platform matches");
}

TEST(ReportHtml, ReasonsAreOnThePageGroupedWithCounts) {
  const std::string html = polydev::report::format_html(grouped_sample(), {"a.xml"});
  EXPECT_THAT(html, HasSubstr("<h2>Reasons for skips and expected failures</h2>"));
  EXPECT_THAT(html, HasSubstr("<tr id=\"m1\"><td class=\"cell skip\">skip</td><td class=\"n\">3"
                              "</td><td><pre>no cl_khr_fp64</pre><div class=\"where\">at "
                              "<code>/src/fp64_test.cpp:12</code></div><details><summary>3 "
                              "results: 1 test on [1], [2], [3]</summary>"));
  EXPECT_THAT(html, HasSubstr("<tr id=\"m2\"><td class=\"cell xfail\">xfail</td><td class=\"n\">2"
                              "</td><td><pre>expected failure: known bug "
                              "[/work/proj/polydev.yaml:3]</pre>"));
  EXPECT_THAT(html, HasSubstr("2 results: 2 tests on [1]</summary>"));
  for (const char* key : {"opencl_a_0", "opencl_b_0", "opencl_c_0"}) {
    EXPECT_THAT(html, HasSubstr("<tr><td class=\"mono\">OpenCL/Fp64.Adds</td><td class=\"mono\">" +
                                std::string(key) + "</td>"));
  }
  // Shown once on the page (the tooltips aside), not once per result.
  EXPECT_EQ(occurrences(html, "<pre>no cl_khr_fp64</pre>"), 1u);
}

TEST(ReportHtml, AFailureRepeatedForEveryTestIsShownOnceWithItsCount) {
  const std::string html = polydev::report::format_html(grouped_sample(), {"a.xml"});
  EXPECT_THAT(html, HasSubstr("<div class=\"failure\" id=\"m0\"><b>FAIL</b> <span "
                              "class=\"count\">&#215;5</span> <code>OpenCL/Suite0.T</code> on "
                              "<code>no device</code> and 4 more<pre>PYOPENCL_TEST entry 1 "
                              "&#39;x&#39;: no platform matches</pre>"));
  EXPECT_THAT(html, HasSubstr("<summary>5 results: 5 tests on no device</summary>"));
  EXPECT_EQ(occurrences(html, "<pre>PYOPENCL_TEST entry 1"), 1u);
  EXPECT_EQ(occurrences(html, "<div class=\"failure"), 1u);
  // The flagged tests link to it instead of repeating it.
  EXPECT_EQ(occurrences(html,
                        "<a href=\"#m0\">PYOPENCL_TEST entry 1 &#39;x&#39;: no platform "
                        "matches</a>"),
            5u);
}

TEST(ReportHtml, CellsLinkToTheirMessage) {
  const std::string html = polydev::report::format_html(grouped_sample(), {"a.xml"});
  EXPECT_THAT(html, HasSubstr("\"><a href=\"#m1\">skip</a></td>"));
  EXPECT_THAT(html, HasSubstr("\"><a href=\"#m2\">xfail</a></td>"));
  EXPECT_THAT(html, HasSubstr("\"><a href=\"#m0\">FAIL</a></td>"));
  const std::string passed = polydev::report::format_html(
      build_matrix(parse_report_xml(report(suite("OpenCL/S", device_case("T", kPthread0))), "a")),
      {"a"});
  EXPECT_THAT(passed, HasSubstr("\">pass</td>")) << "a pass has no message";
  EXPECT_THAT(passed, Not(HasSubstr("Reasons for skips"))) << "no empty section";
}

TEST(ReportHtml, LocationsLinkRelativeToThePageOrBelowTheSourceUrl) {
  polydev::report::SourceLinks links;
  links.page_folder = "/work/proj/build/report";
  std::string html = polydev::report::format_html(grouped_sample(), {"a.xml"}, links);
  EXPECT_THAT(html, HasSubstr("at <a href=\"../../polydev.yaml\"><code>/work/proj/polydev.yaml:3"
                              "</code></a>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"../../../../src/fp64_test.cpp\">"));

  links.url = "https://example.org/o/r/blob/abc123";
  links.root = "/work/proj";
  html = polydev::report::format_html(grouped_sample(), {"a.xml"}, links);
  EXPECT_THAT(html, HasSubstr("at <a href=\"https://example.org/o/r/blob/abc123/polydev.yaml#L3\">"
                              "<code>/work/proj/polydev.yaml:3</code></a>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"../../../../src/fp64_test.cpp\">"))
      << "outside the root: relative to the page";
}

TEST(ReportLinks, WhatALocationLinksTo) {
  using polydev::report::source_link;
  polydev::report::SourceLinks page;
  page.page_folder = "/ci/out";
  EXPECT_EQ(source_link("/ci/out/x.yaml:3", page), "x.yaml");
  EXPECT_EQ(source_link("/ci/src/my dir/t#1.cpp:40", page), "../src/my%20dir/t%231.cpp");
  EXPECT_EQ(source_link("/ci/a/../polydev.yaml", page), "../polydev.yaml") << "no line";
  EXPECT_EQ(source_link("unknown file", page), "");
  EXPECT_EQ(source_link("tests/t.cpp:3", page), "") << "relative to an unknown folder";
  EXPECT_EQ(source_link("/ci/t.cpp:3", {}), "") << "no page, no URL: text";
  polydev::report::SourceLinks url = page;
  url.url = "https://example.org/blob/1/";
  url.root = "/ci";
  EXPECT_EQ(source_link("/ci/src/t.cpp:40", url), "https://example.org/blob/1/src/t.cpp#L40");
  EXPECT_EQ(source_link("/ci/src/t.cpp", url), "https://example.org/blob/1/src/t.cpp");
  EXPECT_EQ(source_link("/elsewhere/t.cpp:4", url), "../../elsewhere/t.cpp");
  EXPECT_EQ(source_link("/ci", url), "..") << "the root itself is no file below it";
}

TEST(ReportHtml, ReasonsAndLocationsAreEscaped) {
  const std::string xml = report(
      suite("OpenCL/S",
            device_case(
                "T", kPthread0,
                skipped("/src/&quot;x&quot;&lt;.cpp:3&#x0A;&lt;script&gt;alert(1)&lt;/script&gt;"),
                "skipped")));
  polydev::report::SourceLinks links;
  links.page_folder = "/out";
  const std::string html =
      polydev::report::format_html(build_matrix(parse_report_xml(xml, "a.xml")), {"a.xml"}, links);
  EXPECT_THAT(html, Not(HasSubstr("<script>")));
  EXPECT_THAT(html, HasSubstr("<pre>&lt;script&gt;alert(1)&lt;/script&gt;</pre>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"../src/%22x%22%3C.cpp\"><code>/src/&quot;x&quot;&lt;.cpp:3"
                              "</code></a>"));
}

TEST(ReportText, EachFailureMessageOnceAfterTheTestsThatHaveIt) {
  const std::string text = polydev::report::format_text(grouped_sample(), {"a.xml"});
  EXPECT_THAT(text, HasSubstr("failures and unexpected passes:\n"
                              "  FAIL OpenCL/Suite0.T on none (a.xml:"));
  EXPECT_THAT(text, HasSubstr("  FAIL OpenCL/Suite4.T on none (a.xml:"));
  EXPECT_EQ(occurrences(text, "      PYOPENCL_TEST entry 1 'x': no platform matches\n"), 1u);
  EXPECT_EQ(occurrences(text, "  FAIL OpenCL/Suite"), 5u);
}

TEST(ReportText, ReasonsWithTheirCountsAndPlaces) {
  const std::string text = polydev::report::format_text(grouped_sample(), {"a.xml"});
  EXPECT_THAT(text, HasSubstr("reasons for skips and expected failures:\n"
                              "  3 skip at /src/fp64_test.cpp:12\n      no cl_khr_fp64\n"
                              "  2 xfail at /work/proj/polydev.yaml:3\n"
                              "      expected failure: known bug [/work/proj/polydev.yaml:3]\n"));
}

// A reason shared by the flagged tests (a selector error of every suite) is listed once, above
// them, not once per test.
TEST(ReportText, FlaggedTestsAreListedWithoutRepeatingTheirReasons) {
  const std::string text = polydev::report::format_text(grouped_sample(), {"a.xml"});
  const std::string flagged = text.substr(text.find("\nflagged"));
  EXPECT_EQ(flagged,
            "\nflagged (their reasons are listed above):\n"
            "  OpenCL/Fp64.Adds: skipped on every device\n"
            "  OpenCL/Suite0.T: ran on no device\n  OpenCL/Suite1.T: ran on no device\n"
            "  OpenCL/Suite2.T: ran on no device\n  OpenCL/Suite3.T: ran on no device\n"
            "  OpenCL/Suite4.T: ran on no device\n");
}

// --- the files of folders ---

class ReportInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::path(::testing::TempDir()) /
              ("polydev_report_inputs_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::string touch(const std::string& relative) {
    const auto path = folder_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << "<testsuites/>";
    return path.string();
  }

  std::filesystem::path folder_;
};

// gtest_discover_tests' XML_OUTPUT_DIR writes DIR/<suite with prefix>.<test>/<instance>.xml.
TEST_F(ReportInputs, AFolderGivesItsXmlFilesAtAnyDepthSorted) {
  const std::string b = touch("OpenCL/Saxpy.Runs/opencl_b_0.xml");
  const std::string a = touch("OpenCL/Saxpy.Runs/opencl_a_0.xml");
  const std::string top = touch("ctest.xml");
  touch("notes.txt");
  const std::string inside = touch("odd.xml/inner.xml");  // a folder with a report's name
  const std::string named = "elsewhere/named.xml";
  EXPECT_THAT(polydev::report::report_files({named, folder_.string()}),
              ElementsAre(named, a, b, top, inside));
}

TEST_F(ReportInputs, AFolderWithoutReportsOrWithTooManyIsAnError) {
  touch("notes.txt");
  try {
    polydev::report::report_files({folder_.string()});
    ADD_FAILURE() << "a folder without reports was accepted";
  } catch (const polydev::error& error) {
    EXPECT_THAT(error.what(), HasSubstr("no .xml file in the folder '" + folder_.string() +
                                        "' or below it; expected GoogleTest XML reports"));
  }
  touch("a/1.xml");
  touch("a/2.xml");
  touch("b/3.xml");
  EXPECT_EQ(polydev::report::report_files({folder_.string()}, 3).size(), 3u);
  try {
    polydev::report::report_files({(folder_ / "a").string(), (folder_ / "b").string()}, 2);
    ADD_FAILURE() << "more files than the limit were accepted";
  } catch (const polydev::error& error) {
    EXPECT_THAT(error.what(), HasSubstr("more than 2 .xml files in '" + (folder_ / "b").string() +
                                        "' and the other folders given"));
  }
}

}  // namespace
