// `polydev report`, run as a process: on reports that a real device run of the policy probe writes
// (two device shards merged; CTest's JUnit file and the per-entry XML folder of a real ctest run),
// and on files written here for each exit status and each bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/probe.hpp"
#include "support/run_process.hpp"

namespace {

using polydev::test_support::ProcessResult;
using polydev::test_support::run_process;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

ProcessResult report(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {POLYDEV_TOOL, "report"});
  return run_process(arguments);
}

// A file under the test's temporary directory, unique per test.
std::string temp_path(const std::string& name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "polydev_report_" + test->name() + "_" + name;
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

std::string read(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string one_test(const std::string& body, const std::string& properties = "") {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"OpenCL/S\">\n"
         "<testcase name=\"T/opencl_x_0\" status=\"run\" result=\"completed\">" +
         body +
         "<properties><property name=\"polydev_device_key\" value=\"opencl_x_0\"/>"
         "<property name=\"polydev_device_name\" value=\"X\"/>" +
         properties + "</properties></testcase>\n</testsuite>\n</testsuites>\n";
}

const std::string kXfail = "<property name=\"polydev_expectation\" value=\"xfail\"/>";

TEST(ReportCommand, HelpIsNotAnError) {
  const ProcessResult result = report({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.output,
              StartsWith("usage: polydev report [--html OUT.html [--source-url URL"));
}

TEST(ReportCommand, BadUsageExitsWithTwoAndSaysWhy) {
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const std::vector<Case> cases{
      {{}, "no report given; expected GoogleTest XML files, CTest's JUnit file or folders of them"},
      {{"--html"}, "--html needs a file name"},
      {{"--html=", "a.xml"}, "--html needs a file name"},
      {{"--verbose", "a.xml"}, "unknown option '--verbose'"},
      {{"--source-url", "https://example.org/", "a.xml"},
       "--source-url links the files that the --html page names; expected --html OUT.html with it"},
      {{"--html", "r.html", "--source-root", ".", "a.xml"},
       "--source-root needs --source-url, the URL that shows that folder"},
      {{"--html", "r.html", "--source-url", "javascript:alert(1)", "a.xml"},
       "--source-url 'javascript:alert(1)' is not a URL of files; expected one that starts with "
       "https://, http:// or file://"},
  };
  for (const Case& bad : cases) {
    const ProcessResult result = report(bad.arguments);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_THAT(result.output, HasSubstr("polydev report: " + bad.message));
    EXPECT_THAT(result.output, HasSubstr("usage: polydev report"));
  }
}

TEST(ReportCommand, UnreadableFileExitsWithTwo) {
  const std::string missing = temp_path("missing.xml");
  const ProcessResult result = report({missing});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("polydev report: cannot read '" + missing + "'"));
}

// gtest_discover_tests' XML_OUTPUT_DIR writes a report per entry, two folders deep.
TEST(ReportCommand, AFolderIsReadToAnyDepth) {
  const std::string folder = temp_path("xml");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder + "/OpenCL/S.T");
  std::ofstream(folder + "/OpenCL/S.T/opencl_x_0.xml") << one_test("");
  std::ofstream(folder + "/OpenCL/S.T/opencl_y_0.xml") << one_test("<failure message=\"bad\"/>");
  const ProcessResult result = report({folder});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("polydev report: 2 results from 2 files"));
  EXPECT_THAT(result.output, HasSubstr("(" + folder + "/OpenCL/S.T/opencl_y_0.xml:4)"));
  std::filesystem::remove_all(folder);
}

TEST(ReportCommand, AFolderWithoutReportsIsNoReport) {
  const std::string folder = temp_path("empty");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const ProcessResult result = report({folder});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("polydev report: no .xml file in the folder '" + folder +
                                       "' or below it; expected GoogleTest XML reports"));
  std::filesystem::remove_all(folder);
}

TEST(ReportCommand, AMissingFileSaysSo) {
  const std::string missing = temp_path("missing.xml");
  const ProcessResult result = report({missing});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output,
              HasSubstr("polydev report: cannot read '" + missing + "': no such file"));
}

