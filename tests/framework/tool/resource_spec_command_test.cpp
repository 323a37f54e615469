// `polydev resource-spec`, run as a process on this machine's devices: the spec names the devices
// the selectors choose, or with --every-device every device of the machine, and a selector error
// stops the first but is only a warning for the second.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "polydev/ctest_resources.hpp"
#include "polydev/opencl/inventory.hpp"
#include "support/device_keys.hpp"
#include "support/run_process.hpp"

namespace {

using polydev::test_support::ProcessResult;
using ::testing::HasSubstr;
using ::testing::Not;

// `polydev resource-spec arguments...` with PYOPENCL_TEST as given and no CUDA device asked for, so
// that the spec's CUDA part is the machine's whatever the test runs under.
ProcessResult resource_spec(std::vector<std::string> arguments,
                            std::optional<std::string> pyopencl_test) {
  arguments.insert(arguments.begin(), {POLYDEV_TOOL, "resource-spec"});
  return polydev::test_support::run_process(arguments, {{"PYOPENCL_TEST", std::move(pyopencl_test)},
                                                        {"CUDA_DEVICE", std::nullopt},
                                                        {"POLYDEV_DEVICES", std::nullopt},
                                                        {"POLYDEV_CONFIG", std::nullopt},
                                                        {"POLYDEV_PROFILE", std::nullopt}});
}

std::vector<std::string> opencl_keys() { return polydev::test_support::opencl_device_keys(); }

// The first OpenCL device and the rest, or a skip: the tests narrow the selection to the first.
class ResourceSpecCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    keys_ = opencl_keys();
    if (keys_.size() < 2) {
      GTEST_SKIP() << "needs two OpenCL devices (POCL_DEVICES='pthread basic'); this machine has "
                   << keys_.size();
    }
  }
  std::vector<std::string> keys_;
};

TEST_F(ResourceSpecCommand, DescribesOnlyTheSelectedDevices) {
  const ProcessResult result = resource_spec({}, "0:0");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("\"" + keys_[0] + "\""));
  for (std::size_t i = 1; i < keys_.size(); ++i) {
    EXPECT_THAT(result.output, Not(HasSubstr("\"" + keys_[i] + "\""))) << keys_[i];
  }
}

TEST_F(ResourceSpecCommand, EveryDeviceDescribesTheDevicesTheSelectionLeavesOut) {
  const ProcessResult result = resource_spec({"--every-device"}, "0:0");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const std::string& key : keys_) {
    EXPECT_THAT(result.output, HasSubstr("\"" + key + "\"")) << key;
  }
}

TEST_F(ResourceSpecCommand, ASelectorErrorStopsTheSelectedSpecWithItsMessage) {
  const ProcessResult result = resource_spec({}, "portable:no_such_device_at_all");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("no_such_device_at_all"));
  EXPECT_THAT(result.output, Not(HasSubstr("\"local\"")));
}

TEST_F(ResourceSpecCommand, ASelectorErrorIsAWarningForEveryDevice) {
  const ProcessResult result = resource_spec({"--every-device"}, "portable:no_such_device_at_all");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("no_such_device_at_all"));
  for (const std::string& key : keys_) {
    EXPECT_THAT(result.output, HasSubstr("\"" + key + "\"")) << key;
  }
}

}  // namespace
