// `polydev report`'s reading of GoogleTest XML, its matrix test x device and the three renderings,
// on XML text shaped like what GoogleTest 1.12 and polydev's fixtures write (no files, no driver).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "matrix.hpp"
#include "render.hpp"
#include "results.hpp"

namespace {

using polydev::report::build_matrix;
using polydev::report::CaseResult;
using polydev::report::ColumnKind;
using polydev::report::Matrix;
using polydev::report::Outcome;
using polydev::report::parse_gtest_xml;
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
  const std::vector<CaseResult> results = parse_gtest_xml(xml, "a.xml");
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
  const auto results = parse_gtest_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::skip);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message, "crashed");
}

TEST(ReportParse, EmptyReportHasNoResults) {
  EXPECT_TRUE(parse_gtest_xml(report(""), "a.xml").empty());
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
  const auto results = parse_gtest_xml(xml, "a.xml");
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
      parse_gtest_xml(bad.xml, "results/shard1.xml");
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
      {"<testsuite name=\"ctest\" tests=\"1\">\n<testcase name=\"t\" status=\"fail\"/>\n"
       "</testsuite>\n",
       1,
       "root element <testsuite>; a GoogleTest XML report (--gtest_output=xml) has <testsuites> "
       "(a <testsuite> root is a JUnit file such as CTest's --output-junit"},
  };
  for (const Case& bad : cases) {
    try {
      const auto results = parse_gtest_xml(bad.xml, "r.xml");
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
  EXPECT_EQ(parse_gtest_xml(xml, "a.xml").size(), 1u);
}

TEST(ReportParse, JUnitOutputElementsAreNotResults) {
  const std::string xml = report(
      suite("S",
            "<testcase name=\"a\"><system-out>hello</system-out><system-err>oops</system-err>"
            "</testcase>"
            "<testcase name=\"b\"><system-out>x</system-out><failure message=\"boom\"/>"
            "</testcase>"
            "<system-out>suite output</system-out><system-err/>"));
  const auto results = parse_gtest_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message, "boom");
}

TEST(ReportParse, ErrorsQuoteTheReportWithoutControlCharactersAndCutLongValues) {
  const std::string head = "<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  try {
    parse_gtest_xml(head + "<testcase name=\"a\" status=\"&#27;[2J\xff\"/>\n" + tail, "a.xml");
    ADD_FAILURE() << "accepted";
  } catch (const polydev::report::input_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("status '\\x1b[2J\\xff' of a <testcase>"));
    EXPECT_THAT(error.what(), Not(HasSubstr("\x1b")));
  }
  try {
    parse_gtest_xml(
        head + "<testcase name=\"a\" result=\"" + std::string(100000, 'x') + "\"/>\n" + tail,
        "a.xml");
    ADD_FAILURE() << "accepted";
  } catch (const polydev::report::input_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("... (100000 bytes)' of a <testcase>"));
    EXPECT_LT(std::string(error.what()).size(), 600u);
  }
}

TEST(ReportParse, InputErrorIsAPolydevError) {
  EXPECT_THROW(parse_gtest_xml("<testsuites>", "a.xml"), polydev::error);
}

// --- the matrix ---

