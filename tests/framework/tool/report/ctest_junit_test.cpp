// `polydev report` reading CTest's JUnit file (`ctest --output-junit`, as CMake 3.25 writes it):
// each entry's verdict and the messages GoogleTest printed in its output, what CTest does not
// write, and where the entries go in the matrix beside the reports their runs wrote.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "console.hpp"
#include "matrix.hpp"
#include "render.hpp"
#include "report_samples.hpp"
#include "results.hpp"

namespace {

using polydev::report::build_matrix;
using polydev::report::CaseResult;
using polydev::report::Matrix;
using polydev::report::Outcome;
using polydev::report::parse_report_xml;
using polydev::report::Source;
using polydev::report::samples::column_ids;
using polydev::report::samples::device_case;
using polydev::report::samples::failure;
using polydev::report::samples::kPthread0;
using polydev::report::samples::report;
using polydev::report::samples::row_names;
using polydev::report::samples::shown;
using polydev::report::samples::suite;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

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

// CTest's SKIP_REGULAR_EXPRESSION matches anywhere in the output: a failing test that prints
// polydev's marker or a "[  SKIPPED ]" line is an entry CTest counts as skipped. What GoogleTest
// printed as failed is a failure.
TEST(ReportCTest, ASkippedEntryWhoseOutputHoldsFailuresIsAFailure) {
  const std::string forged = "polydev: every test of this run was skipped\n";
  const auto results = parse_report_xml(
      junit(
          entry("S.Part/opencl_x_0", "notrun", kSkipRegex,
                console("S.Part/opencl_x_0", "/src/t.cpp:4: Failure\nbad value\n" + forged,
                        "[  FAILED  ]")) +
          entry("S.Line/opencl_x_0", "notrun", kSkipRegex,
                "[ RUN      ] S.Line/opencl_x_0\n[  SKIPPED ] S.Line/opencl_x_0: forged\n"
                "[  FAILED  ] S.Line/opencl_x_0 (1 ms)\n") +
          entry("S.Summary/opencl_x_0", "notrun", "<skipped message=\"SKIP_RETURN_CODE=77\"/>",
                " 1 FAILED TEST\n") +
          entry("S.Skip/opencl_x_0", "notrun", kSkipRegex,
                console("S.Skip/opencl_x_0", "/src/t.cpp:8: Skipped\nno fp64\n", "[  SKIPPED ]"))),
      "ctest.xml");
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].outcome, Outcome::fail);
  EXPECT_TRUE(results[0].run_failed);
  EXPECT_THAT(results[0].message, testing::StartsWith("/src/t.cpp:4\nbad value"));
  EXPECT_THAT(results[0].message, HasSubstr("CTest counted the entry as skipped, "
                                            "SKIP_REGULAR_EXPRESSION_MATCHED"));
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_THAT(results[1].message, HasSubstr("[  FAILED  ] S.Line/opencl_x_0 (1 ms)"));
  EXPECT_EQ(results[2].outcome, Outcome::fail);
  EXPECT_THAT(results[2].message, HasSubstr("1 FAILED TEST"));
  EXPECT_EQ(results[3].outcome, Outcome::skip);
  EXPECT_FALSE(results[3].run_failed);
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

