// POLYDEV_DEVICES in the overview: on top of PYOPENCL_TEST and CUDA_DEVICE, what the fixtures read
// (selections, errors, reasons for an empty backend), the table, the JSON document and
// `polydev devices --explain`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "polydev/overview.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::format_explanation;
using polydev::format_json;
using polydev::format_table;
using polydev::Overview;
using testing::AllOf;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;
using testing::Not;
using Positions = polydev_test::Positions;

polydev::cuda::DeviceSources cuda_device(const std::optional<std::string>& value) {
  polydev::cuda::DeviceSources sources;
  sources.cuda_device = value;
  return sources;
}

// The mixed machine (synthetic_inventory.hpp) under the three selectors.
Overview overview(const std::optional<std::string>& polydev_devices,
                  const std::optional<std::string>& pyopencl_test = std::nullopt,
                  const std::optional<std::string>& cuda = std::nullopt) {
  return polydev::make_overview(
      polydev_test::with_simple_keys(polydev_test::mixed_opencl_inventory()), pyopencl_test,
      polydev_test::mixed_cuda_inventory(), cuda_device(cuda), polydev_devices);
}

std::vector<int> ordinals(const Overview& overview) {
  return overview.cuda_selection ? overview.cuda_selection->ordinals : std::vector<int>{99};
}

Positions opencl_positions(const Overview& overview) {
  return overview.opencl_selection ? polydev_test::positions(*overview.opencl_selection)
                                   : Positions{{99, 99}};
}

TEST(DevicesSelectorOverview, UnsetOrBlankChangesNothing) {
  for (const std::optional<std::string>& text :
       {std::optional<std::string>(), std::optional<std::string>(""),
        std::optional<std::string>("  ")}) {
    const Overview result = overview(text);
    EXPECT_FALSE(result.devices.text.has_value());
    EXPECT_THAT(opencl_positions(result),
                ElementsAre(Positions::value_type{0, 0}, Positions::value_type{1, 0},
                            Positions::value_type{1, 1}, Positions::value_type{2, 0}));
    EXPECT_THAT(ordinals(result), ElementsAre(0, 1, 2));
    EXPECT_THAT(result.devices.candidates, IsEmpty());
    EXPECT_EQ(result.opencl_error, "");
    EXPECT_EQ(result.cuda_error, "");
  }
}

TEST(DevicesSelectorOverview, NarrowsBothBackends) {
  const Overview result = overview("type=gpu");
  EXPECT_THAT(opencl_positions(result), ElementsAre(Positions::value_type{0, 0}));
  EXPECT_THAT(ordinals(result), ElementsAre(0, 1, 2));
  EXPECT_EQ(result.devices.candidates.size(), 7u);
  EXPECT_EQ(result.devices.verdicts.size(), 7u);
  EXPECT_EQ(result.opencl_none_reason, "");
  EXPECT_EQ(result.cuda_none_reason, "");
}

TEST(DevicesSelectorOverview, AppliesOnTopOfTheBackendSelectorsAndKeepsTheirOrder) {
  const Overview result = overview("fp64", "portable", "2,0");
  EXPECT_THAT(opencl_positions(result), ElementsAre(Positions::value_type{1, 0}))
      << "PoCL's basic device has no fp64";
  EXPECT_THAT(ordinals(result), ElementsAre(2, 0));
  ASSERT_EQ(result.devices.candidates.size(), 4u) << "only what the backend selectors chose";
  EXPECT_EQ(result.devices.candidates[0].name, "pthread-AMD EPYC 7B13");
  EXPECT_EQ(result.devices.candidates[2].name, "NVIDIA A100-SXM4-80GB");
}

TEST(DevicesSelectorOverview, MaxCountsOnlyDevicesTheBackendSelectorsChose) {
  const Overview result = overview("max=1", "portable:1", "1");
  EXPECT_THAT(opencl_positions(result), ElementsAre(Positions::value_type{1, 1}));
  EXPECT_THAT(ordinals(result), IsEmpty());
  EXPECT_EQ(result.cuda_none_reason,
            "POLYDEV_DEVICES='max=1' takes none of the 1 CUDA device that CUDA_DEVICE (or "
            "~/.cuda_device) selects ('polydev devices --explain' says why)");
}

TEST(DevicesSelectorOverview, ABackendLeftWithoutDevicesGetsAReasonNotAnError) {
  const Overview result = overview("backend=cuda");
  ASSERT_TRUE(result.opencl_selection.has_value());
  EXPECT_THAT(result.opencl_selection->devices, IsEmpty());
  EXPECT_EQ(result.opencl_error, "");
  EXPECT_EQ(result.opencl_none_reason,
            "POLYDEV_DEVICES='backend=cuda' takes none of the 4 OpenCL devices that "
            "PYOPENCL_TEST selects ('polydev devices --explain' says why)");
  EXPECT_THAT(ordinals(result), ElementsAre(0, 1, 2));
  EXPECT_EQ(result.cuda_none_reason, "");
}

