// A test process starts only what its selection needs: one that can run only OpenCL tests never
// initializes CUDA, one that can run only CUDA tests never loads an OpenCL driver, and the devices
// are enumerated once per process. Observed from outside: probes run with an OpenCL layer that
// records being loaded and counts clGetPlatformIDs calls (OPENCL_LAYERS), and with the dynamic
// loader's record of who opens the CUDA driver library (LD_DEBUG=files): a process initializes CUDA
// exactly when the CUDA runtime, linked statically into the probe, opens libcuda.so.1. (NVIDIA's
// OpenCL driver opens it too, for its own use: that is not the process initializing CUDA.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/detail/printable.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/selection.hpp"
#include "polydev/testing/params.hpp"
#include "polydev/testing/test_inputs.hpp"
#include "support/probe.hpp"

namespace {

namespace fs = std::filesystem;
using polydev::Backends;
using polydev::SelectionInputs;
using polydev::test_support::EnvironmentChanges;
using polydev::test_support::ProcessResult;

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The variables CTest sets for a test given one slot of resource type `key`.
EnvironmentChanges allocation_of(const std::string& key) {
  std::string upper = key;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return {{"CTEST_RESOURCE_GROUP_COUNT", "1"},
          {"CTEST_RESOURCE_GROUP_0", key},
          {"CTEST_RESOURCE_GROUP_0_" + upper, "id:0,slots:1"}};
}

class BackendStartup : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() /
              ("polydev_startup_" + std::to_string(getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  // Runs `argv` (device settings removed unless named) with the counting layer and the loader's
  // record of the libraries each process of the run opened.
  ProcessResult run(const std::vector<std::string>& argv, EnvironmentChanges changes) {
    changes.emplace("OPENCL_LAYERS", POLYDEV_PLATFORM_COUNT_LAYER);
    changes.emplace("POLYDEV_LAYER_LOG", (folder_ / "layer.log").string());
    fs::remove_all(folder_ / "loader");
    fs::create_directories(folder_ / "loader");
    changes.emplace("LD_DEBUG", "files");
    changes.emplace("LD_DEBUG_OUTPUT", (folder_ / "loader" / "log").string());
    changes.emplace("POLYDEV_CONFIG", "");
    return polydev::test_support::run_probe(argv, changes, folder_.string());
  }

  std::string layer_log() const { return read_file(folder_ / "layer.log"); }
  // The loader's lines of the last run in which `binary` itself (the CUDA runtime linked into it)
  // opened the CUDA driver library: empty when the run never initialized CUDA. In a sanitizer
  // build the loader names the sanitizer's runtime instead, whose dlopen stands in front of every
  // caller's; such builds run where no OpenCL driver opens the library (the CI's sanitizer stages).
  std::string cuda_initializations(const std::string& binary) const {
    static const std::regex sanitizer_runtime(
        "dynamically loaded by [^ ]*/lib[a-z]*san\\.so[^ ]* ");
    std::string found;
    for (const auto& entry : fs::directory_iterator(folder_ / "loader")) {
      std::istringstream log(read_file(entry.path()));
      for (std::string line; std::getline(log, line);) {
        if (line.find("file=libcuda.so.1 ") == std::string::npos) continue;
        if (line.find("dynamically loaded by " + binary + " ") != std::string::npos ||
            std::regex_search(line, sanitizer_runtime)) {
          found += line + "\n";
        }
      }
    }
    return found;
  }

  // How many times the last run called clGetPlatformIDs; -1 when it never loaded the layer.
  int platform_id_calls() const {
    static const std::regex line("clGetPlatformIDs called ([0-9]+) times");
    const std::string log = layer_log();
    std::smatch match;
    if (!std::regex_search(log, match, line)) return -1;
    return std::stoi(match[1]);
  }

  // The first OpenCL device's key, or nothing on a machine without one.
  static std::string first_opencl_key() {
    for (const auto& platform : polydev::opencl::system_inventory().platforms) {
      for (const auto& device : platform.devices) return device.key;
    }
    return {};
  }

  fs::path folder_;
};

// The observers see what they watch: without that, the tests below could not fail.
TEST_F(BackendStartup, TheLayerSeesAProcessThatUsesOpenCLAndTheLoaderOneThatInitializesCuda) {
  if (first_opencl_key().empty()) GTEST_SKIP() << "needs an OpenCL device";
  run({POLYDEV_OPENCL_ONLY_PROBE, "--gtest_list_tests"}, {});
  EXPECT_GT(platform_id_calls(), 0) << layer_log();
  run({POLYDEV_CUDA_ONLY_PROBE, "--gtest_list_tests"}, {});
  EXPECT_NE(cuda_initializations(POLYDEV_CUDA_ONLY_PROBE), "")
      << "the loader did not record the CUDA runtime of " << POLYDEV_CUDA_ONLY_PROBE
      << " opening libcuda.so.1";
}

TEST_F(BackendStartup, ABinaryOfOpenCLTestsNeverInitializesCuda) {
  if (first_opencl_key().empty()) GTEST_SKIP() << "needs an OpenCL device";
  const ProcessResult result = run({POLYDEV_OPENCL_ONLY_PROBE}, {});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("[       OK ] OpenCL/OpenCLOnly.FillsABuffer/"), std::string::npos)
      << result.output;
  EXPECT_EQ(cuda_initializations(POLYDEV_OPENCL_ONLY_PROBE), "") << result.output;
  // Its device table says why CUDA is not shown.
  EXPECT_NE(result.output.find("CUDA: unavailable: not enumerated: this process runs no CUDA test"),
            std::string::npos)
      << result.output;
}

TEST_F(BackendStartup, ABinaryOfCudaTestsNeverLoadsAnOpenCLDriver) {
  const ProcessResult result = run({POLYDEV_CUDA_ONLY_PROBE}, {});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(layer_log(), "") << result.output;
  EXPECT_NE(
      result.output.find("OpenCL: unavailable: not enumerated: this process runs no OpenCL test"),
      std::string::npos)
      << result.output;
}

TEST_F(BackendStartup, AnEntryOfAnOpenCLDeviceInABinaryOfBothBackendsNeverInitializesCuda) {
  const std::string key = first_opencl_key();
  if (key.empty()) GTEST_SKIP() << "needs an OpenCL device";
  // The entry of one device under CTest's allocation, and the entry of one instance without it.
  const ProcessResult device_entry =
      run({POLYDEV_POLICY_PROBE, "--gtest_filter=*/" + key}, allocation_of(key));
  EXPECT_EQ(device_entry.exit_code, 0) << device_entry.output;
  EXPECT_NE(device_entry.output.find("[  PASSED  ] 2 tests."), std::string::npos)
      << device_entry.output;
  EXPECT_EQ(cuda_initializations(POLYDEV_POLICY_PROBE), "") << device_entry.output;
  const ProcessResult instance_entry =
      run({POLYDEV_POLICY_PROBE, "--gtest_filter=OpenCL/OpenCLProbe.CopiesABuffer/" + key}, {});
  EXPECT_EQ(instance_entry.exit_code, 0) << instance_entry.output;
  EXPECT_EQ(cuda_initializations(POLYDEV_POLICY_PROBE), "") << instance_entry.output;
}

TEST_F(BackendStartup, AnEntryOfTheCudaSuitesInABinaryOfBothBackendsNeverLoadsAnOpenCLDriver) {
  // A CUDA device's entry where there is one, else the placeholder's that stands for none.
  const auto& cuda = polydev::cuda::system_inventory();
  const std::string name = cuda.devices.empty() ? "no_cuda_device" : cuda.devices.front().key;
  const ProcessResult result = run({POLYDEV_POLICY_PROBE, "--gtest_filter=*/" + name}, {});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(layer_log(), "") << result.output;
}

// The entry's device reaches the process through POLYDEV_CTEST_ENTRY alone, whatever the command
// line: no filter, and the process runs that device's instances and starts no other backend.
TEST_F(BackendStartup, AnEntryNamedByItsVariableAloneRunsItsDeviceAndStartsNoOtherBackend) {
  const std::string key = first_opencl_key();
  if (key.empty()) GTEST_SKIP() << "needs an OpenCL device";
  const ProcessResult result = run({POLYDEV_POLICY_PROBE}, {{"POLYDEV_CTEST_ENTRY", key}});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("[       OK ] OpenCL/OpenCLProbe.CopiesABuffer/" + key),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("[  PASSED  ] 2 tests."), std::string::npos) << result.output;
  EXPECT_EQ(cuda_initializations(POLYDEV_POLICY_PROBE), "") << result.output;
}

