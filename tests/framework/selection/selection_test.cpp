// The selection of a process as one pure function of its inputs and two synthetic inventories:
// each filter (backend selectors, POLYDEV_DEVICES, CTest's allocation, device shards, a broken
// configuration) alone and combined, with the reason for every device left out; and the reading
// of the inputs, where a profile fills in what the environment leaves unset.
#include "polydev/selection.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "polydev/error.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::DeviceSelection;
using polydev::LeftOutBy;
using polydev::SelectionInputs;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

// The synthetic machine: OpenCL key_0_0, key_0_1, key_1_0, key_1_1, key_2_0; two CUDA H200s.
DeviceSelection select(const SelectionInputs& inputs) {
  return polydev::select_devices(
      inputs, polydev_test::with_simple_keys(polydev_test::synthetic_opencl_inventory()),
      polydev_test::synthetic_cuda_inventory());
}

std::string cuda_key(int ordinal) {
  return polydev_test::synthetic_cuda_inventory().devices.at(static_cast<std::size_t>(ordinal)).key;
}

std::vector<std::string> running_opencl(const DeviceSelection& selection) {
  std::vector<std::string> keys;
  for (const polydev::Device& device : selection.opencl.devices) {
    keys.push_back("key_" + std::to_string(device.opencl_position.platform) + "_" +
                   std::to_string(device.opencl_position.device));
  }
  return keys;
}

std::vector<int> running_cuda(const DeviceSelection& selection) {
  std::vector<int> ordinals;
  for (const polydev::Device& device : selection.cuda.devices) {
    ordinals.push_back(device.cuda_ordinal);
  }
  return ordinals;
}

// The backend's error: the message of an outcome whose instances fail; empty otherwise.
std::string error_of(const polydev::BackendOutcome& outcome) {
  return outcome.fails() ? outcome.message : "";
}

// Why the backend has no device to run on, when nothing is wrong; empty otherwise.
std::string no_device_reason_of(const polydev::BackendOutcome& outcome) {
  return outcome.problem == polydev::BackendOutcome::Problem::no_device ? outcome.message : "";
}

// Which input left a device out, and why; "runs" when it runs here.
std::string fate(const DeviceSelection& selection, const std::string& key) {
  const polydev::LeftOutDevice* left_out = selection.find_left_out(key);
  if (!left_out) return "runs";
  const char* by = left_out->by == LeftOutBy::selector           ? "selector"
                   : left_out->by == LeftOutBy::ctest_allocation ? "ctest"
                   : left_out->by == LeftOutBy::ctest_entry      ? "entry"
                                                                 : "shard";
  return std::string(by) + ": " + left_out->reason;
}

TEST(ProcessSelection, NoInputRunsEveryDeviceOpenCLThenCuda) {
  const DeviceSelection selection = select({});
  EXPECT_THAT(running_opencl(selection),
              ElementsAre("key_0_0", "key_0_1", "key_1_0", "key_1_1", "key_2_0"));
  EXPECT_THAT(running_cuda(selection), ElementsAre(0, 1));
  EXPECT_THAT(selection.selected_keys, ElementsAre("key_0_0", "key_0_1", "key_1_0", "key_1_1",
                                                   "key_2_0", cuda_key(0), cuda_key(1)));
  EXPECT_THAT(selection.left_out, IsEmpty());
  EXPECT_EQ(error_of(selection.opencl), "");
  EXPECT_EQ(error_of(selection.cuda), "");
  EXPECT_EQ(no_device_reason_of(selection.opencl), "");
}

TEST(ProcessSelection, BackendSelectorsLeaveDevicesOutWithTheirNames) {
  SelectionInputs inputs;
  inputs.pyopencl_test = "1:1,0";
  inputs.cuda_sources.cuda_device = "1";
  const DeviceSelection selection = select(inputs);
  EXPECT_THAT(running_opencl(selection), ElementsAre("key_1_1", "key_1_0"));
  EXPECT_THAT(running_cuda(selection), ElementsAre(1));
  EXPECT_EQ(fate(selection, "key_0_0"), "selector: not named by PYOPENCL_TEST='1:1,0'");
  EXPECT_EQ(fate(selection, "key_2_0"), "selector: not named by PYOPENCL_TEST='1:1,0'");
  EXPECT_EQ(fate(selection, cuda_key(0)), "selector: not named by CUDA_DEVICE='1'");
  EXPECT_EQ(fate(selection, "key_1_1"), "runs");
  EXPECT_EQ(selection.left_out.size(), 4u);
}

