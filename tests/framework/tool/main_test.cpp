// Every command of `polydev`, run as a process: output that cannot reach stdout (a full disk, a
// closed stdout) is a failure with the reason, and the argument rules that all commands share.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_process.hpp"

namespace {

using polydev::test_support::ProcessResult;
using polydev::test_support::run_process;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// Whether the tool has `report` (it needs tinyxml2, which a GPU machine may lack); without it the
// command only says so, whatever it is given, and its cases here are left out.
#if defined(POLYDEV_TOOL_HAS_REPORT)
constexpr bool kHasReport = true;
#else
constexpr bool kHasReport = false;
#endif

// A passing GoogleTest report, for `report`.
std::string passing_report() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path =
      ::testing::TempDir() + "polydev_tool_output_" + test->name() + "_pass.xml";
  std::ofstream(path, std::ios::trunc)
      << "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"S\">\n"
         "<testcase name=\"T\" status=\"run\" result=\"completed\"/>\n</testsuite>\n"
         "</testsuites>\n";
  return path;
}

std::string temp_path(const std::string& name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "polydev_tool_output_" + test->name() + "_" + name;
}

std::string read(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The tool with `arguments`, its stdout redirected by the shell (`redirection`, e.g.
// ">/dev/full"); what it prints on stderr is captured.
ProcessResult tool_with_stdout(const std::string& redirection, std::vector<std::string> arguments) {
  std::vector<std::string> argv{"/bin/sh", "-c", "exec \"$0\" \"$@\" " + redirection, POLYDEV_TOOL};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process(argv);
}

ProcessResult tool(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), POLYDEV_TOOL);
  return run_process(arguments);
}

// Each command with arguments that succeed and print something on stdout.
std::vector<std::vector<std::string>> commands_that_print(const std::string& report) {
  std::vector<std::vector<std::string>> commands = {
      {"devices"},
      {"devices", "--json"},
      {"resource-spec"},
      {"characterize"},
      {"occupancy", "--threads", "256", "--cc", "9.0"},
      {"occupancy", "--threads", "256", "--cc", "9.0", "--json"},
      {"help"},
      {"resource-spec", "--help"}};
  if (kHasReport) {
    commands.push_back({"report", report});
    commands.push_back({"report", "--json", report});
  }
  return commands;
}

std::string joined(const std::vector<std::string>& arguments) {
  std::string text;
  for (const std::string& argument : arguments) text += (text.empty() ? "" : " ") + argument;
  return text;
}

TEST(ToolOutput, AFullDiskIsAFailureWithTheReason) {
  for (const auto& arguments : commands_that_print(passing_report())) {
    const ProcessResult result = tool_with_stdout(">/dev/full", arguments);
    EXPECT_EQ(result.exit_code, 1) << joined(arguments) << "\n" << result.output;
    EXPECT_THAT(result.output, HasSubstr("cannot write to stdout: No space left on device"))
        << joined(arguments);
  }
}

TEST(ToolOutput, AClosedStdoutIsAFailureWithTheReason) {
  for (const auto& arguments : commands_that_print(passing_report())) {
    const ProcessResult result = tool_with_stdout(">&-", arguments);
    EXPECT_EQ(result.exit_code, 1) << joined(arguments) << "\n" << result.output;
    EXPECT_THAT(result.output, HasSubstr("cannot write to stdout: Bad file descriptor"))
        << joined(arguments);
  }
}

TEST(ToolOutput, TheErrorNamesTheCommand) {
  const ProcessResult result = tool_with_stdout(">/dev/full", {"resource-spec"});
  EXPECT_THAT(result.output, StartsWith("polydev resource-spec: cannot write to stdout: "));
}

TEST(ToolOutput, ACommandThatPrintsNothingOnStdoutNeedsNone) {
  const std::string spec = temp_path("spec.json");
  const ProcessResult result = tool_with_stdout(">&-", {"resource-spec", "--output", spec});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(read(spec), StartsWith("{\"version\": {\"major\": 1, \"minor\": 0}"));
}