// The CTest entry of a binary's tests that use no device starts neither backend.
TEST_F(BackendStartup, TheEntryOfTestsThatUseNoDeviceStartsNoBackend) {
  if (first_opencl_key().empty()) GTEST_SKIP() << "needs an OpenCL device";
  const std::string filter = std::string("--gtest_filter=") + POLYDEV_HOST_FILTER;
  for (const char* probe : {POLYDEV_OPENCL_ONLY_PROBE, POLYDEV_CUDA_ONLY_PROBE}) {
    const ProcessResult result = run({probe, filter}, {});
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("[       OK ] HostOnly.NeedsNoDevice"), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("[  PASSED  ] 1 test."), std::string::npos) << result.output;
    EXPECT_EQ(layer_log(), "") << probe << " loaded an OpenCL driver:\n" << result.output;
    EXPECT_EQ(cuda_initializations(probe), "") << probe << " initialized CUDA:\n" << result.output;
  }
  // Without the filter, the same probes start their backend (the observers work).
  run({POLYDEV_OPENCL_ONLY_PROBE, "--gtest_filter=HostOnly.*:OpenCL/*"}, {});
  EXPECT_GT(platform_id_calls(), 0) << layer_log();
}

TEST_F(BackendStartup, OpenCLIsEnumeratedOncePerProcess) {
  if (first_opencl_key().empty()) GTEST_SKIP() << "needs an OpenCL device";
  // Listing the tests enumerates once (the suites' parameters) and runs nothing.
  run({POLYDEV_OPENCL_ONLY_PROBE, "--gtest_list_tests"}, {});
  const int listing = platform_id_calls();
  ASSERT_GT(listing, 0) << layer_log();
  fs::remove(folder_ / "layer.log");
  // Every test on every device, the device table, contexts, queues and the fixture's own.
  const ProcessResult result = run({POLYDEV_OPENCL_ONLY_PROBE}, {});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(platform_id_calls(), listing) << result.output;
}

