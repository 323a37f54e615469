// `polydev occupancy`, run as a process: answers for an architecture from the table, and exit
// status 2 with a message for every kind of bad argument.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "support/run_process.hpp"

namespace {

using polydev::test_support::ProcessResult;
using ::testing::HasSubstr;
using ::testing::Not;

ProcessResult occupancy(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {POLYDEV_TOOL, "occupancy"});
  // No CUDA_DEVICE of the caller's: the default device is then the first one.
  return polydev::test_support::run_process(arguments, {{"CUDA_DEVICE", std::nullopt}});
}

TEST(OccupancyCommand, JsonHasPyCudasKeysWithCudasAnswer) {
  const ProcessResult result =
      occupancy({"--threads", "256", "--regs", "36", "--cc", "9.0", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("\"tb_per_mp\": 6, \"limited_by\": \"regs\", "
                                       "\"warps_per_mp\": 48, \"occupancy\": 0.75"));
  EXPECT_THAT(result.output, HasSubstr("\"compute_capability\": \"9.0\", \"device\": null"));
}

TEST(OccupancyCommand, SharedMemoryAboveTheDefaultNeedsTheOptIn) {
  const ProcessResult result = occupancy({"--threads=128", "--smem=102400", "--cc=9.0", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("\"tb_per_mp\": 2, \"limited_by\": \"smem\""));
  EXPECT_THAT(result.output, HasSubstr("\"occupancy\": 0.125"));
  EXPECT_THAT(result.output, HasSubstr("\"needs_smem_opt_in\": true"));
}

TEST(OccupancyCommand, TextNamesEveryField) {
  const ProcessResult result = occupancy({"--threads", "1024", "--regs", "32", "--cc", "8.6"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("on compute capability 8.6"));
  EXPECT_THAT(result.output, HasSubstr("tb_per_mp     1\n"));
  EXPECT_THAT(result.output, HasSubstr("limited_by    warps\n"));
  EXPECT_THAT(result.output, HasSubstr("warps_per_mp  32 of 48\n"));
  EXPECT_THAT(result.output, HasSubstr("occupancy     0.6666666666666666\n"));
  EXPECT_THAT(result.output, HasSubstr("device 16, warps 1, regs 2, smem 100"));
}

TEST(OccupancyCommand, HelpIsNotAnError) {
  const ProcessResult result = occupancy({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.output, HasSubstr("usage: polydev occupancy --threads N"));
}

TEST(OccupancyCommand, BadArgumentsExitWithTwoAndSayWhy) {
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--cc", "9.0"}, "--threads is required"},
      {{"--threads"}, "--threads needs a value"},
      {{"--threads", "abc", "--cc", "9.0"},
       "--threads needs a whole number 0..2147483647, got 'abc'"},
      {{"--threads", "-1", "--cc", "9.0"}, "got '-1'"},
      {{"--threads", "99999999999", "--cc", "9.0"}, "got '99999999999'"},
      {{"--threads", "0", "--cc", "9.0"}, "threads per block must be at least 1, got 0"},
      {{"--threads", "1025", "--cc", "9.0"}, "too many threads: 1025 per block"},
      {{"--threads", "32", "--regs", "256", "--cc", "9.0"}, "too many registers: 256 per thread"},
      {{"--threads", "1024", "--regs", "128", "--cc", "9.0"}, "need 131072 registers per block"},
      {{"--threads", "32", "--smem", "232449", "--cc", "9.0"}, "too much shared memory"},
      {{"--threads", "32", "--smem", "1e3", "--cc", "9.0"}, "--smem needs a whole number"},
      {{"--threads", "32", "--cc", "6.1"}, "7.0, 7.2, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0"},
      {{"--threads", "32", "--cc", "nine"}, "'nine' is not of the form MAJOR.MINOR"},
      {{"--threads", "32", "--cc", "9.0", "--device", "cuda_x"}, "either --device or --cc"},
      {{"--threads", "32", "--cc", "9.0", "--verbose"}, "unknown option '--verbose'"},
      {{"--threads", "32", "--cc", "9.0", "--json=yes"}, "--json takes no value, got '--json=yes'"},
      {{"--threads", "32", "--regs", "8", "--regs=16", "--cc", "9.0"}, "--regs given twice"},
      {{"--threads=", "--cc", "9.0"}, "--threads needs a value, got ''"},
      {{"--threads", "32", "--cc", "9.0", "--", "extra"}, "unexpected argument 'extra'"},
  };
  for (const Case& bad : cases) {
    const ProcessResult result = occupancy(bad.arguments);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_THAT(result.output, HasSubstr("polydev occupancy: ")) << result.output;
    EXPECT_THAT(result.output, HasSubstr(bad.message));
    EXPECT_THAT(result.output, HasSubstr("usage: polydev occupancy"));
    EXPECT_THAT(result.output, Not(HasSubstr("tb_per_mp\": ")));
  }
}

TEST(OccupancyCommand, WithoutACudaDeviceTheDefaultIsAnErrorNamingCc) {
  if (polydev::cuda::system_inventory().available) GTEST_SKIP() << "this machine has a CUDA device";
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"--threads", "32"},
        std::vector<std::string>{"--threads", "32", "--device", "cuda_nvidia_h100_pci_00_07"}}) {
    const ProcessResult result = occupancy(arguments);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_THAT(result.output, HasSubstr("no CUDA device ("));
    EXPECT_THAT(result.output, HasSubstr("name an architecture with --cc instead, one of 7.0"));
  }
}

TEST(OccupancyCommand, OnACudaDeviceAnswersForItsKey) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (!inventory.available) GTEST_SKIP() << "CUDA unavailable: " << inventory.reason;
  const std::string& key = inventory.devices.front().key;
  const ProcessResult result = occupancy({"--threads", "256", "--device", key, "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("\"device\": \"" + key + "\""));
  EXPECT_EQ(occupancy({"--threads", "256"}).exit_code, 0);
  const ProcessResult unknown = occupancy({"--threads", "256", "--device", "cuda_no_such_key"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.output, HasSubstr("no CUDA device has the key 'cuda_no_such_key'; the CUDA "
                                        "devices are " +
                                        key));
}

}  // namespace