// A FIFO would make the writer wait for a reader for ever; a folder or a device is no spec.
TEST(ToolOutput, TheResourceSpecIsWrittenOnlyToARegularFileAndWhole) {
  const std::string fifo = temp_path("spec.fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& output : {fifo, std::string("/dev/null"), ::testing::TempDir()}) {
    const ProcessResult result = tool({"resource-spec", "--output", output});
    EXPECT_EQ(result.exit_code, 1) << output << "\n" << result.output;
    EXPECT_THAT(result.output, HasSubstr("polydev resource-spec: cannot write '"));
    EXPECT_THAT(result.output, HasSubstr(", not a regular file")) << result.output;
  }
  std::remove(fifo.c_str());
  // A link loop stays a loop: renamed over, the link itself was replaced by the spec.
  const std::string loop = temp_path("spec-loop.json");
  const std::string other = temp_path("spec-loop-2.json");
  std::remove(loop.c_str());
  std::remove(other.c_str());
  std::filesystem::create_symlink(other, loop);
  std::filesystem::create_symlink(loop, other);
  const ProcessResult looped = tool({"resource-spec", "--output", loop});
  EXPECT_EQ(looped.exit_code, 1) << looped.output;
  EXPECT_THAT(looped.output, HasSubstr("a symbolic link loop, not a regular file"));
  EXPECT_TRUE(std::filesystem::is_symlink(loop));
  std::remove(loop.c_str());
  std::remove(other.c_str());
  // A write that fails leaves the spec there as it was, and no temporary file beside it.
  const std::string spec = temp_path("kept.json");
  std::ofstream(spec) << "earlier";
  // (The shell ignores SIGXFSZ, so that the write fails with EFBIG instead of killing the tool.)
  const ProcessResult limited = run_process(
      {"/bin/sh", "-c", "trap '' XFSZ; ulimit -f 0; exec \"$0\" resource-spec --output \"$1\"",
       POLYDEV_TOOL, spec});
  EXPECT_EQ(limited.exit_code, 1) << limited.output;
  EXPECT_THAT(limited.output, HasSubstr("File too large"));
  EXPECT_EQ(read(spec), "earlier");
  const std::string name = spec.substr(spec.rfind('/') + 1);
  for (const auto& entry : std::filesystem::directory_iterator(::testing::TempDir())) {
    EXPECT_NE(entry.path().filename().string().rfind("." + name, 0), 0u) << entry.path();
  }
}

TEST(ToolOutput, AFileOpenedWhileStdoutIsClosedDoesNotReceiveStdout) {
  if (!kHasReport) GTEST_SKIP() << "polydev was built without tinyxml2: no report command";
  // The first file opened gets the lowest free descriptor: 1, when stdout is closed.
  const std::string page = temp_path("page.html");
  const ProcessResult result =
      tool_with_stdout(">&-", {"report", "--html", page, passing_report()});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("cannot write to stdout: Bad file descriptor"));
  const std::string html = read(page);
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(html, Not(HasSubstr("polydev report: 1 results"))) << "the text report went there";
}