TEST(ProcessSelection, AnInvalidSelectorIsTheBackendsErrorAndLeavesEveryDeviceOut) {
  SelectionInputs inputs;
  inputs.pyopencl_test = "9:0";
  const DeviceSelection selection = select(inputs);
  EXPECT_THAT(running_opencl(selection), IsEmpty());
  EXPECT_NE(error_of(selection.opencl), "");
  EXPECT_EQ(error_of(selection.cuda), "");
  EXPECT_THAT(running_cuda(selection), ElementsAre(0, 1));
  EXPECT_EQ(fate(selection, "key_0_0"), "selector: the selector is invalid");
}

TEST(ProcessSelection, PolydevDevicesNarrowsTheBackendSelection) {
  SelectionInputs inputs;
  inputs.polydev_devices = "backend=cuda";
  const DeviceSelection selection = select(inputs);
  EXPECT_THAT(running_opencl(selection), IsEmpty());
  EXPECT_THAT(running_cuda(selection), ElementsAre(0, 1));
  EXPECT_EQ(error_of(selection.opencl), "");
  EXPECT_EQ(no_device_reason_of(selection.opencl), selection.overview.opencl_none_reason);
  EXPECT_NE(no_device_reason_of(selection.opencl), "");
  EXPECT_EQ(fate(selection, "key_0_0").rfind("selector: POLYDEV_DEVICES ", 0), 0u)
      << fate(selection, "key_0_0");
  EXPECT_TRUE(selection.selected_keys.size() == 2u);
}

TEST(ProcessSelection, ABrokenConfigurationFailsBothBackends) {
  SelectionInputs inputs;
  inputs.defaults_error = "polydev.yaml:1:1: broken";
  const DeviceSelection selection = select(inputs);
  EXPECT_EQ(error_of(selection.opencl), inputs.defaults_error);
  EXPECT_EQ(error_of(selection.cuda), inputs.defaults_error);
  EXPECT_THAT(running_opencl(selection), IsEmpty());
  EXPECT_THAT(running_cuda(selection), IsEmpty());
  EXPECT_THAT(selection.selected_keys, IsEmpty());
  EXPECT_EQ(selection.left_out.size(), 7u);
  EXPECT_EQ(fate(selection, cuda_key(1)), "selector: the selector is invalid");
}

TEST(ProcessSelection, AnOpenCLListingFailureFailsTheBackendInsteadOfSkipping) {
  polydev::opencl::Inventory broken = polydev_test::empty_opencl_inventory();
  broken.failure = "clGetPlatformIDs failed: CL_OUT_OF_HOST_MEMORY (-6): out of memory";
  broken.reason = broken.failure;
  const DeviceSelection selection =
      polydev::select_devices({}, broken, polydev_test::synthetic_cuda_inventory());
  EXPECT_EQ(error_of(selection.opencl), "the OpenCL backend is broken: " + broken.failure);
  EXPECT_THAT(running_opencl(selection), IsEmpty());
  EXPECT_EQ(error_of(selection.cuda), "");
  EXPECT_THAT(running_cuda(selection), ElementsAre(0, 1));
}

TEST(ProcessSelection, AFailedPlatformFailsTheBackendThoughOthersListedDevices) {
  polydev::opencl::Inventory inventory =
      polydev_test::with_simple_keys(polydev_test::synthetic_opencl_inventory());
  inventory.failure = "platform 3 'x': clGetDeviceIDs failed: CL_UNKNOWN_ERROR (-9999)";
  SelectionInputs inputs;
  inputs.pyopencl_test = "0:0";
  const DeviceSelection selection =
      polydev::select_devices(inputs, inventory, polydev_test::synthetic_cuda_inventory());
  EXPECT_EQ(error_of(selection.opencl), "the OpenCL backend is broken: " + inventory.failure);
  EXPECT_THAT(running_opencl(selection), IsEmpty());
}