// Special files are named for what they are instead of read: a FIFO would block forever, a
// device such as /dev/zero would never end.
TEST(ReportCommand, OnlyRegularFilesAreRead) {
  const std::string fifo = temp_path("fifo.xml");
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const ProcessResult from_fifo = report({fifo});
  EXPECT_EQ(from_fifo.exit_code, 2) << from_fifo.output;
  EXPECT_THAT(from_fifo.output,
              HasSubstr("polydev report: cannot read '" + fifo + "': a FIFO, not a regular file"));
  ::unlink(fifo.c_str());

  const ProcessResult from_device = report({"/dev/zero"});
  EXPECT_EQ(from_device.exit_code, 2) << from_device.output;
  EXPECT_THAT(from_device.output, HasSubstr("polydev report: cannot read '/dev/zero': a character "
                                            "device, not a regular file"));
}

TEST(ReportCommand, AFileAboveTheSizeLimitIsNotRead) {
  const std::string huge = temp_path("huge.xml");
  {
    std::ofstream file(huge, std::ios::trunc);
    file << "<testsuites>";
  }
  ASSERT_EQ(::truncate(huge.c_str(), 64 * 1024 * 1024 + 1), 0);  // sparse: no disk used
  const ProcessResult result = report({huge});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("polydev report: cannot read '" + huge +
                                       "': larger than the limit of 67108864 bytes"));
  ::unlink(huge.c_str());
}

// A second report after the first one's root, or an element the reader does not know inside a
// test case, may hold failures: the report is refused (status 2), never read as a pass.
TEST(ReportCommand, ContentOutsideTheRootOrUnknownInATestCaseIsNoReport) {
  // Two reports concatenated, the second without its XML declaration (which only the start of a
  // document may have, so tinyxml2 refuses one there itself).
  const std::string second = one_test("<failure message=\"bad\"/>");
  const std::string concatenated =
      write("two.xml", one_test("") + second.substr(second.find('\n') + 1));
  const ProcessResult two = report({concatenated});
  EXPECT_EQ(two.exit_code, 2) << two.output;
  EXPECT_THAT(two.output,
              HasSubstr("polydev report: " + concatenated +
                        ":7: <testsuites> after the root element <testsuites> (line 2)"));
  const std::string capital = write("capital.xml", one_test("<Failure message=\"bad\"/>"));
  const ProcessResult unknown = report({capital});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_THAT(unknown.output,
              HasSubstr("polydev report: " + capital + ":4: unexpected <Failure> in <testcase>"));
  EXPECT_THAT(unknown.output, Not(HasSubstr("0 FAIL")));
}

// Whether `text` is well-formed UTF-8, by the definition of RFC 3629 (code points decoded, then
// overlong forms, surrogates and values above U+10FFFF refused).
bool is_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = byte < 0x80       ? 1
                               : byte >> 5 == 6  ? 2
                               : byte >> 4 == 14 ? 3
                               : byte >> 3 == 30 ? 4
                                                 : 0;
    if (length == 0 || i + length > text.size()) return false;
    unsigned long code = length == 1 ? byte : byte & (0x7fu >> length);
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if (next >> 6 != 2) return false;
      code = code << 6 | (next & 0x3fu);
    }
    const unsigned long smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return false;
    }
    i += length;
  }
  return true;
}

TEST(ReportCommand, JsonIsValidUtf8WhateverBytesTheReportHolds) {
  const std::string name = "T\x1b[31m\xff\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82";
  const std::string xml = "<testsuites>\n<testsuite name=\"S\">\n<testcase name=\"" + name +
                          "\"><failure message=\"&#27;]0;x&#7; \xfe\"/></testcase>\n"
                          "</testsuite>\n</testsuites>\n";
  ASSERT_FALSE(is_utf8(xml));
  const std::string path = write("hostile.xml", xml);
  const ProcessResult json = report({"--json", path});
  EXPECT_EQ(json.exit_code, 1) << json.output;
  EXPECT_TRUE(is_utf8(json.output)) << json.output;
  EXPECT_THAT(json.output, HasSubstr("\"name\": \"S.T\\u001b[31m\xef\xbf\xbd"));
  EXPECT_THAT(json.output, HasSubstr("\"message\": \"\\u001b]0;x\\u0007 \xef\xbf\xbd\""));

  const ProcessResult text = report({path});
  EXPECT_EQ(text.exit_code, 1) << text.output;
  EXPECT_EQ(text.output.find('\x1b'), std::string::npos) << "a raw ESC reached the terminal";
  EXPECT_EQ(text.output.find('\x07'), std::string::npos);
  EXPECT_TRUE(is_utf8(text.output)) << text.output;
  EXPECT_THAT(text.output, HasSubstr("S.T\\x1b[31m\\xff\\xc0\\xaf"));
}

