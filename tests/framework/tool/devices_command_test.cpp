// `polydev devices --explain`, run as a process: besides what each selector decided, it names the
// variables that bind the process to some devices before any selector (a scheduler's binding).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "support/run_process.hpp"

namespace {

using polydev::test_support::ProcessResult;
using ::testing::HasSubstr;
using ::testing::Not;

ProcessResult explain(std::map<std::string, std::optional<std::string>> changes) {
  for (const char* name : {"PYOPENCL_TEST", "CUDA_DEVICE", "POLYDEV_DEVICES", "POLYDEV_CONFIG",
                           "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK", "GPU_DEVICE_ORDINAL"}) {
    changes.emplace(name, std::nullopt);
  }
  return polydev::test_support::run_process({POLYDEV_TOOL, "devices", "--explain"}, changes);
}

TEST(DevicesExplain, NamesTheSchedulersBindingAndTheTasksGpus) {
  const ProcessResult run = explain(
      {{"CUDA_VISIBLE_DEVICES", "2,3"}, {"SLURM_JOB_ID", "41"}, {"SLURM_STEP_GPUS", "2,3"}});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("bound: CUDA_VISIBLE_DEVICES='2,3' hides every other GPU of "
                                    "the machine from CUDA: those are in no inventory here, and "
                                    "no selector can choose them (this is Slurm job '41', whose "
                                    "task holds the GPUs SLURM_STEP_GPUS='2,3')"));
}

TEST(DevicesExplain, SaysNothingOfABindingThatIsNotThere) {
  const ProcessResult run =
      explain({{"CUDA_VISIBLE_DEVICES", std::nullopt}, {"SLURM_JOB_ID", std::nullopt}});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, Not(HasSubstr("bound: ")));
}

TEST(DevicesExplain, QuotesAHostileBindingEscaped) {
  const ProcessResult run =
      explain({{"CUDA_VISIBLE_DEVICES", "0\n\x1b[31m" + std::string(4096, 'x')},
               {"SLURM_JOB_ID", std::nullopt}});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("bound: CUDA_VISIBLE_DEVICES='0\\x0a\\x1b[31m"));
  EXPECT_THAT(run.output, Not(HasSubstr("\x1b")));
  EXPECT_LT(run.output.size(), 16384u) << "the value is cut";
}

}  // namespace