TEST(DevicesSelectorOverview, AMalformedSelectorIsTheErrorOfBothBackends) {
  const Overview result = overview("type=gpu,,fp64");
  EXPECT_THAT(result.devices.error, HasSubstr("term 2 of clause 1 (character 10) is empty"));
  EXPECT_FALSE(result.devices.selector.has_value());
  EXPECT_FALSE(result.opencl_selection.has_value());
  EXPECT_FALSE(result.cuda_selection.has_value());
  EXPECT_EQ(result.opencl_error, result.devices.error);
  EXPECT_EQ(result.cuda_error, result.devices.error);
  const std::string json = format_json(result);
  EXPECT_THAT(json, HasSubstr("\"selected\": null}, \"cuda\""));
  EXPECT_THAT(json, HasSubstr("\"selected\": null}}\n"));
}

TEST(DevicesSelectorOverview, ASelectorThatTakesNothingIsAnErrorListingEachDevice) {
  const Overview result = overview("name~nomatch");
  EXPECT_THAT(result.devices.error,
              AllOf(HasSubstr("POLYDEV_DEVICES='name~nomatch' takes no device of the 7: key_0_0 "
                              "('NVIDIA H200') [clause 1 'name~nomatch': 'name~nomatch' does not "
                              "hold (name 'NVIDIA H200')], key_1_0"),
                    HasSubstr(", cuda_nvidia_a100_sxm4_80gb_pci_3d_00 ('NVIDIA A100-SXM4-80GB') "
                              "[clause 1 'name~nomatch': 'name~nomatch' does not hold (name "
                              "'NVIDIA A100-SXM4-80GB')]; 'polydev devices --explain'")));
  EXPECT_EQ(result.opencl_error, result.devices.error);
  EXPECT_EQ(result.cuda_error, result.devices.error);
  EXPECT_EQ(result.devices.verdicts.size(), 7u) << "the verdicts stay for --explain";
}

TEST(DevicesSelectorOverview, ABackendSelectorsOwnErrorIsKept) {
  const Overview cuda_only = overview("backend=cuda", "0:0:0");
  EXPECT_THAT(cuda_only.opencl_error, HasSubstr("PYOPENCL_TEST entry 1 '0:0:0'"));
  EXPECT_THAT(ordinals(cuda_only), ElementsAre(0, 1, 2));
  // With OpenCL's selector broken, an OpenCL-only POLYDEV_DEVICES has nothing to take.
  const Overview opencl_only = overview("backend=opencl", "0:0:0");
  EXPECT_THAT(opencl_only.opencl_error, HasSubstr("PYOPENCL_TEST entry 1 '0:0:0'"));
  EXPECT_THAT(opencl_only.cuda_error,
              HasSubstr("POLYDEV_DEVICES='backend=opencl' takes no device"));
  EXPECT_FALSE(opencl_only.cuda_selection.has_value());
}

TEST(DevicesSelectorOverview, WithoutAnyDeviceASetSelectorIsAnErrorThatSaysWhy) {
  const Overview result = polydev::make_overview(
      polydev_test::empty_opencl_inventory(), std::nullopt,
      polydev_test::unavailable_cuda_inventory(), {}, std::string("backend=cuda"));
  EXPECT_EQ(result.devices.error,
            "POLYDEV_DEVICES='backend=cuda' takes no device: the backend selectors select none "
            "(OpenCL: no OpenCL ICD loader; CUDA: cudaGetDeviceCount failed: "
            "cudaErrorInsufficientDriver (35))");
  EXPECT_EQ(result.opencl_error, result.devices.error);
  EXPECT_EQ(result.cuda_error, result.devices.error);
}

TEST(DevicesSelectorOverview, JsonListsWhatRuns) {
  const std::string json = format_json(overview("name~h200|basic"));
  EXPECT_THAT(json, HasSubstr("\"selected\": [[0, 0], [1, 1]]}"));
  EXPECT_THAT(json, HasSubstr("\"selected\": [0, 1]}}\n"));
}