TEST(ReportCommand, MalformedXmlNamesFileAndLine) {
  const std::string path = write(
      "broken.xml", "<testsuites>\n<testsuite name=\"S\">\n<testcase name=\"a\">\n</testsuites>\n");
  const ProcessResult result = report({write("good.xml", one_test("")), path});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("polydev report: " + path + ":3: malformed XML"));
  EXPECT_THAT(result.output, Not(HasSubstr("polydev report: 1 results"))) << "no partial report";
}

TEST(ReportCommand, AFileThatIsNotAGoogleTestReportExitsWithTwo) {
  const std::string path = write("ctest.xml", "<?xml version=\"1.0\"?>\n<Site>\n</Site>\n");
  const ProcessResult result = report({path});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr(path + ":2: root element <Site>; a GoogleTest XML report "
                                              "(--gtest_output=xml) has <testsuites>"));
}

TEST(ReportCommand, ExitStatusSaysWhetherAnythingFailed) {
  EXPECT_EQ(report({write("pass.xml", one_test(""))}).exit_code, 0);
  const ProcessResult failed = report({write("fail.xml", one_test("<failure message=\"bad\"/>"))});
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_THAT(failed.output, HasSubstr("  FAIL OpenCL/S.T on [1] opencl_x_0"));
  EXPECT_EQ(report({write("skip.xml", one_test("<skipped message=\"no\"/>"))}).exit_code, 0);
  EXPECT_EQ(report({write("xfail.xml",
                          one_test("<skipped message=\"expected failure: known\"/>", kXfail))})
                .exit_code,
            0);
}

TEST(ReportCommand, UnexpectedPassFailsOnlyInStrictMode) {
  const std::string path = write("xpass.xml", one_test("", kXfail));
  const ProcessResult lenient = report({path});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.output;
  EXPECT_THAT(lenient.output, HasSubstr("XPASS OpenCL/S.T"));
  EXPECT_EQ(report({"--strict", path}).exit_code, 1);
}

// polydev's fixture fails an unexpected pass of a strict xfail entry and records that the body
// passed: the report shows XPASS, and the run's failure stays a failure without --strict.
TEST(ReportCommand, AnUnexpectedPassThatFailedTheRunFailsTheReport) {
  const std::string path = write(
      "strict.xml",
      one_test("<failure message=\"unexpected pass of an xfail entry: remove polydev.yaml:3\"/>",
               kXfail + "<property name=\"polydev_expectation_result\" value=\"passed\"/>"));
  const ProcessResult result = report({path});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("XPASS OpenCL/S.T"));
  EXPECT_THAT(result.output, HasSubstr("unexpected pass of an xfail entry: remove polydev.yaml:3"));
}

// An xfail entry's test failed as expected, and once more outside the part the fixture
// intercepts: the report fails, and shows that failure, not the expectation's reason.
TEST(ReportCommand, AFailureBesideAnExpectedOneFailsTheReport) {
  const std::string path =
      write("xfail_and_fail.xml",
            one_test("<skipped message=\"expected failure: known bug\"/>"
                     "<failure message=\"t.cpp:9&#x0A;the worker thread failed\"/>",
                     kXfail + "<property name=\"polydev_expectation_result\" value=\"failed\"/>"));
  const ProcessResult result = report({path});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("1 FAIL"));
  EXPECT_THAT(result.output, HasSubstr("the worker thread failed"));
  EXPECT_THAT(result.output, Not(HasSubstr("known bug")));
}

// SetUpTestSuite() failed: GoogleTest's XML shows the suite's tests skipped, polydev's listener
// records the failure on the suite.
TEST(ReportCommand, ASuiteFailureFailsTheReport) {
  const std::string path = write(
      "suite_failure.xml",
      "<testsuites>\n<testsuite name=\"S\" polydev_suite_failure=\"s.cpp:5&#x0A;no context\">\n"
      "<testcase name=\"T\" status=\"run\" result=\"skipped\"><skipped message=\"\"/>"
      "</testcase>\n</testsuite>\n</testsuites>\n");
  const ProcessResult result = report({path});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("no context"));
}