// The handle of the context that `test` printed on the device `key` (backend_probe.cpp).
std::string printed_context(const std::string& output, const std::string& test,
                            const std::string& key) {
  const std::regex line("context of " + test + " on " + key + ": (0x[0-9a-f]+)");
  std::smatch match;
  return std::regex_search(output, match, line) ? match[1].str() : "(none)";
}

TEST_F(BackendStartup, TheTestsOfADeviceShareAContextUntilOneFails) {
  if (first_opencl_key().empty()) GTEST_SKIP() << "needs an OpenCL device";
  const ProcessResult passing = run({POLYDEV_OPENCL_ONLY_PROBE}, {});
  ASSERT_EQ(passing.exit_code, 0) << passing.output;
  std::vector<std::string> contexts;
  for (const auto& platform : polydev::opencl::system_inventory().platforms) {
    for (const auto& device : platform.devices) {
      const std::string first = printed_context(passing.output, "first", device.key);
      ASSERT_NE(first, "(none)") << passing.output;
      EXPECT_EQ(printed_context(passing.output, "failing", device.key), first);
      EXPECT_EQ(printed_context(passing.output, "again", device.key), first);
      contexts.push_back(first);
    }
  }
  std::sort(contexts.begin(), contexts.end());
  EXPECT_EQ(std::unique(contexts.begin(), contexts.end()), contexts.end())
      << "each device has a context of its own";

  // A failed test gives its device's context up: the next test gets another.
  const ProcessResult failing = run({POLYDEV_OPENCL_ONLY_PROBE}, {{"POLYDEV_PROBE_FAIL", "1"}});
  EXPECT_EQ(failing.exit_code, 1) << failing.output;
  const std::string key = first_opencl_key();
  EXPECT_EQ(printed_context(failing.output, "failing", key),
            printed_context(failing.output, "first", key))
      << failing.output;
  EXPECT_NE(printed_context(failing.output, "again", key),
            printed_context(failing.output, "failing", key))
      << failing.output;
  EXPECT_NE(printed_context(failing.output, "again", key), "(none)") << failing.output;
}