// CTest's fixture entries are not tests: polydev_resource_spec (the FIXTURES_SETUP entry of an
// older polydev) and an entry labelled polydev_fixture (CMake 4 writes labels) that passed or was
// skipped are no rows. A fixture that failed is why its tests did not run: it stays.
TEST(ReportCTest, FixtureEntriesAreNoRowsUnlessTheyFailed) {
  const std::string test = "OpenCL/Saxpy.Matches/opencl_pocl_cpu_0";
  const auto labelled = [](const std::string& name, const std::string& status,
                           const std::string& labels) {
    return "\t<testcase name=\"" + name + "\" classname=\"" + name + "\" time=\"0\" status=\"" +
           status + "\">\n" + (status == "fail" ? kFailed : "") +
           "\t\t<properties><property name=\"cmake_labels\" value=\"" + labels +
           "\"/></properties>\n\t\t<system-out>set up</system-out>\n\t</testcase>\n";
  };
  const auto results =
      parse_report_xml(junit(entry("polydev_resource_spec", "run", "", "") +
                             labelled("db_setup", "run", "polydev_fixture") +
                             labelled("db_cleanup", "run", "slow;polydev_fixture") +
                             entry(test, "run", "", console(test, "", "[       OK ]")) +
                             labelled("not_a_fixture", "run", "polydev_fixture_x;gpu") +
                             labelled("broken_setup", "fail", "polydev_fixture")),
                       "ctest.xml");
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].suite, "OpenCL/Saxpy");
  EXPECT_EQ(results[1].name, "not_a_fixture");
  EXPECT_EQ(results[2].name, "broken_setup");
  EXPECT_EQ(results[2].outcome, Outcome::fail);
  EXPECT_THAT(row_names(build_matrix(results)),
              ElementsAre("OpenCL/Saxpy.Matches", "not_a_fixture", "broken_setup"));

  // A failing resource spec entry (a selector typo) holds the reason its tests did not run.
  const auto failed = parse_report_xml(
      junit(
          entry("polydev_resource_spec", "fail", kFailed, "polydev: unknown selector 'pthred'\n") +
          entry(test, "notrun", "<skipped message=\"Fixture dependency failed\"/>",
                "Failed test dependencies: polydev_resource_spec")),
      "ctest.xml");
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_EQ(failed[0].name, "polydev_resource_spec");
  EXPECT_THAT(failed[0].message, HasSubstr("unknown selector 'pthred'"));
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
      {"<testcase name=\"t\" status=\"run\"><skipped message=\"x\"/></testcase>\n", 11,
       "a 'run' <testcase> with <skipped>; CTest writes <skipped> only in a 'notrun' or "
       "'disabled' one"},
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

// An entry of a whole binary may print a hundred thousand failures: each distinct message once,
// read in time linear in the output (it was quadratic).
TEST(ReportCTest, AnEntryWithManyFailuresGivesEachMessageOnce) {
  constexpr int kParts = 50000;
  std::string output;
  for (int i = 0; i < kParts; ++i) {
    output += "[ RUN      ] S.T" + std::to_string(i) + "\n/src/t.cpp:" + std::to_string(i) +
              ": Failure\nbad " + std::to_string(i % 2) + "\n[  FAILED  ] S.T" + std::to_string(i) +
              " (0 ms)\n";
  }
  const auto results =
      parse_report_xml(junit(entry("all_tests", "fail", kFailed, output)), "ctest.xml");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::fail);
  EXPECT_EQ(polydev::report::samples::occurrences(results[0].message, "\n(in S.T"),
            static_cast<std::size_t>(kParts));
  EXPECT_THAT(results[0].message, HasSubstr("/src/t.cpp:49999\nbad 1\n(in S.T49999)"));
}

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

// The CTest recipe of an xfail entry whose test failed twice: once as expected (the fixture
// kept that from GoogleTest), once outside (another thread). Both the entry and its report say
// FAIL, and the cell shows the real failure.
TEST(ReportMatrix, AFailureBesideAnExpectedOneFailsTheEntryAndItsReport) {
  const std::string name = std::string("OpenCL/Known.T/") + kPthread0;
  const std::string expected =
      "<property name=\"polydev_expectation\" value=\"xfail\"/>"
      "<property name=\"polydev_expectation_result\" value=\"failed\"/>";
  std::vector<CaseResult> results = parse_report_xml(
      report(suite("OpenCL/Known",
                   device_case("T", kPthread0,
                               polydev::report::samples::skipped(
                                   "/p/polydev.yaml:3&#x0A;expected failure: known bug") +
                                   failure("/src/t.cpp:9&#x0A;the worker thread failed"),
                               "skipped", expected))),
      "xml/" + name + ".xml");
  const auto entries = parse_report_xml(
      junit(entry(name, "fail", kFailed,
                  console(name,
                          "/p/polydev.yaml:3: Skipped\nexpected failure: known bug\n"
                          "/src/t.cpp:9: Failure\nthe worker thread failed\n",
                          "[  FAILED  ]"))),
      "ctest.xml");
  results.insert(results.end(), entries.begin(), entries.end());
  const Matrix matrix = build_matrix(results);
  EXPECT_EQ(shown(matrix, "OpenCL/Known.T", kPthread0), "fail");
  EXPECT_EQ(matrix.count(Outcome::fail), 1u);
  EXPECT_EQ(matrix.count(Outcome::xfail), 0u);
  const auto& cell = matrix.rows[0].cells.begin()->second;
  EXPECT_EQ(polydev::report::readable_message(cell.results[0].message), "the worker thread failed");
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

}  // namespace