TEST(ReportCommand, NoResultsAtAllIsAFailure) {
  const ProcessResult result = report({write("empty.xml", "<testsuites tests=\"0\"/>")});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("no test results in the given files; nothing was tested"));
}

TEST(ReportCommand, WritesTheHtmlPageAndJson) {
  const std::string page = temp_path("page.html");
  const ProcessResult result =
      report({"--json", "--html", page, write("fail.xml", one_test("<failure message=\"b<d\"/>"))});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, StartsWith("{\"files\": ["));
  EXPECT_THAT(result.output, HasSubstr("\"outcome\": \"fail\""));
  const std::string html = read(page);
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"cell fail\""));
  EXPECT_THAT(html, HasSubstr("b&lt;d"));
}

// A polydev.yaml entry's place on the page: a link relative to the page by default, below the
// source URL with its line when one is given.
TEST(ReportCommand, ThePageLinksThePlacesOfMessages) {
  const std::string folder = temp_path("links");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder + "/pages");
  const std::string yaml = folder + "/polydev.yaml";
  const std::string xml = write(
      "linked.xml", one_test("<skipped message=\"" + yaml + ":3&#x0A;known problem: slow\"/>"));
  const std::string page = folder + "/pages/report.html";
  ProcessResult result = report({"--html", page, xml});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(read(page), HasSubstr("<a href=\"../polydev.yaml\"><code>" + yaml + ":3</code></a>"));
  result = report({"--html", page, "--source-url", "https://example.org/r/blob/abc",
                   "--source-root", folder, xml});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(read(page), HasSubstr("<a href=\"https://example.org/r/blob/abc/polydev.yaml#L3\">"));
  std::filesystem::remove_all(folder);
}

TEST(ReportCommand, UnwritableHtmlExitsWithTwo) {
  const std::string page = temp_path("no/such/dir/page.html");
  const ProcessResult result = report({"--html=" + page, write("pass.xml", one_test(""))});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("polydev report: cannot write '" + page + "'"));
}

// The page never replaces a report it is made of: the same path, another name of the same file
// (a symbolic link), or a report of a folder given.
TEST(ReportCommand, AnOutputThatIsAnInputIsRefused) {
  const std::string folder = temp_path("inputs");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder + "/dir");
  const std::string xml = folder + "/r.xml";
  std::ofstream(xml) << one_test("");
  std::ofstream(folder + "/dir/a.xml") << one_test("");
  std::filesystem::create_symlink(xml, folder + "/link.html");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--html", xml, xml}, "is the report '" + xml + "' given to read"},
      {{"--html", folder + "/link.html", xml}, "is the report '" + xml + "' given to read"},
      {{"--html", folder + "/./r.xml", folder + "/link.html/../r.xml", xml}, "given to read"},
      {{"--html", folder + "/dir/a.xml", folder + "/dir"}, "given to read"},
      {{"--html", folder + "/dir/new.xml", folder + "/dir"},
       "lies in the folder '" + folder + "/dir' given to read"},
  };
  for (const auto& [arguments, message] : cases) {
    const ProcessResult result = report(arguments);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_THAT(result.output, HasSubstr(message));
    EXPECT_THAT(result.output, Not(HasSubstr("FAIL"))) << "refused before anything is read";
  }
  EXPECT_EQ(read(xml), one_test(""));
  EXPECT_EQ(read(folder + "/dir/a.xml"), one_test(""));
  EXPECT_FALSE(std::filesystem::exists(folder + "/dir/new.xml"));
  // A page beside the reports of a folder is no report: it is written.
  EXPECT_EQ(report({"--html", folder + "/dir/page.html", folder + "/dir"}).exit_code, 0);
  std::filesystem::remove_all(folder);
}

