// `polydev report`'s matrix test x device: rows, columns by device key, shards and overlaps,
// placeholders, flags; and the messages grouped by outcome and text.
#include "matrix.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "polydev/placeholders.hpp"
#include "render.hpp"
#include "report_samples.hpp"
#include "results.hpp"

namespace {

using polydev::report::build_matrix;
using polydev::report::CaseResult;
using polydev::report::ColumnKind;
using polydev::report::Matrix;
using polydev::report::Outcome;
using polydev::report::parse_report_xml;
using polydev::report::samples::column_ids;
using polydev::report::samples::device_case;
using polydev::report::samples::failure;
using polydev::report::samples::grouped_sample;
using polydev::report::samples::kPthread0;
using polydev::report::samples::kPthread1;
using polydev::report::samples::report;
using polydev::report::samples::row_names;
using polydev::report::samples::shown;
using polydev::report::samples::skipped;
using polydev::report::samples::suite;
using ::testing::ElementsAre;

constexpr const char* kCuda = "cuda_nvidia_h200_pci_00_07";

const polydev::report::Row& row_of(const Matrix& matrix, const std::string& test) {
  for (const auto& row : matrix.rows) {
    if (row.test == test) return row;
  }
  throw std::runtime_error("no row " + test);
}

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

// Two machines of one kind give their devices the same keys: their cells stay apart, each under
// its machine, instead of merging into one cell with an overlap warning.
TEST(ReportMatrix, TheSameKeyOnTwoMachinesIsTwoColumns) {
  const Matrix matrix = build_matrix(polydev::report::samples::two_machines());
  EXPECT_TRUE(matrix.by_host);
  const std::string a = "ci-a/" + std::string(kPthread0);
  const std::string b = "ci-b/" + std::string(kPthread0);
  EXPECT_THAT(column_ids(matrix), ElementsAre(a, b));
  EXPECT_EQ(matrix.columns[0].host, "ci-a");
  EXPECT_EQ(matrix.columns[0].key, kPthread0);
  EXPECT_EQ(matrix.columns[1].name, "pthread-skylake-avx512-AMD EPYC");
  EXPECT_EQ(shown(matrix, "OpenCL/S.T", a), "fail");
  EXPECT_EQ(shown(matrix, "OpenCL/S.T", b), "pass");
  EXPECT_EQ(shown(matrix, "OpenCL/S.U", b), "fail") << "no host recorded: the machine of its file";
  EXPECT_TRUE(matrix.warnings.empty());
}

TEST(ReportMatrix, AResultThatNamesNoMachineIsOnAnUnknownOne) {
  std::vector<CaseResult> results = polydev::report::samples::two_machines();
  const auto ctest = parse_report_xml(
      "<testsuite name=\"x\"><testcase name=\"my_tests/opencl_pocl_cpu_0\" status=\"run\"/>"
      "</testsuite>",
      "ctest.xml");
  results.insert(results.end(), ctest.begin(), ctest.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(column_ids(matrix),
              ElementsAre("ci-a/" + std::string(kPthread0), "ci-b/" + std::string(kPthread0),
                          "?/opencl_pocl_cpu_0"));
  EXPECT_EQ(matrix.columns[2].host, polydev::report::kUnknownHost);
}

TEST(ReportMatrix, ResultsOfOneMachineKeepTheirColumnsByKey) {
  std::vector<CaseResult> results = parse_report_xml(
      report(suite("OpenCL/S", device_case("T", kPthread0, "", "completed",
                                           polydev::report::samples::host_property("ci-a")))),
      "a.xml");
  const auto again = results;
  results.insert(results.end(), again.begin(), again.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_FALSE(matrix.by_host);
  EXPECT_THAT(column_ids(matrix), ElementsAre(kPthread0));
  EXPECT_EQ(matrix.columns[0].host, "");
  EXPECT_EQ(matrix.warnings.size(), 1u) << "the same machine twice is still an overlap";
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

// A suite over device pairs: a column per set, the direction of a pair kept apart from the other.
TEST(ReportMatrix, ADeviceSetIsAColumnOfItsOwnBesideItsFirstDevice) {
  const std::string forward = std::string(kPthread0) + "_AND_" + kPthread1;
  const std::string backward = std::string(kPthread1) + "_AND_" + kPthread0;
  const auto results = parse_report_xml(
      report(suite("OpenCL/Saxpy", device_case("Matches", kPthread0)) +
             suite("OpenCL/PeerCopy", device_case("Copies", forward) +
                                          device_case("Copies", backward, failure("torn")))),
      "a.xml");
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(row_names(matrix), ElementsAre("OpenCL/Saxpy.Matches", "OpenCL/PeerCopy.Copies"));
  EXPECT_THAT(column_ids(matrix), ElementsAre(kPthread0, forward, backward));
  EXPECT_EQ(shown(matrix, "OpenCL/PeerCopy.Copies", forward), "pass");
  EXPECT_EQ(shown(matrix, "OpenCL/PeerCopy.Copies", backward), "fail");
  EXPECT_EQ(shown(matrix, "OpenCL/PeerCopy.Copies", kPthread0), ".");
}

// The names the docs give (generated into polydev/placeholders.hpp from PolydevPlaceholders.cmake).
TEST(ReportMatrix, EveryPlaceholderNameIsKnown) {
  for (const char* name :
       {"no_opencl_device", "no_cuda_device", "opencl_selector_error", "cuda_selector_error",
        "polydev_require_devices_error", "too_few_opencl_devices", "too_few_cuda_devices",
        "device_sets_elsewhere"}) {
    EXPECT_TRUE(polydev::is_placeholder(name)) << name;
  }
  EXPECT_EQ(polydev::kPlaceholders.size(), 8u);
  EXPECT_FALSE(polydev::is_placeholder(kPthread0));
  EXPECT_FALSE(polydev::is_placeholder("no_device"));
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

// --- messages grouped ---

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

// A capability check that names the device ("opencl_a_0 (pthread-skylake-avx512-AMD EPYC) has
// no cl_khr_fp64") is one reason of three devices, not three reasons.
TEST(ReportGroups, MessagesThatDifferByTheirDeviceAreOneGroup) {
  std::string cases;
  for (const char* key : {"opencl_a_0", "opencl_b_0", "opencl_c_0"}) {
    cases += device_case(
        "Adds", key,
        skipped(std::string(key) + " (pthread-skylake-avx512-AMD EPYC) has no cl_khr_fp64; "
                                   "opencl_a_0x is another word"),
        "skipped");
  }
  cases += device_case("Scans", "opencl_b_0", skipped("opencl_b_0 is slow"), "skipped");
  const Matrix matrix = build_matrix(parse_report_xml(report(suite("OpenCL/Fp64", cases)), "a"));
  const auto groups = polydev::report::group_messages(matrix, {Outcome::skip});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].message,
            "<device key> (<device name>) has no cl_khr_fp64; opencl_a_0x is another word");
  EXPECT_EQ(groups[0].occurrences.size(), 3u);
  EXPECT_EQ(groups[1].message, "opencl_b_0 is slow") << "one device: its own words";
}

// A report is read as it comes: a message of megabytes that repeats a device name of as many is
// grouped in time linear in both (each occurrence found once, overlaps included), where a search
// from every position took their product (hours for these sizes).
TEST(ReportGroups, AMegabyteNameInAMegabyteMessageIsReplacedWholeWordOnly) {
  const std::string name(1 << 20, 'a');
  Matrix matrix;
  for (const char* key : {"opencl_a_0", "opencl_b_0"}) {
    polydev::report::Column column;
    column.kind = ColumnKind::device;
    column.id = column.key = key;
    column.name = name;
    matrix.columns.push_back(column);
  }
  polydev::report::Row row;
  row.test = "OpenCL/Big.Name";
  for (std::size_t column = 0; column < matrix.columns.size(); ++column) {
    CaseResult result;
    result.outcome = Outcome::skip;
    // The name whole, then a run one character longer (no whole word: left as it is).
    result.message = matrix.columns[column].key + " " + name + " lacks fp64; a" + name;
    row.cells[column].outcome = Outcome::skip;
    row.cells[column].results.push_back(result);
  }
  matrix.rows.push_back(row);
  const auto groups = polydev::report::group_messages(matrix, {Outcome::skip});
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].occurrences.size(), 2u);
  EXPECT_TRUE(groups[0].message == "<device key> <device name> lacks fp64; a" + name)
      << groups[0].message.substr(0, 40);
}

TEST(ReportGroups, TheExpectationOfAnAllowedPassIsWhereItWasRecorded) {
  const std::string props =
      "<property name=\"polydev_expectation\" value=\"xfail\"/>"
      "<property name=\"polydev_expectation_result\" value=\"passed\"/>"
      "<property name=\"polydev_expectation_source\" "
      "value=\"/work/proj/polydev.yaml:7\"/>";
  const Matrix matrix = build_matrix(parse_report_xml(
      report(suite("OpenCL/S", device_case("T", kPthread0, "", "completed", props) +
                                   device_case("T", kPthread1, "", "completed", props))),
      "a.xml"));
  const auto groups = polydev::report::group_messages(matrix, {Outcome::xpass});
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].message,
            "passed, but the xfail expectation at /work/proj/polydev.yaml:7 says it fails: if it "
            "is fixed, remove the expectation");
  EXPECT_EQ(groups[0].occurrences.size(), 2u);
  EXPECT_THAT(groups[0].locations, ElementsAre("/work/proj/polydev.yaml:7"));
}

}  // namespace