TEST_F(BackendStartup, UnderPolydevDevicesBothBackendsAreEnumerated) {
  // Its clauses count the devices of both backends, so both are read.
  const ProcessResult result =
      run({POLYDEV_CUDA_ONLY_PROBE}, {{"POLYDEV_DEVICES", "backend=cuda"}});
  EXPECT_GT(platform_id_calls(), 0) << result.output;
}

// The rules themselves, on inputs of their own.
TEST(BackendsToEnumerate, EachBackendAloneUnlessTheSelectionCountsBoth) {
  SelectionInputs inputs;
  const auto both = [](Backends backends) { return backends.opencl && backends.cuda; };
  EXPECT_FALSE(polydev::backends_to_enumerate(inputs, {true, false}).cuda);
  EXPECT_FALSE(polydev::backends_to_enumerate(inputs, {false, true}).opencl);
  const Backends none = polydev::backends_to_enumerate(inputs, {false, false});
  EXPECT_FALSE(none.opencl || none.cuda);

  inputs.polydev_devices = "  ";  // blank: no POLYDEV_DEVICES
  EXPECT_FALSE(polydev::backends_to_enumerate(inputs, {true, false}).cuda);
  inputs.polydev_devices = "backend=cuda";
  EXPECT_TRUE(both(polydev::backends_to_enumerate(inputs, {true, false})));
  EXPECT_TRUE(both(polydev::backends_to_enumerate(inputs, {false, true})));

  inputs.polydev_devices.reset();
  inputs.shard_by_device = true;  // CUDA devices are dealt after the OpenCL devices
  EXPECT_TRUE(both(polydev::backends_to_enumerate(inputs, {false, true})));
  EXPECT_FALSE(polydev::backends_to_enumerate(inputs, {true, false}).cuda);
}

// Why a process with these inputs runs no test of `backend`, in words; nothing when it may run one.
std::optional<std::string> no_test_reason(polydev::Backend backend, const std::string& filter,
                                          const SelectionInputs& inputs) {
  const auto none = polydev::testing::runs_no_test_of(backend, filter, inputs);
  if (!none) return std::nullopt;
  return none->reason;
}

TEST(RunsNoTestOf, SaysWhichInputLeavesTheBackendOut) {
  using Because = polydev::testing::NoTestOfBackend::Because;
  SelectionInputs inputs;
  inputs.ctest_entry = polydev::testing::parse_ctest_entry("host");
  EXPECT_EQ(polydev::testing::runs_no_test_of(polydev::Backend::cuda, "*", inputs)->because,
            Because::ctest_entry);
  inputs.ctest_entry.reset();
  inputs.ctest_allocated_keys = std::vector<std::string>{"opencl_pocl_cpu_0"};
  EXPECT_EQ(polydev::testing::runs_no_test_of(polydev::Backend::cuda, "*", inputs)->because,
            Because::ctest_allocation);
  EXPECT_EQ(polydev::testing::runs_no_test_of(polydev::Backend::cuda, "*/opencl_pocl_cpu_0",
                                              SelectionInputs{})
                ->because,
            Because::filter);
}