TEST(ReportMatrix, DeviceInstancesShareARowAndDevicesAreColumnsByKey) {
  const auto results = parse_gtest_xml(
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
  const Matrix matrix = build_matrix(parse_gtest_xml(xml, "cuda.xml"));
  ASSERT_EQ(matrix.columns.size(), 1u);
  EXPECT_EQ(matrix.columns[0].name, "NVIDIA H200");
  EXPECT_EQ(matrix.columns[0].driver, "compute capability 9.0");
}

TEST(ReportMatrix, ShardsOfOneSuiteMergeIntoOneRow) {
  std::vector<CaseResult> results =
      parse_gtest_xml(report(suite("OpenCL/Saxpy", device_case("Matches", kPthread0))), "0.xml");
  const auto second = parse_gtest_xml(
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
  std::vector<CaseResult> results = parse_gtest_xml(
      report(suite("OpenCL/Saxpy", device_case("Matches", kPthread0, failure("bad")))), "a.xml");
  const auto later =
      parse_gtest_xml(report(suite("OpenCL/Saxpy", device_case("Matches", kPthread0))), "b.xml");
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
  const Matrix matrix = build_matrix(parse_gtest_xml(xml, "a.xml"));
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
  const Matrix matrix = build_matrix(parse_gtest_xml(xml, "a.xml"));
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
  const Matrix matrix = build_matrix(parse_gtest_xml(xml, "a.xml"));
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
  std::vector<CaseResult> results = parse_gtest_xml(
      report(suite("CUDA/VectorAdd",
                   "<testcase name=\"Adds/no_cuda_device\" status=\"run\" result=\"skipped\"/>")),
      "cpu.xml");
  const auto gpu =
      parse_gtest_xml(report(suite("CUDA/VectorAdd", device_case("Adds", kCuda))), "gpu.xml");
  results.insert(results.end(), gpu.begin(), gpu.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(column_ids(matrix), ElementsAre(kCuda, "no_device"));
  EXPECT_FALSE(matrix.rows.at(0).ran_on_no_device);
  EXPECT_FALSE(matrix.rows.at(0).skipped_everywhere);
}

TEST(ReportMatrix, HostTestsOfSeveralShardsAreNoOverlap) {
  const std::string xml =
      report(suite("KeyTest", "<testcase name=\"IsStable\" status=\"run\" result=\"completed\"/>"));
  std::vector<CaseResult> results = parse_gtest_xml(xml, "shard0.xml");
  const auto second = parse_gtest_xml(xml, "shard1.xml");
  results.insert(results.end(), second.begin(), second.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_TRUE(matrix.warnings.empty());
  EXPECT_EQ(matrix.rows.at(0).cells.at(0).results.size(), 2u);
}

TEST(ReportMatrix, PlaceholdersOfSeveralShardsAreNoOverlap) {
  const std::string xml =
      report(suite("CUDA/VectorAdd",
                   "<testcase name=\"Adds/no_cuda_device\" status=\"run\" result=\"skipped\"/>"));
  std::vector<CaseResult> results = parse_gtest_xml(xml, "shard0.xml");
  const auto second = parse_gtest_xml(xml, "shard1.xml");
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
  const Matrix matrix = build_matrix(parse_gtest_xml(xml, "a.xml"));
  EXPECT_TRUE(row_of(matrix, "OpenCL/Fp64.Adds").skipped_everywhere);
  EXPECT_FALSE(row_of(matrix, "OpenCL/Fp64.Adds").ran_on_no_device);
  EXPECT_FALSE(row_of(matrix, "OpenCL/Fp64.Mixed").skipped_everywhere);
  EXPECT_EQ(matrix.skipped_everywhere(), 1u);
}

TEST(ReportMatrix, AHostTestThatAlwaysSkipsIsFlaggedToo) {
  const std::string xml = report(suite("Disabled",
                                       "<testcase name=\"DISABLED_Later\" status=\"notrun\" "
                                       "result=\"suppressed\"/>"));
  const Matrix matrix = build_matrix(parse_gtest_xml(xml, "a.xml"));
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
  return build_matrix(parse_gtest_xml(
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
  EXPECT_THAT(text, HasSubstr("flagged:\n  OpenCL/Fp64.Adds: skipped on every device\n"
                              "      no cl_khr_fp64\n"
                              "  CUDA/VectorAdd.Adds: ran on no device\n"
                              "      CUDA unavailable: no NVIDIA driver is loaded\n"));
}

TEST(ReportText, SeveralResultsInACellAreMarked) {
  std::vector<CaseResult> results =
      parse_gtest_xml(report(suite("OpenCL/S", device_case("T", kPthread0))), "a.xml");
  results.push_back(results.front());
  const std::string text = polydev::report::format_text(build_matrix(results), {"a.xml", "b.xml"});
  EXPECT_THAT(text, HasSubstr("OpenCL/S.T  pass+\n"));
  EXPECT_THAT(text, HasSubstr("2 results from 2 files"));
}

TEST(ReportText, AFlaggedTestShowsTwoReasonsAndCountsTheRest) {
  std::string cases;
  for (const char* key : {"opencl_a_0", "opencl_b_0", "opencl_c_0", "opencl_d_0"}) {
    cases += device_case(
        "Adds", key, skipped(std::string("no fp64 on ") + key + "&#x0A;second line"), "skipped");
  }
  const std::string text = polydev::report::format_text(
      build_matrix(parse_gtest_xml(report(suite("OpenCL/Fp64", cases)), "a.xml")), {"a.xml"});
  EXPECT_THAT(text, HasSubstr("  OpenCL/Fp64.Adds: skipped on every device\n"
                              "      no fp64 on opencl_a_0\n      second line\n"
                              "      no fp64 on opencl_b_0\n      second line\n"
                              "      (2 more; all of them in --json and --html)\n"));
  EXPECT_THAT(text, Not(HasSubstr("opencl_c_0\n")));
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
  std::vector<CaseResult> results = parse_gtest_xml(
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
      polydev::report::format_html(build_matrix(parse_gtest_xml(xml, "a<b>.xml")), {"a<b>.xml"});
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
      build_matrix(parse_gtest_xml(hostile_report(), "a\x1b.xml")), {"a\x1b.xml"});
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
      build_matrix(parse_gtest_xml(hostile_report(), "a\xff.xml")), {"a\xff.xml"});
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
      build_matrix(parse_gtest_xml(hostile_report(), "a.xml")), {"a.xml"});
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

}  // namespace