TEST(DevicesSelectorOverview, TableSaysWhatPolydevDevicesLeftOut) {
  const std::string table = format_table(overview("name~h200|basic;type=cpu,max=1"));
  EXPECT_THAT(table, HasSubstr("[run #1] 0 'NVIDIA H200'"));
  EXPECT_THAT(table, HasSubstr("[run #2] 0 'pthread-AMD EPYC 7B13'"));
  EXPECT_THAT(table, HasSubstr("[run #3] 1 'basic'"));
  EXPECT_THAT(table,
              HasSubstr("key key_2_0; not selected: POLYDEV_DEVICES left out: clause 1 "
                        "'name~h200|basic': 'name~h200|basic' does not hold (name 'Intel(R) FPGA "
                        "Emulation Device'); clause 2 'type=cpu,max=1': 'type=cpu' does not hold "
                        "(type accelerator)\n"));
  EXPECT_THAT(table, HasSubstr("[ skip ] 2 'NVIDIA A100-SXM4-80GB'"));
  EXPECT_THAT(table, HasSubstr("POLYDEV_DEVICES='name~h200|basic;type=cpu,max=1'\n"));
}

TEST(DevicesSelectorOverview, TableShowsTheErrorOnceAndNamesItAsTheReason) {
  const std::string table = format_table(overview("type=gpu|"));
  EXPECT_THAT(table, Not(HasSubstr("available; PYOPENCL_TEST unset; selection error")));
  EXPECT_THAT(table, HasSubstr("not selected: POLYDEV_DEVICES is invalid"));
  EXPECT_THAT(table, HasSubstr("POLYDEV_DEVICES='type=gpu|'; selection error: "
                               "POLYDEV_DEVICES='type=gpu|': term 'type=gpu|'"));
  EXPECT_THAT(table, Not(HasSubstr("[run #")));
}

TEST(DevicesSelectorOverview, TableKeepsTheBackendSelectorsOwnReasons) {
  const std::string table = format_table(overview("fp64", "nvidia", "1"));
  EXPECT_THAT(table, HasSubstr("not selected: not named by PYOPENCL_TEST='nvidia'"));
  EXPECT_THAT(table, HasSubstr("not selected by CUDA_DEVICE='1'"));
}

TEST(DevicesSelectorExplain, EveryDeviceEverySelector) {
  const std::string text =
      format_explanation(overview("name~h200|basic;type=cpu,max=1", "1;0;2", "2,1"));
  EXPECT_EQ(text,
            "POLYDEV_DEVICES='name~h200|basic;type=cpu,max=1'\n"
            "  clause 1: name~h200|basic\n"
            "  clause 2: type=cpu,max=1\n"
            "OpenCL: available; PYOPENCL_TEST='1;0;2'\n"
            "  platform 0 'NVIDIA CUDA'\n"
            "    key_0_0: device 0 'NVIDIA H200'\n"
            "      PYOPENCL_TEST='1;0;2': selects it (#3)\n"
            "      POLYDEV_DEVICES: taken by clause 1 'name~h200|basic'\n"
            "      => runs (#3)\n"
            "  platform 1 'Portable Computing Language'\n"
            "    key_1_0: device 0 'pthread-AMD EPYC 7B13'\n"
            "      PYOPENCL_TEST='1;0;2': selects it (#1)\n"
            "      POLYDEV_DEVICES: taken by clause 2 'type=cpu,max=1'\n"
            "      => runs (#1)\n"
            "    key_1_1: device 1 'basic'\n"
            "      PYOPENCL_TEST='1;0;2': selects it (#2)\n"
            "      POLYDEV_DEVICES: taken by clause 1 'name~h200|basic'\n"
            "      => runs (#2)\n"
            "  platform 2 'Intel(R) FPGA Emulation Platform for OpenCL(TM)'\n"
            "    key_2_0: device 0 'Intel(R) FPGA Emulation Device'\n"
            "      PYOPENCL_TEST='1;0;2': selects it (#4)\n"
            "      POLYDEV_DEVICES: left out: clause 1 'name~h200|basic': 'name~h200|basic' does "
            "not hold (name 'Intel(R) FPGA Emulation Device'); clause 2 'type=cpu,max=1': "
            "'type=cpu' does not hold (type accelerator)\n"
            "      => does not run\n"
            "CUDA: available; CUDA_DEVICE='2,1'\n"
            "    cuda_nvidia_h200_pci_1b_00: device 0 'NVIDIA H200'\n"
            "      CUDA_DEVICE='2,1': does not select it\n"
            "      POLYDEV_DEVICES: not consulted: CUDA_DEVICE='2,1' left the device out\n"
            "      => does not run\n"
            "    cuda_nvidia_h200_pci_2c_00: device 1 'NVIDIA H200'\n"
            "      CUDA_DEVICE='2,1': selects it (#2)\n"
            "      POLYDEV_DEVICES: taken by clause 1 'name~h200|basic'\n"
            "      => runs (#1)\n"
            "    cuda_nvidia_a100_sxm4_80gb_pci_3d_00: device 2 'NVIDIA A100-SXM4-80GB'\n"
            "      CUDA_DEVICE='2,1': selects it (#1)\n"
            "      POLYDEV_DEVICES: left out: clause 1 'name~h200|basic': 'name~h200|basic' does "
            "not hold (name 'NVIDIA A100-SXM4-80GB'); clause 2 'type=cpu,max=1': 'type=cpu' does "
            "not hold (type gpu)\n"
            "      => does not run\n");
}