TEST(ProcessSelection, CTestAllocationKeepsItsDevices) {
  SelectionInputs inputs;
  inputs.ctest_allocated_keys = std::vector<std::string>{"key_1_0", cuda_key(1)};
  const DeviceSelection selection = select(inputs);
  EXPECT_THAT(running_opencl(selection), ElementsAre("key_1_0"));
  EXPECT_THAT(running_cuda(selection), ElementsAre(1));
  EXPECT_EQ(fate(selection, "key_0_0"),
            "ctest: CTest allocated other devices to this test (key_1_0, " + cuda_key(1) + ")");
  EXPECT_EQ(selection.selected_keys.size(), 7u) << "the selectors' choice is kept whole";
}

TEST(ProcessSelection, ARequiredBackendWithoutDevicesFailsSayingWhyItHasNone) {
  SelectionInputs inputs;
  inputs.require_devices = "cuda";
  const DeviceSelection selection =
      polydev::select_devices(inputs, polydev_test::synthetic_opencl_inventory(),
                              polydev_test::unavailable_cuda_inventory());
  EXPECT_EQ(selection.cuda.problem, polydev::BackendOutcome::Problem::required_missing);
  EXPECT_EQ(selection.cuda.message,
            "POLYDEV_REQUIRE_DEVICES requires CUDA, but CUDA unavailable: " +
                polydev_test::unavailable_cuda_inventory().reason);
  EXPECT_EQ(selection.opencl.problem, polydev::BackendOutcome::Problem::none);
  inputs.require_devices = "opencl,,cuda";
  const DeviceSelection malformed = select(inputs);
  EXPECT_EQ(malformed.opencl.problem, polydev::BackendOutcome::Problem::invalid_requirement);
  EXPECT_THAT(malformed.opencl.devices, IsEmpty()) << "a failing backend runs nothing";
  EXPECT_TRUE(malformed.cuda.fails());
}

// The entry of a CTest entry that holds `keys`, as the test layer reads it.
polydev::CTestEntry entry_holding(const std::vector<std::string>& keys) {
  polydev::CTestEntry entry{polydev::CTestEntry::Kind::devices, "", keys};
  for (const std::string& key : keys) entry.name += (entry.name.empty() ? "" : "_AND_") + key;
  return entry;
}

TEST(ProcessSelection, TheCTestEntryKeepsTheDevicesItHolds) {
  SelectionInputs inputs;
  inputs.ctest_entry = entry_holding({cuda_key(1)});
  const DeviceSelection selection = select(inputs);
  EXPECT_THAT(running_opencl(selection), IsEmpty());
  EXPECT_THAT(running_cuda(selection), ElementsAre(1));
  EXPECT_EQ(fate(selection, cuda_key(0)),
            "entry: the CTest entry " + cuda_key(1) + " holds other devices");
  EXPECT_EQ(fate(selection, "key_0_0"),
            "entry: the CTest entry " + cuda_key(1) + " holds other devices");
  EXPECT_EQ(error_of(selection.cuda), "");
  EXPECT_EQ(no_device_reason_of(selection.opencl),
            "no selected OpenCL device runs in this process: its CTest entry holds other "
            "devices.");
  // A set's entry holds each of its devices; the entry of the tests without a device, none.
  inputs.ctest_entry = entry_holding({cuda_key(1), cuda_key(0)});
  EXPECT_THAT(running_cuda(select(inputs)), ElementsAre(0, 1));
  EXPECT_THAT(select(inputs).chosen_devices(polydev::Backend::cuda).size(), 2u);
  inputs.ctest_entry = polydev::CTestEntry{polydev::CTestEntry::Kind::host, "host", {}};
  EXPECT_THAT(running_cuda(select(inputs)), ElementsAre(0, 1)) << "the host entry leaves all";
}