TEST(RunsNoTestOf, ACTestAllocationOfTheOtherBackendsDevices) {
  SelectionInputs inputs;
  inputs.ctest_allocated_keys = std::vector<std::string>{"cuda_nvidia_h100_pci_00_01"};
  EXPECT_EQ(no_test_reason(polydev::Backend::opencl, "*", inputs),
            "CTest allocated no OpenCL device to this test (cuda_nvidia_h100_pci_00_01)");
  EXPECT_FALSE(no_test_reason(polydev::Backend::cuda, "*", inputs));
  inputs.ctest_allocated_keys = std::vector<std::string>{};
  EXPECT_EQ(no_test_reason(polydev::Backend::cuda, "*", inputs),
            "CTest allocated no CUDA device to this test (none)");
}

TEST(RunsNoTestOf, TheCTestEntrySaysWhatItRuns) {
  SelectionInputs inputs;
  inputs.ctest_entry = polydev::testing::parse_ctest_entry("host");
  EXPECT_EQ(no_test_reason(polydev::Backend::opencl, "*", inputs),
            "its CTest entry runs the tests that use no device");
  EXPECT_TRUE(no_test_reason(polydev::Backend::cuda, "*", inputs));
  inputs.ctest_entry =
      polydev::testing::parse_ctest_entry("opencl_pocl_cpu_0_AND_opencl_pocl_cpu_1");
  EXPECT_EQ(no_test_reason(polydev::Backend::cuda, "*", inputs),
            "its CTest entry opencl_pocl_cpu_0_AND_opencl_pocl_cpu_1 holds no CUDA device");
  EXPECT_FALSE(no_test_reason(polydev::Backend::opencl, "*", inputs));
  inputs.ctest_entry = polydev::testing::parse_ctest_entry("no_cuda_device");
  EXPECT_EQ(no_test_reason(polydev::Backend::opencl, "*", inputs),
            "its CTest entry no_cuda_device runs no OpenCL test");
  EXPECT_FALSE(no_test_reason(polydev::Backend::cuda, "*", inputs));
  // A set suite's placeholder is of one backend.
  inputs.ctest_entry = polydev::testing::parse_ctest_entry("too_few_cuda_devices");
  EXPECT_EQ(no_test_reason(polydev::Backend::opencl, "*", inputs),
            "its CTest entry too_few_cuda_devices runs no OpenCL test");
  EXPECT_FALSE(no_test_reason(polydev::Backend::cuda, "*", inputs));
}

// Whether a process with `filter` and no other input runs no test of `backend`.
bool none_of(const char* backend, const std::string& filter) {
  return polydev::testing::runs_no_test_of(
             std::string(backend) == "opencl" ? polydev::Backend::opencl : polydev::Backend::cuda,
             filter, SelectionInputs{})
      .has_value();
}

TEST(RunsNoTestOf, AFilterOfInstancesOfTheOtherBackendOnly) {
  EXPECT_TRUE(none_of("cuda", "*/opencl_pocl_cpu_0"));
  // A device's entry that runs its backend's set placeholder too.
  EXPECT_TRUE(none_of("opencl", "*/cuda_h200_0:*__cuda_h200_0:*/too_few_cuda_devices"));
  EXPECT_FALSE(none_of("cuda", "*/cuda_h200_0:*__cuda_h200_0:*/too_few_cuda_devices"));
  EXPECT_TRUE(none_of("cuda", "OpenCL/Saxpy.Runs/opencl_pocl_cpu_0:*/no_opencl_device"));
  EXPECT_TRUE(none_of("cuda", "*/opencl_selector_error-*/opencl_x"));
  EXPECT_TRUE(none_of("opencl", "*/cuda_nvidia_h100_pci_00_01"));
  EXPECT_TRUE(none_of("opencl", "CUDA/VectorAdd.Runs/no_cuda_device"));
  EXPECT_EQ(no_test_reason(polydev::Backend::opencl, "*/no_cuda_device", SelectionInputs{}),
            "--gtest_filter='*/no_cuda_device' names no OpenCL test");
  // Anything that may name an instance of the backend enumerates it.
  EXPECT_FALSE(none_of("cuda", "*"));
  EXPECT_FALSE(none_of("cuda", "OpenCL/*"));
  EXPECT_FALSE(none_of("cuda", "*/opencl_pocl_cpu_*"));
  EXPECT_FALSE(none_of("cuda", "*/opencl_pocl_cpu_0:CUDA/*"));
  EXPECT_FALSE(none_of("cuda", "-*/opencl_x"));
  EXPECT_FALSE(none_of("cuda", "*/polydev_require_devices_error"));
  EXPECT_FALSE(none_of("opencl", "*/opencl_pocl_cpu_0"));
}

