// `polydev report`'s text form: the matrix with its legend, summary, messages once with their
// counts and places, flagged tests; foreign text shown without control characters.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "matrix.hpp"
#include "render.hpp"
#include "report_samples.hpp"
#include "results.hpp"

namespace {

using polydev::report::build_matrix;
using polydev::report::CaseResult;
using polydev::report::parse_report_xml;
using polydev::report::samples::device_case;
using polydev::report::samples::grouped_sample;
using polydev::report::samples::hostile_report;
using polydev::report::samples::kPthread0;
using polydev::report::samples::kPthread1;
using polydev::report::samples::occurrences;
using polydev::report::samples::report;
using polydev::report::samples::sample;
using polydev::report::samples::suite;
using ::testing::HasSubstr;

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

TEST(ReportText, ColumnsOfSeveralMachinesAreNamedByMachineAndKey) {
  const std::string text = polydev::report::format_text(
      build_matrix(polydev::report::samples::two_machines()), {"a.xml", "b.xml"});
  EXPECT_THAT(text, HasSubstr("  [1]   ci-a/" + std::string(kPthread0) +
                              "  pthread-skylake-avx512-AMD EPYC (Portable Computing Language, "
                              "3.1+debian)\n"));
  EXPECT_THAT(text, HasSubstr("  [2]   ci-b/" + std::string(kPthread0) + "  pthread"));
  EXPECT_THAT(text, HasSubstr("OpenCL/S.T  FAIL    pass\n"));
  EXPECT_THAT(text, HasSubstr("  FAIL OpenCL/S.T on [1] ci-a/" + std::string(kPthread0) +
                              " (a.xml:4)\n      bad on a\n"));
}

TEST(ReportText, AReasonThatNamesItsDeviceIsListedOnce) {
  std::string cases;
  for (const char* key : {"opencl_a_0", "opencl_b_0"}) {
    cases += device_case("Adds", key, "<skipped message=\"" + std::string(key) + " has no fp64\"/>",
                         "skipped");
  }
  const std::string text = polydev::report::format_text(
      build_matrix(parse_report_xml(report(suite("OpenCL/Fp64", cases)), "a.xml")), {"a.xml"});
  EXPECT_THAT(text, HasSubstr("reasons for skips and expected failures:\n"
                              "  2 skip\n      <device key> has no fp64\n"));
}

TEST(ReportText, AnAllowedUnexpectedPassNamesItsExpectation) {
  const std::string props =
      "<property name=\"polydev_expectation\" value=\"xfail\"/>"
      "<property name=\"polydev_expectation_result\" value=\"passed\"/>"
      "<property name=\"polydev_expectation_source\" "
      "value=\"/work/proj/polydev.yaml:7\"/>";
  const std::string text = polydev::report::format_text(
      build_matrix(parse_report_xml(
          report(suite("OpenCL/S", device_case("T", kPthread0, "", "completed", props))), "a.xml")),
      {"a.xml"});
  EXPECT_THAT(text, HasSubstr("  XPASS OpenCL/S.T on [1] " + std::string(kPthread0) +
                              " (a.xml:4)\n      passed, but the xfail expectation at "
                              "/work/proj/polydev.yaml:7 says it fails"));
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

}  // namespace

// Large inputs, read and rendered in time linear in their size: each of these was quadratic
// (tens of seconds at 100000). They assert the result, not the time.
namespace large {

constexpr int kCount = 50000;

TEST(ReportLarge, AMessageWithManyLocationsListsEachOnce) {
  std::string message;
  for (int i = 0; i < kCount; ++i) message += "/src/t.cpp:" + std::to_string(i) + "\nx\n";
  message += "/src/t.cpp:0\nagain\n";
  const std::vector<std::string> locations = polydev::report::message_locations(message);
  ASSERT_EQ(locations.size(), static_cast<std::size_t>(kCount));
  EXPECT_EQ(locations.front(), "/src/t.cpp:0");
  EXPECT_EQ(locations.back(), "/src/t.cpp:" + std::to_string(kCount - 1));
}

TEST(ReportLarge, ManyResultsOfOneMessageAtManyPlacesAreOneGroup) {
  std::string cases;
  for (int i = 0; i < kCount; ++i) {
    cases += "<testcase name=\"T" + std::to_string(i) +
             "\"><failure message=\"/src/t.cpp:" + std::to_string(i) +
             "&#x0A;same\"/></testcase>\n";
  }
  const auto matrix = build_matrix(parse_report_xml(report(suite("S", cases)), "a.xml"));
  const auto groups = polydev::report::group_messages(matrix, {polydev::report::Outcome::fail});
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].message, "same");
  EXPECT_EQ(groups[0].occurrences.size(), static_cast<std::size_t>(kCount));
  EXPECT_EQ(groups[0].locations.size(), static_cast<std::size_t>(kCount));
  EXPECT_THAT(polydev::report::format_text(matrix, {"a.xml"}), HasSubstr("50000 FAIL, 0 skip"));
}

TEST(ReportLarge, ManyDevicesEachWithAFailureAreLabelledByNumber) {
  constexpr int kDevices = 20000;
  std::string cases;
  for (int i = 0; i < kDevices; ++i) {
    cases += device_case("T", "opencl_d" + std::to_string(100000 + i) + "_0",
                         "<failure message=\"bad\"/>");
  }
  const std::string text = polydev::report::format_text(
      build_matrix(parse_report_xml(report(suite("S", cases)), "a.xml")), {"a.xml"});
  EXPECT_THAT(text, HasSubstr("FAIL S.T on [1] opencl_d100000_0 "));
  EXPECT_THAT(text, HasSubstr("FAIL S.T on [20000] opencl_d119999_0 "));
}

}  // namespace large