// An entry or an allocation that names a device this machine lacks fails the backend the key
// belongs to, naming the key and the backend's devices: skipped as "held by another entry", the
// entry passed having run nothing. A key of the other backend is left to that backend.
TEST(ProcessSelection, ADeviceNamedByTheEntryThatNoDeviceHasFailsItsBackend) {
  SelectionInputs inputs;
  inputs.ctest_entry = entry_holding({"opencl_gone_0"});
  DeviceSelection selection = select(inputs);
  EXPECT_EQ(error_of(selection.opencl),
            "the CTest entry 'opencl_gone_0' names the device 'opencl_gone_0', which no OpenCL "
            "device on this machine has (key_0_0, key_0_1, key_1_0, key_1_1, key_2_0); the CTest "
            "list was discovered on other devices or before one went: it is discovered again when "
            "the test binary changes (rebuild or touch it)");
  EXPECT_EQ(error_of(selection.cuda), "") << "an OpenCL key is the OpenCL backend's to judge";
  inputs.ctest_entry = entry_holding({cuda_key(0), "cuda_gone_1"});
  selection = select(inputs);
  EXPECT_THAT(
      error_of(selection.cuda),
      HasSubstr("names the device 'cuda_gone_1', which no CUDA device on this machine has"));
  EXPECT_EQ(error_of(selection.opencl), "");
  inputs.ctest_entry.reset();
  inputs.ctest_allocated_keys = std::vector<std::string>{"key_1_0", "opencl_gone_0"};
  EXPECT_THAT(error_of(select(inputs).opencl),
              HasSubstr("CTest's resource allocation names the device 'opencl_gone_0', which no "
                        "OpenCL device on this machine has"));
  // A narrower selection is no absent device: its entries skip, as before.
  inputs.ctest_allocated_keys.reset();
  inputs.ctest_entry = entry_holding({"key_1_0"});
  inputs.pyopencl_test = "0";
  EXPECT_EQ(error_of(select(inputs).opencl), "");
}

// The table of one line per device: the line of `key` and the one after it (keys are on the second
// line of a device), joined.
std::string table_entry(const std::string& table, const std::string& key) {
  const std::size_t key_line = table.find("key " + key);
  if (key_line == std::string::npos) return "(no " + key + ")";
  const std::size_t begin = table.rfind('\n', table.rfind('\n', key_line) - 1) + 1;
  return table.substr(begin, table.find('\n', key_line) - begin);
}

TEST(ProcessSelection, TheTableMarksTheDevicesThatRunElsewhereWithTheReason) {
  SelectionInputs inputs;
  inputs.ctest_allocated_keys = std::vector<std::string>{"key_1_0", cuda_key(1)};
  const std::string table = polydev::format_table(select(inputs));
  EXPECT_THAT(table_entry(table, "key_1_0"), testing::StartsWith("    [run #3] "));
  EXPECT_THAT(table_entry(table, "key_1_0"), testing::Not(testing::HasSubstr("not run here")));
  EXPECT_THAT(table_entry(table, "key_0_0"), testing::StartsWith("    [ skip ] "));
  EXPECT_THAT(table_entry(table, "key_0_0"),
              testing::EndsWith("; not run here: CTest allocated other devices to this test "
                                "(key_1_0, " +
                                cuda_key(1) + ")"));
  EXPECT_THAT(table_entry(table, cuda_key(0)), testing::StartsWith("    [ skip ] "));
  EXPECT_THAT(table_entry(table, cuda_key(1)), testing::StartsWith("    [run #2] "));
  // Without the process's selection, the table is the selectors' alone.
  EXPECT_THAT(table_entry(polydev::format_table(select(inputs).overview), "key_0_0"),
              testing::StartsWith("    [run #1] "));
}

TEST(ProcessSelection, TheTableMarksTheDevicesOfOtherShards) {
  SelectionInputs inputs;
  inputs.pyopencl_test = "1";  // key_1_0, key_1_1
  inputs.shard = polydev::DeviceShard{1, 2};
  const std::string table = polydev::format_table(select(inputs));
  EXPECT_THAT(table_entry(table, "key_1_0"),
              testing::EndsWith("; not run here: POLYDEV_SHARD_BY=device gives it to shard 0 of "
                                "2, and this is shard 1"));
  EXPECT_THAT(table_entry(table, "key_1_1"), testing::StartsWith("    [run #2] "));
  EXPECT_THAT(table_entry(table, "key_0_0"), testing::HasSubstr("; not selected: "));
}

TEST(ProcessSelection, CTestAllocationOfAnotherBackendLeavesNoneWithTheReason) {
  SelectionInputs inputs;
  inputs.ctest_allocated_keys = std::vector<std::string>{cuda_key(0)};
  const DeviceSelection selection = select(inputs);
  EXPECT_THAT(running_opencl(selection), IsEmpty());
  EXPECT_EQ(no_device_reason_of(selection.opencl),
            "no selected OpenCL device runs in this process: CTest allocated other devices to "
            "this test.");
  EXPECT_EQ(no_device_reason_of(selection.cuda), "");
}

