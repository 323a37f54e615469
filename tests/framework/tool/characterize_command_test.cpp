// `polydev characterize`, run as a process on this machine's devices: one object per selected
// device with every function of pyopencl.characterize, a key that names one device, and exit
// status 2 with a message for bad arguments and selectors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "polydev/cuda/device_data.hpp"
#include "polydev/cuda/inventory.hpp"
#include "polydev/opencl/inventory.hpp"
#include "support/run_process.hpp"

namespace {

using polydev::test_support::ProcessResult;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kFunctions[] = {
    "get_fast_inaccurate_build_options",
    "get_simd_group_size",
    "has_struct_arg_count_bug",
    "nv_compute_capability",
    "simultaneous_work_items_on_local_access",
    "local_memory_bank_count",
    "local_memory_access_granularity",
    "usable_local_mem_size",
    "has_double_support",
    "has_amd_double_support",
    "reasonable_work_group_size_multiple",
    "why_not_local_access_conflict_free",
    "get_pocl_version",
    "has_coarse_grain_buffer_svm",
    "has_fine_grain_buffer_svm",
    "has_fine_grain_system_svm",
    "has_fine_grain_buffer_svm_atomics",
    "has_fine_grain_system_svm_atomics",
    "has_src_build_cache",
};

// `polydev characterize arguments...` with PYOPENCL_TEST as given, CUDA_DEVICE unset and `changes`
// made to the environment.
ProcessResult characterize(std::vector<std::string> arguments,
                           std::optional<std::string> pyopencl_test = std::nullopt,
                           std::map<std::string, std::optional<std::string>> changes = {}) {
  arguments.insert(arguments.begin(), {POLYDEV_TOOL, "characterize"});
  changes["PYOPENCL_TEST"] = std::move(pyopencl_test);
  changes["CUDA_DEVICE"] = std::nullopt;
  return polydev::test_support::run_process(arguments, changes);
}

int occurrences(const std::string& text, const std::string& needle) {
  int count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

std::vector<const polydev::opencl::DeviceInfo*> opencl_devices() {
  std::vector<const polydev::opencl::DeviceInfo*> devices;
  for (const auto& platform : polydev::opencl::system_inventory().platforms) {
    for (const auto& device : platform.devices) devices.push_back(&device);
  }
  return devices;
}

class CharacterizeCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!polydev::opencl::system_inventory().available) {
      GTEST_SKIP() << polydev::opencl::system_inventory().reason;
    }
  }
};