TEST(ToolOutput, AUsageErrorKeepsItsStatus) {
  const ProcessResult result = tool_with_stdout(">/dev/full", {"devices", "--bogus"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("unknown option '--bogus'"));
}

// --- the argument rules -------------------------------------------------------------------------

struct BadUsage {
  std::vector<std::string> arguments;
  std::string message;
};

void expect_bad_usage(const BadUsage& bad) {
  if (bad.arguments[0] == "report" && !kHasReport) return;
  const ProcessResult result = tool(bad.arguments);
  EXPECT_EQ(result.exit_code, 2) << joined(bad.arguments) << "\n" << result.output;
  EXPECT_THAT(result.output, HasSubstr(": " + bad.message)) << joined(bad.arguments);
  EXPECT_THAT(result.output, HasSubstr("usage: polydev " + bad.arguments[0]))
      << joined(bad.arguments);
}

// The overview's line for report names what `polydev report --help` and docs/cli.md describe.
TEST(ToolUsage, TheReportLineNamesItsOptionsAndInputs) {
  const ProcessResult result = tool({"--help"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output,
              HasSubstr("  report [--html OUT.html [--source-url URL [--source-root DIR]]] "
                        "[--json] [--strict] FILE|DIR...\n"
                        "      GoogleTest XML or CTest's JUnit file as test x device\n"));
}

TEST(ToolArguments, ARepeatedOptionIsAnErrorNamingIt) {
  const std::string report = passing_report();
  for (const BadUsage& bad : std::vector<BadUsage>{
           {{"resource-spec", "--slots", "2", "--slots", "3"}, "--slots given twice"},
           {{"resource-spec", "--output=a", "--output", "b"}, "--output given twice"},
           {{"report", "--html", "a.html", "--html=b.html", report}, "--html given twice"},
           {{"report", "--json", "--json", report}, "--json given twice"},
           {{"devices", "--json", "--json"}, "--json given twice"},
           {{"characterize", "--json", "--json"}, "--json given twice"},
           {{"occupancy", "--threads", "32", "--threads=64", "--cc", "9.0"},
            "--threads given twice"},
           {{"occupancy", "--threads", "32", "--cc", "9.0", "--cc", "8.0"}, "--cc given twice"},
       }) {
    expect_bad_usage(bad);
  }
}

TEST(ToolArguments, EveryOptionWithAValueTakesTheEqualsForm) {
  const std::string spec = temp_path("spec.json");
  const ProcessResult slots = tool({"resource-spec", "--slots=3", "--output=" + spec});
  EXPECT_EQ(slots.exit_code, 0) << slots.output;
  // The same spec as the two-word form; on a machine with devices, with their 3 slots.
  const std::string spaced = temp_path("spec_spaced.json");
  EXPECT_EQ(tool({"resource-spec", "--slots", "3", "--output", spaced}).exit_code, 0);
  EXPECT_EQ(read(spec), read(spaced));
  if (read(spec).find("\"slots\"") != std::string::npos) {
    EXPECT_THAT(read(spec), HasSubstr("\"slots\": 3"));
  }
  const std::string page = temp_path("page.html");
  if (kHasReport) {
    const ProcessResult html = tool({"report", "--html=" + page, passing_report()});
    EXPECT_EQ(html.exit_code, 0) << html.output;
    EXPECT_THAT(read(page), StartsWith("<!DOCTYPE html>"));
  }
  const ProcessResult occupancy =
      tool({"occupancy", "--threads=256", "--regs=32", "--smem=16384", "--cc=9.0"});
  EXPECT_EQ(occupancy.exit_code, 0) << occupancy.output;
  EXPECT_THAT(occupancy.output, HasSubstr("tb_per_mp     8"));
}

TEST(ToolArguments, AFlagTakesNoValue) {
  for (const BadUsage& bad : std::vector<BadUsage>{
           {{"devices", "--json=yes"}, "--json takes no value, got '--json=yes'"},
           {{"report", "--strict=1", "a.xml"}, "--strict takes no value"},
           {{"characterize", "--json="}, "--json takes no value"},
       }) {
    expect_bad_usage(bad);
  }
}

TEST(ToolArguments, AnEmptyValueIsAnError) {
  const std::string report = passing_report();
  for (const BadUsage& bad : std::vector<BadUsage>{
           {{"resource-spec", "--output", ""}, "--output needs a file name, got ''"},
           {{"resource-spec", "--output="}, "--output needs a file name, got ''"},
           {{"resource-spec", "--slots", ""}, "--slots needs a number from 1 to 9999, got ''"},
           {{"report", "--html", "", report}, "--html needs a file name, got ''"},
           {{"occupancy", "--threads", "32", "--cc", ""}, "--cc needs"},
           {{"occupancy", "--threads", "32", "--device="}, "--device needs a device key"},
       }) {
    expect_bad_usage(bad);
  }
}

TEST(ToolArguments, AMissingValueIsAnError) {
  for (const BadUsage& bad : std::vector<BadUsage>{
           {{"resource-spec", "--output"}, "--output needs a file name"},
           {{"resource-spec", "--slots"}, "--slots needs a number from 1 to 9999"},
           {{"report", "--html"}, "--html needs a file name"},
       }) {
    expect_bad_usage(bad);
  }
}

TEST(ToolArguments, DoubleDashEndsTheOptions) {
  if (!kHasReport) GTEST_SKIP() << "polydev was built without tinyxml2: no report command";
  // A report whose name starts with '-'.
  const std::string folder = ::testing::TempDir();
  const std::string name = "-polydev_tool_output_dash.xml";
  std::ofstream(folder + name, std::ios::trunc)
      << "<testsuites><testsuite name=\"S\"><testcase name=\"T\"/></testsuite></testsuites>";
  const ProcessResult result = run_process(
      {"/bin/sh", "-c", "cd \"$1\" && exec \"$0\" report -- \"$2\"", POLYDEV_TOOL, folder, name});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("polydev report: 1 results from 1 file"));
  // Without it, the name is an option.
  expect_bad_usage({{"report", name}, "unknown option '" + name + "'"});
  // After it, --help is a file name, not a request for the usage.
  const ProcessResult help = tool({"report", "--", "--help"});
  EXPECT_EQ(help.exit_code, 2) << help.output;
  EXPECT_THAT(help.output, HasSubstr("cannot read '--help': no such file"));
}

TEST(ToolArguments, AnArgumentWhereNoneIsTakenIsAnError) {
  expect_bad_usage({{"devices", "extra"}, "unexpected argument 'extra'"});
  expect_bad_usage({{"resource-spec", "--", "--slots"}, "unexpected argument '--slots'"});
}

TEST(ToolArguments, HelpWinsOverOtherProblems) {
  const ProcessResult result = tool({"resource-spec", "--bogus", "--help"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, StartsWith("usage: polydev resource-spec"));
}

TEST(ToolArguments, AFileThatCannotBeWrittenGivesTheReason) {
  const std::string missing_folder = temp_path("no/such/folder/out");
  const ProcessResult spec = tool({"resource-spec", "--output", missing_folder});
  EXPECT_EQ(spec.exit_code, 1) << spec.output;
  EXPECT_THAT(spec.output, HasSubstr("polydev resource-spec: cannot write '" + missing_folder +
                                     "': No such file or directory"));
  // A device is no file to write (a full disk: TheResourceSpecIsWrittenOnlyToARegularFileAndWhole).
  const ProcessResult full = tool({"resource-spec", "--output", "/dev/full"});
  EXPECT_EQ(full.exit_code, 1) << full.output;
  EXPECT_THAT(full.output, HasSubstr("cannot write '/dev/full': a device, not a regular file"));
  if (!kHasReport) return;
  const ProcessResult html = tool({"report", "--html", "/dev/full", passing_report()});
  EXPECT_EQ(html.exit_code, 2) << html.output;
  EXPECT_THAT(html.output, HasSubstr("polydev report: --html '/dev/full' is a device; expected a "
                                     "regular file or a path that does not exist yet"));
}

TEST(ToolArguments, ArgumentsAreQuotedWithoutTheirControlCharacters) {
  const ProcessResult result = tool({"devices", "--\x1b[31mred"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("unknown option '--\\x1b[31mred'"));
  EXPECT_THAT(result.output, Not(HasSubstr("\x1b"))) << "no raw ESC on the terminal";
}

// A line feed in an argument would forge a line of the message, and a 100 KB argument would be
// repeated whole: every command quotes what it was given escaped and cut, as the selectors' errors
// quote a variable.
TEST(ToolArguments, EveryCommandQuotesABadArgumentOnOneLineAndCut) {
  const std::string forged = "1\nforged line";
  const std::string huge(100000, '7');
  const std::vector<std::vector<std::string>> commands = {
      {"devices", forged},
      {"devices", "--" + forged},
      {"devices", "--json=" + forged},
      {"resource-spec", "--slots", forged},
      {"occupancy", "--threads", forged, "--cc", "9.0"},
      {"occupancy", "--threads", "64", "--cc", forged},
      {"characterize", "a", forged},
      {"report", "--html", "r.html", "--source-url", forged, "r.xml"},
  };
  for (const std::vector<std::string>& arguments : commands) {
    if (arguments[0] == "report" && !kHasReport) continue;
    const ProcessResult result = tool(arguments);
    EXPECT_EQ(result.exit_code, 2) << joined(arguments) << "\n" << result.output;
    EXPECT_THAT(result.output, HasSubstr("1\\x0aforged line")) << joined(arguments);
    EXPECT_THAT(result.output, Not(HasSubstr("\nforged line"))) << joined(arguments);
    std::vector<std::string> long_arguments = arguments;
    for (std::string& argument : long_arguments) {
      const std::size_t at = argument.find(forged);
      if (at != std::string::npos) argument.replace(at, forged.size(), huge);
    }
    const ProcessResult long_result = tool(long_arguments);
    EXPECT_EQ(long_result.exit_code, 2) << joined(arguments);
    EXPECT_LT(long_result.output.size(), 4000u) << long_result.output.substr(0, 400);
    EXPECT_THAT(long_result.output, HasSubstr("'... (1000")) << joined(arguments);
  }
}

}  // namespace

namespace {

// HOME=/dev/null (a service account's) holds no ~/.cuda_device: nothing is chosen, which is no
// error, on a machine with CUDA or without.
TEST(ToolDevices, AHomeThatIsNoDirectoryIsNoDeviceSetting) {
  const ProcessResult result = run_process({POLYDEV_TOOL, "devices"},
                                           {{"HOME", "/dev/null"}, {"CUDA_DEVICE", std::nullopt}});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, Not(HasSubstr("cannot read the CUDA device setting")));
}

}  // namespace