namespace {

// A testcase of a device combined with values of the user's: "<test>/<values>__<key>".
std::string combined_case(const std::string& test, const std::string& values,
                          const std::string& key, const std::string& body = "") {
  return "<testcase name=\"" + test + "/" + values + "__" + key +
         "\" status=\"run\" result=\"completed\" time=\"0\" classname=\"x\">" + body +
         polydev::report::samples::device_properties(key, "") + "</testcase>\n";
}

TEST(ReportMatrix, ADeviceCombinedWithValuesIsAColumnAndTheValuesPartOfTheRow) {
  const auto results = parse_report_xml(
      report(suite("OpenCL/Scale", combined_case("Runs", "1000_float", kPthread0) +
                                       combined_case("Runs", "1000_float", kPthread1) +
                                       combined_case("Runs", "1_float", kPthread1, failure("no")))),
      "a.xml");
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(row_names(matrix),
              ElementsAre("OpenCL/Scale.Runs/1000_float", "OpenCL/Scale.Runs/1_float"));
  EXPECT_THAT(column_ids(matrix), ElementsAre(kPthread0, kPthread1));
  EXPECT_EQ(shown(matrix, "OpenCL/Scale.Runs/1000_float", kPthread0), "pass");
  EXPECT_EQ(shown(matrix, "OpenCL/Scale.Runs/1_float", kPthread0), ".");
  EXPECT_EQ(shown(matrix, "OpenCL/Scale.Runs/1_float", kPthread1), "fail");
}

TEST(ReportMatrix, ATypedTestOverDevicesIsARowPerType) {
  const auto results =
      parse_report_xml(report(suite("OpenCL/Fill/float", device_case("Writes", kPthread0)) +
                              suite("OpenCL/Fill/double", device_case("Writes", kPthread0))),
                       "a.xml");
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(row_names(matrix),
              ElementsAre("OpenCL/Fill/float.Writes", "OpenCL/Fill/double.Writes"));
  EXPECT_THAT(column_ids(matrix), ElementsAre(kPthread0));
}

TEST(ReportMatrix, APlaceholderCombinedWithValuesIsInTheNoDeviceColumn) {
  const auto results =
      parse_report_xml(report(suite("CUDA/Add",
                                    "<testcase name=\"Runs/7__no_cuda_device\" status=\"run\" "
                                    "result=\"skipped\">" +
                                        skipped("CUDA unavailable") + "</testcase>")),
                       "a.xml");
  const Matrix matrix = build_matrix(results);
  EXPECT_THAT(row_names(matrix), ElementsAre("CUDA/Add.Runs/7"));
  EXPECT_THAT(column_ids(matrix), ElementsAre("no_device"));
  EXPECT_EQ(shown(matrix, "CUDA/Add.Runs/7", "no_device"), "skip");
}

}  // namespace