TEST(RunsNoTestOf, AFilterThatLeavesOutEveryInstanceOfTheBackend) {
  // The filter of the entry of a binary's tests that use no device leaves out both backends.
  EXPECT_EQ(no_test_reason(polydev::Backend::opencl, POLYDEV_HOST_FILTER, SelectionInputs{}),
            "--gtest_filter=" + polydev::detail::quote(POLYDEV_HOST_FILTER) +
                " leaves out every OpenCL test");
  EXPECT_TRUE(none_of("cuda", POLYDEV_HOST_FILTER));
  EXPECT_TRUE(none_of("opencl", "-*"));
  EXPECT_TRUE(none_of("cuda",
                      "Host.*-*/cuda_*:*__cuda_*:*/no_cuda_device:*__no_cuda_device:"
                      "*/polydev_require_devices_error:*__polydev_require_devices_error"));
  // One kind of name left in, after either separator, may be a test of the backend.
  EXPECT_FALSE(none_of("opencl",
                       "-*/opencl_*:*__opencl_*:*/no_opencl_device:*__no_opencl_device:"
                       "*/polydev_require_devices_error"));
  EXPECT_FALSE(none_of("opencl",
                       "-*/opencl_*:*/no_opencl_device:*/polydev_require_devices_error:"
                       "*__no_opencl_device:*__polydev_require_devices_error"));
  EXPECT_FALSE(none_of("opencl",
                       "-*/cuda_*:*__cuda_*:*/no_cuda_device:*__no_cuda_device:"
                       "*/polydev_require_devices_error:*__polydev_require_devices_error"));
  EXPECT_FALSE(none_of("opencl",
                       "-*/opencl_x*:*__opencl_*:*/no_opencl_device:"
                       "*__no_opencl_device:*/polydev_require_devices_error:"
                       "*__polydev_require_devices_error"));
}

TEST(RunsNoTestOf, AFilterOfDevicesCombinedWithUserParametersOfTheOtherBackendOnly) {
  // The filter of a device's CTest entry, and an instance that combines the device with values.
  EXPECT_TRUE(none_of("cuda", "*/opencl_pocl_cpu_0:*__opencl_pocl_cpu_0"));
  EXPECT_TRUE(none_of("cuda", "OpenCL/Scale.Runs/1000_float__opencl_pocl_cpu_0"));
  EXPECT_TRUE(none_of("opencl", "*/cuda_h200_pci_00_07:*__cuda_h200_pci_00_07"));
  EXPECT_TRUE(none_of("opencl", "CUDA/Add.Runs/7__no_cuda_device"));
  // Its own backend's device after the values, or a wildcard there, may be a test of the backend.
  EXPECT_FALSE(none_of("cuda", "OpenCL/Scale.Runs/opencl_x__cuda_h200_pci_00_07"));
  EXPECT_FALSE(none_of("cuda", "*__opencl_pocl_cpu_0:*__*"));
  EXPECT_FALSE(none_of("opencl", "*__opencl_pocl_cpu_0"));
}

}  // namespace