TEST_F(CharacterizeCommand, JsonHasEveryFunctionForEverySelectedDevice) {
  const ProcessResult result = characterize({"--json"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto devices = opencl_devices();
  ASSERT_EQ(result.output.front(), '[') << result.output;
  for (const auto* device : devices) {
    EXPECT_EQ(occurrences(result.output, "\"key\": \"" + device->key + "\", \"name\": \"" +
                                             device->name + "\", \"backend\": \"opencl\""),
              1)
        << device->key << "\n"
        << result.output;
  }
  for (const char* function : kFunctions) {
    EXPECT_EQ(occurrences(result.output, std::string(", \"") + function + "\": "),
              static_cast<int>(devices.size()))
        << function << "\n"
        << result.output;
  }
  EXPECT_EQ(occurrences(result.output, "\"local_memory_access_granularity\": 4,"),
            static_cast<int>(devices.size()));
}

TEST_F(CharacterizeCommand, ValuesAgreeWithTheInventory) {
  const ProcessResult result = characterize({"--json"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const auto& platform : polydev::opencl::system_inventory().platforms) {
    for (const auto& device : platform.devices) {
      // The object of this device, up to the next one.
      const auto begin = result.output.find("\"key\": \"" + device.key + "\"");
      ASSERT_NE(begin, std::string::npos) << result.output;
      const auto end = result.output.find("{\"key\": ", begin);
      const std::string object =
          result.output.substr(begin, end == std::string::npos ? end : end - begin);
      const bool listed =
          (" " + device.extensions + " ").find(" cl_khr_fp64 ") != std::string::npos;
      EXPECT_THAT(object,
                  HasSubstr(std::string("\"has_double_support\": ") + (listed ? "true" : "false")));
      const std::regex usable("\"usable_local_mem_size\": (\\d+)");
      std::smatch match;
      ASSERT_TRUE(std::regex_search(object, match, usable)) << object;
      EXPECT_LE(std::stoull(match[1]), device.local_memory_bytes);
      EXPECT_GT(std::stoull(match[1]), 0u);
      if (platform.name == "Portable Computing Language") {
        EXPECT_THAT(object, HasSubstr("\"has_src_build_cache\": true"));
        EXPECT_TRUE(std::regex_search(object, std::regex("\"get_pocl_version\": \\[\\d+, \\d+\\]")))
            << object;
      } else {
        EXPECT_THAT(object, HasSubstr("\"get_pocl_version\": null"));
      }
      if (device.type == "cpu") {
        EXPECT_THAT(object, HasSubstr("\"get_simd_group_size\": 1,"));
        EXPECT_THAT(object, HasSubstr("\"simultaneous_work_items_on_local_access\": 1,"));
      }
    }
  }
}

TEST_F(CharacterizeCommand, SelectionIsPyopenclTest) {
  const auto& first = polydev::opencl::system_inventory().platforms.at(0).devices.at(0);
  const ProcessResult result = characterize({"--json"}, "0:0");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // CUDA devices (CUDA_DEVICE unset: all of them) are listed after the OpenCL ones.
  EXPECT_EQ(occurrences(result.output, "\"backend\": \"opencl\""), 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("[{\"key\": \"" + first.key + "\""));
}

TEST_F(CharacterizeCommand, AKeyNamesItsDeviceWhateverTheSelection) {
  const auto devices = opencl_devices();
  const auto* last = devices.back();
  const ProcessResult result = characterize({last->key, "--json"}, "0:0");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(occurrences(result.output, "\"key\": "), 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("\"key\": \"" + last->key + "\""));
}

TEST_F(CharacterizeCommand, TextNamesEveryFunction) {
  const auto* device = opencl_devices().front();
  const ProcessResult result = characterize({device->key});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr(device->key + ": '" + device->name + "' (opencl)\n"));
  for (const char* function : kFunctions) {
    EXPECT_THAT(result.output, HasSubstr(std::string("\n  ") + function + " ")) << function;
  }
}

TEST_F(CharacterizeCommand, CacheBasedCpuBankCountIsAnErrorInTheReportNotAFailure) {
  for (const auto& platform : polydev::opencl::system_inventory().platforms) {
    for (const auto& device : platform.devices) {
      if (platform.name != "Portable Computing Language" || device.type != "cpu") continue;
      const ProcessResult result = characterize({device.key, "--json"});
      ASSERT_EQ(result.exit_code, 0) << result.output;
      EXPECT_THAT(result.output, HasSubstr("\"local_memory_bank_count\": null"));
      EXPECT_THAT(result.output,
                  HasSubstr("\"errors\": {\"local_memory_bank_count\": \"local_memory_bank_count: "
                            "meaningless for CPU"));
      return;
    }
  }
  GTEST_SKIP() << "no PoCL CPU device on this machine";
}

// The kernel probes are built through the binary cache, which reads its setting then: a value that
// is not understood fails a device that needs a probe (PoCL's have no CL_DEVICE_WARP_SIZE_NV), with
// the setting's own message.
TEST_F(CharacterizeCommand, AnInvalidNoCacheSettingFailsADeviceThatNeedsAProbeWithItsMessage) {
  for (const auto& platform : polydev::opencl::system_inventory().platforms) {
    if (platform.name != "Portable Computing Language" || platform.devices.empty()) continue;
    const auto& device = platform.devices.front();
    const ProcessResult result =
        characterize({device.key}, std::nullopt, {{"POLYDEV_NO_CACHE", "maybe"}});
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_THAT(result.output, HasSubstr(device.key + ": '" + device.name +
                                         "' (opencl)\n  cannot characterize: POLYDEV_NO_CACHE="
                                         "'maybe' is not understood: use 1 "));
    return;
  }
  GTEST_SKIP() << "no PoCL device on this machine, and only its devices need a probe";
}

TEST(CharacterizeCommandErrors, UnknownKeyListsTheKnownOnes) {
  const ProcessResult result = characterize({"opencl_no_such_device_0"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_THAT(result.output,
              HasSubstr("no device has the key 'opencl_no_such_device_0'; known keys: "));
  for (const auto* device : opencl_devices()) EXPECT_THAT(result.output, HasSubstr(device->key));
  EXPECT_THAT(result.output, Not(HasSubstr("get_simd_group_size")));
}

TEST(CharacterizeCommandErrors, BadUsageExitsWithTwo) {
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  for (const Case& bad :
       std::vector<Case>{{{"--verbose"}, "unknown option '--verbose'"},
                         {{"a", "b"}, "one device key at most, got 'a' and 'b'"},
                         {{"--json", "--json"}, "--json given twice"},
                         {{"--json=no"}, "--json takes no value"},
                         {{"a", "--", "-b"}, "one device key at most, got 'a' and '-b'"}}) {
    const ProcessResult result = characterize(bad.arguments);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_THAT(result.output, HasSubstr(bad.message));
    EXPECT_THAT(result.output, HasSubstr("usage: polydev characterize [DEVICE_KEY] [--json]"));
  }
}

TEST(CharacterizeCommandErrors, InvalidSelectorExitsWithTwoAndPrintsNoResult) {
  if (!polydev::opencl::system_inventory().available) GTEST_SKIP() << "needs an OpenCL platform";
  const ProcessResult result = characterize({"--json"}, "no-such-platform");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("PYOPENCL_TEST entry 1 'no-such-platform'"));
  EXPECT_THAT(result.output, Not(HasSubstr("\"key\"")));
}

TEST(CharacterizeCommandErrors, AnUnknownKeyIsQuotedWithoutControlCharacters) {
  const ProcessResult result = characterize({"opencl\x1b[2J"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("no device has the key 'opencl\\x1b[2J'"));
  EXPECT_EQ(result.output.find('\x1b'), std::string::npos);
}

TEST(CharacterizeCommandErrors, HelpIsNotAnError) {
  const ProcessResult result = characterize({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.output, HasSubstr("usage: polydev characterize"));
}

}  // namespace

// A CUDA device's object carries PyCUDA's DeviceData attributes with the values polydev's
// DeviceData reads from that device (checked where there is a CUDA device, skipped elsewhere).
TEST(CharacterizeCudaCommand, EveryCudaDeviceHasItsDeviceData) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (inventory.devices.empty()) {
    GTEST_SKIP() << "no CUDA device: "
                 << (inventory.available ? "the runtime lists none" : inventory.reason);
  }
  for (const auto& device : inventory.devices) {
    const polydev::cuda::DeviceData data = polydev::cuda::DeviceData::from_device(device.ordinal);
    const ProcessResult result = characterize({device.key, "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_THAT(result.output, HasSubstr("\"backend\": \"cuda\""));
    const auto expect_number = [&](const std::string& name, auto value) {
      EXPECT_THAT(result.output, HasSubstr("\"" + name + "\": " + std::to_string(value) + ","))
          << device.key << ": " << name;
    };
    expect_number("max_threads", data.max_threads);
    expect_number("warp_size", data.warp_size);
    expect_number("warps_per_mp", data.warps_per_mp);
    expect_number("thread_blocks_per_mp", data.thread_blocks_per_mp);
    expect_number("registers", data.registers);
    expect_number("shared_memory", data.shared_memory);
    expect_number("smem_granularity", data.smem_granularity);
    expect_number("smem_alloc_granularity", data.smem_alloc_granularity);
    expect_number("multiprocessors", data.multiprocessors);
    expect_number("max_shared_memory_per_block_optin", data.max_shared_memory_per_block_optin);
    EXPECT_THAT(result.output, HasSubstr("\"align_bytes\": {\"4\": 64, \"8\": 128, \"16\": 128}"));
    EXPECT_THAT(result.output, Not(HasSubstr("\"failure\"")));
  }
}