// A FIFO would block the writer until someone reads it; a folder or a device is no page.
TEST(ReportCommand, AnOutputThatIsNoRegularFileIsRefusedWithoutWaiting) {
  const std::string fifo = temp_path("page.fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string xml = write("pass.xml", one_test(""));
  ProcessResult result = report({"--html", fifo, xml});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("--html '" + fifo + "' is a FIFO; expected a regular file"));
  result = report({"--html", "/dev/null", xml});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("is a device"));
  const std::string dangling = temp_path("dangling.html");
  std::filesystem::remove(dangling);
  std::filesystem::create_symlink(temp_path("nowhere"), dangling);
  result = report({"--html", dangling, xml});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("is a symbolic link to nothing"));
  std::filesystem::remove(fifo);
  std::filesystem::remove(dangling);
}

// The page is written to a temporary file that replaces it only when whole: a write that fails
// (here a file size limit) leaves the previous page, and no partial file.
TEST(ReportCommand, AFailedWriteLeavesThePreviousPage) {
  const std::string folder = temp_path("pages");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string page = folder + "/page.html";
  std::ofstream(page) << "previous";
  const std::string xml = write("pass.xml", one_test(""));
  // An ignored SIGXFSZ stays ignored across exec: the write fails with EFBIG.
  const ProcessResult result = run_process(
      {"/bin/sh", "-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" report --html \"$1\" \"$2\"",
       POLYDEV_TOOL, page, xml});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("cannot write '" + page + "'"));
  EXPECT_EQ(read(page), "previous");
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    left.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(left, std::vector<std::string>{"page.html"});
  // Written whole, it replaces the previous page, with the mode that one had.
  ::chmod(page.c_str(), 0640);
  EXPECT_EQ(report({"--html", page, xml}).exit_code, 0);
  EXPECT_THAT(read(page), StartsWith("<!DOCTYPE html>"));
  struct stat written {};
  ASSERT_EQ(::stat(page.c_str(), &written), 0);
  EXPECT_EQ(written.st_mode & 0777, 0640u);
  std::filesystem::remove_all(folder);
}

TEST(ReportCommand, OverlappingReportsWarnAndShowTheWorst) {
  const std::string failed = write("fail.xml", one_test("<failure message=\"bad\"/>"));
  const std::string passed = write("pass.xml", one_test(""));
  const ProcessResult result = report({failed, passed});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("polydev report: warning: OpenCL/S.T on opencl_x_0: 2 "
                                       "results (" +
                                       failed + ":4, " + passed + ":4); showing the worst, fail"));
  EXPECT_THAT(result.output, HasSubstr("FAIL+"));
}

// Two machines of one kind give their devices the same keys: with the machine recorded, their
// results are two cells, not an overlap.
TEST(ReportCommand, ReportsOfTwoMachinesKeepTheirDevicesApart) {
  const std::string a = write(
      "a.xml",
      one_test("<failure message=\"bad\"/>", "<property name=\"polydev_host\" value=\"ci-a\"/>"));
  const std::string b =
      write("b.xml", one_test("", "<property name=\"polydev_host\" value=\"ci-b\"/>"));
  const ProcessResult result = report({a, b});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, Not(HasSubstr("warning")));
  EXPECT_THAT(result.output, HasSubstr("  [1]   ci-a/opencl_x_0  X\n  [2]   ci-b/opencl_x_0  X\n"));
  EXPECT_THAT(result.output, HasSubstr("OpenCL/S.T  FAIL    pass\n"));
}

// The device keys that a report's test cases recorded (read with a regex, not with the code
// under test).
std::set<std::string> recorded_keys(const std::string& xml) {
  static const std::regex key("name=\"polydev_device_key\" value=\"([a-z0-9_]+)\"");
  std::set<std::string> keys;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), key); it != std::sregex_iterator();
       ++it) {
    keys.insert((*it)[1]);
  }
  return keys;
}

TEST(ReportCommand, MergesTheDeviceShardsOfARealRun) {
  std::vector<std::string> files;
  std::set<std::string> keys;
  for (const char* index : {"0", "1"}) {
    files.push_back(temp_path(std::string("shard") + index + ".xml"));
    const ProcessResult run = run_process({POLYDEV_PROBE, "--gtest_output=xml:" + files.back()},
                                          {{"POLYDEV_SHARD_BY", "device"},
                                           {"GTEST_TOTAL_SHARDS", "2"},
                                           {"GTEST_SHARD_INDEX", index}});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto shard_keys = recorded_keys(read(files.back()));
    keys.insert(shard_keys.begin(), shard_keys.end());
  }
  const ProcessResult result = report(files);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("from 2 files"));