TEST(ProcessSelection, DeviceShardsDealOpenCLThenCudaRoundRobin) {
  SelectionInputs inputs;
  inputs.shard = polydev::DeviceShard{1, 3};
  const DeviceSelection selection = select(inputs);
  // Positions 0..4 are OpenCL, 5 and 6 CUDA: shard 1 of 3 takes positions 1 and 4.
  EXPECT_THAT(running_opencl(selection), ElementsAre("key_0_1", "key_2_0"));
  EXPECT_THAT(running_cuda(selection), IsEmpty());
  EXPECT_EQ(fate(selection, "key_0_0"),
            "shard: POLYDEV_SHARD_BY=device gives it to shard 0 of 3, and this is shard 1");
  EXPECT_EQ(fate(selection, cuda_key(1)),
            "shard: POLYDEV_SHARD_BY=device gives it to shard 0 of 3, and this is shard 1");
  EXPECT_EQ(no_device_reason_of(selection.cuda),
            "no selected CUDA device runs in this process: POLYDEV_SHARD_BY=device gives shard 1 "
            "of 3 other devices.");
}

TEST(ProcessSelection, EveryFilterCombinedInOrder) {
  SelectionInputs inputs;
  inputs.pyopencl_test = "1";                         // key_1_0, key_1_1
  inputs.polydev_devices = "name~a100;backend=cuda";  // key_1_1 and both H200s
  inputs.ctest_allocated_keys = std::vector<std::string>{"key_1_1", cuda_key(0)};
  inputs.shard = polydev::DeviceShard{0, 2};  // positions: key_1_1 0, H200 #0 1, H200 #1 2
  const DeviceSelection selection = select(inputs);
  EXPECT_THAT(selection.selected_keys, ElementsAre("key_1_1", cuda_key(0), cuda_key(1)));
  EXPECT_THAT(running_opencl(selection), ElementsAre("key_1_1"));
  EXPECT_THAT(running_cuda(selection), IsEmpty());
  EXPECT_EQ(fate(selection, "key_0_0"), "selector: not named by PYOPENCL_TEST='1'");
  EXPECT_EQ(fate(selection, "key_1_0").rfind("selector: POLYDEV_DEVICES ", 0), 0u)
      << fate(selection, "key_1_0");
  EXPECT_EQ(
      fate(selection, cuda_key(0)).rfind("shard: POLYDEV_SHARD_BY=device gives it to shard 1", 0),
      0u)
      << fate(selection, cuda_key(0));
  EXPECT_EQ(fate(selection, cuda_key(1)).rfind("ctest: ", 0), 0u) << fate(selection, cuda_key(1));
  EXPECT_EQ(no_device_reason_of(selection.cuda),
            "no selected CUDA device runs in this process: CTest allocated other devices to this "
            "test; POLYDEV_SHARD_BY=device gives shard 0 of 2 other devices.");
  EXPECT_EQ(selection.left_out.size(), 6u);
}

TEST(ProcessSelection, MalformedProcessVariablesFailBothBackendsUnlessTheyHaveTheirOwnError) {
  SelectionInputs inputs;
  inputs.pyopencl_test = "9:0";
  inputs.process_error = "GTEST_SHARD_INDEX='x' is not a shard of 2";
  const DeviceSelection selection = select(inputs);
  EXPECT_NE(error_of(selection.opencl), inputs.process_error);
  EXPECT_EQ(error_of(selection.cuda), inputs.process_error);
}

TEST(ProcessSelection, WarningsOfBothBackendsOpenCLFirst) {
  SelectionInputs inputs;
  inputs.cuda_sources.cuda_device = "0,0";
  const DeviceSelection selection = select(inputs);
  ASSERT_EQ(selection.warnings.size(), 1u);
  EXPECT_EQ(selection.warnings, selection.overview.cuda_selection->warnings);
}

// --- reading the inputs ---------------------------------------------------------------------

using Variables = std::map<std::string, std::string>;

polydev::EnvironmentLookup lookup_in(const Variables& environment) {
  return [environment](const std::string& name) -> std::optional<std::string> {
    const auto found = environment.find(name);
    if (found == environment.end()) return std::nullopt;
    return found->second;
  };
}

// The inputs as a program with a layer above the framework reads them, `profile` its defaults.
SelectionInputs read(const Variables& environment,
                     const std::vector<std::pair<std::string, std::string>>& profile = {}) {
  polydev::ProcessInputsExtension extension;
  extension.defaults = profile;
  return polydev::read_selection_inputs(lookup_in(environment), extension, {});
}