TEST(DevicesSelectorExplain, UnsetSelectorsSelectEveryDevice) {
  const std::string text = format_explanation(overview(std::nullopt));
  EXPECT_THAT(text, HasSubstr("POLYDEV_DEVICES unset: every device the backend selectors select "
                              "runs\n"));
  EXPECT_THAT(text, HasSubstr("    key_2_0: device 0 'Intel(R) FPGA Emulation Device'\n"
                              "      PYOPENCL_TEST unset: every device\n"
                              "      POLYDEV_DEVICES: unset, takes every device\n"
                              "      => runs (#4)\n"));
  EXPECT_THAT(text, HasSubstr("      CUDA_DEVICE unset: every device\n"
                              "      POLYDEV_DEVICES: unset, takes every device\n"
                              "      => runs (#3)\n"));
}

TEST(DevicesSelectorExplain, LimitsAndErrorsAreNamed) {
  const std::string limited = format_explanation(overview("type=gpu,max=1"));
  EXPECT_THAT(limited, HasSubstr("    cuda_nvidia_h200_pci_1b_00: device 0 'NVIDIA H200'\n"
                                 "      CUDA_DEVICE unset: every device\n"
                                 "      POLYDEV_DEVICES: left out: clause 1 'type=gpu,max=1': over "
                                 "its limit (max=1 devices, taken before this one)\n"
                                 "      => does not run\n"));
  const std::string malformed = format_explanation(overview("cc>=nine"));
  EXPECT_THAT(malformed, HasSubstr("POLYDEV_DEVICES='cc>=nine'\n  error: POLYDEV_DEVICES="
                                   "'cc>=nine': term 'cc>=nine' (clause 1, term 1, character 1): "
                                   "'nine' is not a version"));
  EXPECT_THAT(malformed, HasSubstr("      POLYDEV_DEVICES: invalid (above)\n"
                                   "      => does not run\n"));
  const std::string nothing = format_explanation(overview("name~nomatch"));
  EXPECT_THAT(nothing, HasSubstr("  error: POLYDEV_DEVICES='name~nomatch' takes no device of the "
                                 "7: key_0_0 ('NVIDIA H200') [clause 1"));
  EXPECT_THAT(nothing, HasSubstr("      POLYDEV_DEVICES: left out: clause 1 'name~nomatch': "
                                 "'name~nomatch' does not hold (name 'basic')\n"));
  const std::string backend_error = format_explanation(overview("backend=cuda", "0:0:0"));
  EXPECT_THAT(backend_error, HasSubstr("OpenCL: available; PYOPENCL_TEST='0:0:0'\n"
                                       "  selection error: PYOPENCL_TEST entry 1 '0:0:0'"));
  EXPECT_THAT(backend_error, HasSubstr("      PYOPENCL_TEST='0:0:0': no device: the selection "
                                       "error above\n      POLYDEV_DEVICES: not consulted"));
}

// --explain shows the selector and its clauses whole, as written, but escaped: a line feed in
// the variable would otherwise begin a line of the explanation that the variable wrote.
TEST(DevicesSelectorExplain, TheSelectorIsShownWholeAndEscaped) {
  const std::string clause = "name~a\x1b[31m\nforged" + std::string(300, 'q');
  const std::string text = format_explanation(overview(clause));
  const std::string escaped = "name~a\\x1b[31m\\x0aforged" + std::string(300, 'q');
  EXPECT_THAT(text, HasSubstr("POLYDEV_DEVICES='" + escaped + "'\n"));
  EXPECT_THAT(text, HasSubstr("  clause 1: " + escaped + "\n"));
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find("\nforged"), std::string::npos);
}

TEST(DevicesSelectorExplain, UnavailableBackendsSayWhy) {
  const std::string text = format_explanation(
      polydev::make_overview(polydev_test::opencl_inventory_with_empty_platform(), std::nullopt,
                             polydev_test::unavailable_cuda_inventory(), {}, std::string("fp64")));
  EXPECT_THAT(text,
              HasSubstr("  platform 0 'Empty Platform'\n    no device: CL_DEVICE_NOT_FOUND\n"));
  EXPECT_THAT(text, HasSubstr("CUDA: unavailable: cudaGetDeviceCount failed: "
                              "cudaErrorInsufficientDriver (35); CUDA_DEVICE unset\n"));
}

}  // namespace