#if defined(POLYDEV_WITH_OPENCL)
  EXPECT_THAT(result.output, HasSubstr("OpenCL/OpenCLProbe.FillsAndReadsABuffer"));
#endif
  EXPECT_THAT(result.output, HasSubstr("CUDA/CudaProbe.DeviceIsDescribed"));
  EXPECT_THAT(result.output, HasSubstr(" 0 FAIL, "));
  EXPECT_THAT(result.output, Not(HasSubstr("failures and unexpected passes")));
  EXPECT_THAT(result.output, Not(HasSubstr("warning"))) << "shards do not overlap";
  for (const std::string& key : keys) {
    EXPECT_THAT(result.output, HasSubstr("  " + key + "  ")) << "a column for every device";
  }
  // Each test has one row, whichever shard ran it on which device.
  const auto rows = [&](const std::string& test) {
    std::size_t count = 0;
    for (std::size_t at = result.output.find("\n" + test + " "); at != std::string::npos;
         at = result.output.find("\n" + test + " ", at + 1)) {
      ++count;
    }
    return count;
  };
#if defined(POLYDEV_WITH_OPENCL)
  EXPECT_EQ(rows("OpenCL/OpenCLProbe.FillsAndReadsABuffer"), 1u) << result.output;
#endif
  EXPECT_EQ(rows("CUDA/CudaProbe.DeviceIsDescribed"), 1u) << result.output;
}

TEST(ReportCommand, ASelectorErrorOfARealRunFailsTheReport) {
  const std::string xml = temp_path("selector.xml");
  const ProcessResult run =
      run_process({POLYDEV_PROBE, "--gtest_output=xml:" + xml},
                  {{"PYOPENCL_TEST", "no_such_platform_anywhere"}, {"CUDA_DEVICE", "99"}});
  ASSERT_NE(run.exit_code, 0) << run.output;
  const ProcessResult result = report({xml});
  EXPECT_EQ(result.exit_code, 1) << result.output;
#if defined(POLYDEV_WITH_OPENCL)
  EXPECT_THAT(result.output, HasSubstr("FAIL OpenCL/OpenCLProbe.FillsAndReadsABuffer on none"));
  EXPECT_THAT(result.output, HasSubstr("'no_such_platform_anywhere'"));
#endif
  EXPECT_THAT(result.output, HasSubstr("FAIL CUDA/CudaProbe.DeviceIsDescribed on none"));
  EXPECT_THAT(result.output, HasSubstr("CUDA_DEVICE"));
  EXPECT_THAT(result.output, HasSubstr("<- ran on no device"));
}

// The environment without the person's device selection, which would leave instances out.
polydev::test_support::EnvironmentChanges unselected() {
  polydev::test_support::EnvironmentChanges changes;
  for (const std::string& variable : polydev::test_support::device_setting_variables()) {
    changes.emplace(variable, std::nullopt);
  }
  return changes;
}