TEST(SelectionInputs, TheProfileFillsInWhatTheEnvironmentLeavesUnset) {
  const std::vector<std::pair<std::string, std::string>> profile = {
      {"PYOPENCL_TEST", "portable"},
      {"PYOPENCL_CTX", "0"},
      {"CUDA_DEVICE", "1"},
      {"POLYDEV_DEVICES", "type=gpu"},
      {"POLYDEV_REQUIRE_DEVICES", "opencl"}};
  const SelectionInputs from_profile = read({}, profile);
  EXPECT_EQ(from_profile.pyopencl_test, "portable");
  EXPECT_EQ(from_profile.pyopencl_ctx, "0");
  EXPECT_EQ(from_profile.cuda_sources.cuda_device, "1");
  EXPECT_EQ(from_profile.polydev_devices, "type=gpu");
  EXPECT_EQ(from_profile.require_devices, "opencl");

  // A variable that is set, even empty, wins.
  const SelectionInputs overridden = read(
      {{"PYOPENCL_TEST", ""}, {"CUDA_DEVICE", "0"}, {"POLYDEV_REQUIRE_DEVICES", " "}}, profile);
  EXPECT_EQ(overridden.pyopencl_test, "");
  EXPECT_EQ(overridden.cuda_sources.cuda_device, "0");
  EXPECT_EQ(overridden.require_devices, " ");
  EXPECT_EQ(overridden.polydev_devices, "type=gpu");
}

TEST(SelectionInputs, ReadsCTestAllocation) {
  const SelectionInputs inputs = read({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                       {"CTEST_RESOURCE_GROUP_0", "key_1_0"},
                                       {"CTEST_RESOURCE_GROUP_0_KEY_1_0", "id:0,slots:1"}});
  EXPECT_EQ(inputs.ctest_allocated_keys, std::vector<std::string>{"key_1_0"});
  EXPECT_EQ(inputs.process_error, "");
}

// The framework reads no polydev.yaml and no test runner's shard variables: where no layer
// extends the inputs, asking for a profile or a device shard fails the selection, saying which
// programs read them, and is never ignored.
TEST(SelectionInputs, WithoutALayerAProfileOrADeviceShardIsAnErrorNotIgnored) {
  const auto plain = [](const Variables& environment) {
    return polydev::read_selection_inputs(lookup_in(environment), std::nullopt, {});
  };
  const SelectionInputs profile = plain({{"POLYDEV_PROFILE", "gpu\x1b"}});
  EXPECT_THAT(profile.defaults_error,
              testing::StartsWith("POLYDEV_PROFILE='gpu\\x1b' asks for a polydev.yaml profile, "
                                  "which this program does not read: polydev's test layer does"));
  EXPECT_THAT(profile.defaults_error, HasSubstr("polydev::testing::install_test_inputs()"));
  const SelectionInputs shard = plain(
      {{"POLYDEV_SHARD_BY", "device"}, {"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "1"}});
  EXPECT_THAT(shard.process_error,
              testing::StartsWith("POLYDEV_SHARD_BY='device' asks for a run split by device"));
  EXPECT_FALSE(shard.shard.has_value());
  for (const char* unsplit : {"", "test"}) {
    const SelectionInputs inputs = plain({{"POLYDEV_SHARD_BY", unsplit}, {"POLYDEV_PROFILE", ""}});
    EXPECT_EQ(inputs.process_error, "") << unsplit;
    EXPECT_EQ(inputs.defaults_error, "") << unsplit;
  }
  // With a layer, the same variables are the layer's to read.
  EXPECT_EQ(read({{"POLYDEV_PROFILE", "gpu"}, {"POLYDEV_SHARD_BY", "device"}}).process_error, "");
}

// A layer that comes after the process read its inputs would make later selections differ from
// the ones made before it: refused, saying why.
TEST(SelectionInputs, ALayerAfterTheProcessReadItsInputsIsRefused) {
  (void)polydev::process_selection_inputs();
  try {
    polydev::extend_process_inputs([] { return polydev::ProcessInputsExtension{}; });
    FAIL() << "a late extension was accepted";
  } catch (const polydev::error& refused) {
    EXPECT_THAT(refused.what(), HasSubstr("were read before a layer extended them"));
  }
}

}  // namespace