// The instances of the policy probe, as `--gtest_list_tests` names them ("Suite.Test/instance").
std::vector<std::string> probe_instances() {
  const ProcessResult listed = run_process({POLYDEV_PROBE, "--gtest_list_tests"}, unselected());
  std::vector<std::string> instances;
  std::istringstream lines(listed.output);
  std::string suite;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] != ' ' && line.back() == '.') {
      suite = line;
    } else if (line.rfind("  ", 0) == 0 && !suite.empty()) {
      instances.push_back(suite + line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return instances;
}

// The ctest of the CMake that configured this build; the one on PATH only where the build did not
// say (another CMake's ctest may write another JUnit dialect).
#if defined(POLYDEV_CTEST)
constexpr const char* kCTest = POLYDEV_CTEST;
#else
constexpr const char* kCTest = "ctest";
#endif

// A real ctest run of the policy probe's instances, one entry each as gtest_discover_tests makes
// them (SKIP_REGULAR_EXPRESSION, an XML report per entry as its XML_OUTPUT_DIR writes it), plus
// `extra` entries. Returns the JUnit file; the reports are in `xml_dir`.
std::string ctest_run(const std::string& name, const std::string& xml_dir,
                      const std::string& extra = "") {
  const std::string folder = temp_path(name);
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::ofstream testfile(folder + "/CTestTestfile.cmake");
  for (const std::string& instance : probe_instances()) {
    testfile << "add_test([=[" << instance << "]=] [=[" << POLYDEV_PROBE
             << "]=] [=[--gtest_filter=" << instance << "]=] [=[--gtest_output=xml:" << xml_dir
             << "/" << instance << ".xml]=])\n"
             << "set_tests_properties([=[" << instance
             << "]=] PROPERTIES SKIP_REGULAR_EXPRESSION [==[\\[  SKIPPED \\]]==])\n";
  }
  testfile << extra;
  testfile.close();
  const std::string junit = folder + "/junit.xml";
  const ProcessResult run = run_process(
      {"/bin/sh", "-c", "cd \"$1\" && exec \"$2\" --output-junit junit.xml", "sh", folder, kCTest},
      unselected());
  EXPECT_TRUE(std::filesystem::exists(junit))
      << polydev::test_support::defuse_skip_markers(run.output);
  return junit;
}

// CTest's JUnit file of a run, the folder of the reports its entries wrote, or both: one matrix
// of the same cells, no overlap, the device names from the reports.
TEST(ReportCommand, ReadsCTestsJUnitFileAndTheEntriesReportsOfOneRun) {
  const std::string xml_dir = temp_path("entry-xml");
  std::filesystem::remove_all(xml_dir);
  const std::string junit = ctest_run("ctest", xml_dir);
  const std::string root = read(junit);
  ASSERT_THAT(root, HasSubstr("<testsuite")) << "CTest's JUnit dialect";
  ASSERT_THAT(root, HasSubstr("status=\"run\""));

  const ProcessResult from_junit = report({junit});
  const ProcessResult from_folder = report({xml_dir});
  const ProcessResult both = report({junit, xml_dir});
  for (const ProcessResult* result : {&from_junit, &from_folder, &both}) {
    EXPECT_EQ(result->exit_code, 0) << result->output;
    EXPECT_THAT(result->output, HasSubstr(" 0 FAIL, ")) << result->output;
    EXPECT_THAT(result->output, Not(HasSubstr("warning"))) << result->output;
    EXPECT_THAT(result->output, HasSubstr("CUDA/CudaProbe.DeviceIsDescribed")) << result->output;
#if defined(POLYDEV_WITH_OPENCL)
    EXPECT_THAT(result->output, HasSubstr("OpenCL/OpenCLProbe.FillsAndReadsABuffer  pass"))
        << result->output;
#endif
  }
  const std::set<std::string> keys = [&] {
    std::set<std::string> found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(xml_dir)) {
      if (entry.is_regular_file()) {
        const auto file_keys = recorded_keys(read(entry.path().string()));
        found.insert(file_keys.begin(), file_keys.end());
      }
    }
    return found;
  }();
  for (const std::string& key : keys) {
    EXPECT_THAT(from_junit.output, HasSubstr("  " + key)) << "a column for every device";
  }
  // The summary line counts the same cells whichever file told.
  const auto summary = [](const std::string& output) {
    return output.substr(output.find("summary: "),
                         output.find('\n', output.find("summary: ")) - output.find("summary: "));
  };
  EXPECT_EQ(summary(from_junit.output), summary(from_folder.output));
  EXPECT_EQ(summary(both.output), summary(from_folder.output));
}

// An entry that CTest could not run counts as the failure CTest counts it.
TEST(ReportCommand, AnEntryCTestCouldNotRunFailsTheReport) {
  const std::string xml_dir = temp_path("missing-xml");
  std::filesystem::remove_all(xml_dir);
  const std::string junit =
      ctest_run("ctest-missing", xml_dir,
                "add_test([=[Gone.Test/opencl_gone_0]=] [=[/no/such/test_binary]=])\n");
  const ProcessResult result = report({junit});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("FAIL Gone.Test on ["));
  EXPECT_THAT(result.output, HasSubstr("] opencl_gone_0 ("));
  EXPECT_THAT(result.output, HasSubstr("CTest did not run the entry: Unable to find executable"));
}

}  // namespace
