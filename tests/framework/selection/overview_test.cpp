// The overview of inventories and selections: the exact JSON document of `polydev devices --json`,
// the JSON writer's escaping and commas, and what the table says about selected devices.
#include "polydev/overview.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "io/json_writer.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::format_json;
using polydev::format_table;
using polydev::make_overview;
using polydev::Overview;
using polydev::detail::JsonWriter;
using testing::AllOf;
using testing::HasSubstr;
using testing::Not;

polydev::cuda::DeviceSources cuda_device(const std::string& value) {
  polydev::cuda::DeviceSources sources;
  sources.cuda_device = value;
  return sources;
}

TEST(OverviewJson, SyntheticMachineWithSelectors) {
  const Overview overview = make_overview(
      polydev_test::with_simple_keys(polydev_test::synthetic_opencl_inventory()),
      std::string("nvidia"), polydev_test::synthetic_cuda_inventory(), cuda_device("1"));
  const std::string expected =
      "{\"opencl\": {\"available\": true, \"reason\": null, \"platforms\": ["
      "{\"index\": 0, \"name\": \"Intel(R) OpenCL\", \"vendor\": \"Intel(R) Corporation\", "
      "\"version\": \"OpenCL 3.0\", \"devices\": ["
      "{\"index\": 0, \"name\": \"Intel(R) Core(TM) i5 CPU\", \"vendor\": \"Intel(R) "
      "Corporation\", \"key\": \"key_0_0\"}, "
      "{\"index\": 1, \"name\": \"Intel(R) Iris(TM) Graphics\", \"vendor\": \"Intel(R) "
      "Corporation\", \"key\": \"key_0_1\"}], \"devices_error\": null}, "
      "{\"index\": 1, \"name\": \"NVIDIA CUDA\", \"vendor\": \"NVIDIA Corporation\", "
      "\"version\": \"OpenCL 3.0 CUDA 13.0.88\", \"devices\": ["
      "{\"index\": 0, \"name\": \"NVIDIA H100\", \"vendor\": \"NVIDIA Corporation\", "
      "\"key\": \"key_1_0\"}, "
      "{\"index\": 1, \"name\": \"NVIDIA A100\", \"vendor\": \"NVIDIA Corporation\", "
      "\"key\": \"key_1_1\"}], \"devices_error\": null}, "
      "{\"index\": 2, \"name\": \"Portable Computing Language\", \"vendor\": \"The pocl "
      "project\", \"version\": \"OpenCL 3.0 PoCL 6.0\", \"devices\": ["
      "{\"index\": 0, \"name\": \"cpu-skylake-avx512-Intel(R) Xeon(R)\", \"vendor\": "
      "\"GenuineIntel\", \"key\": \"key_2_0\"}], \"devices_error\": null}], "
      "\"selected\": [[1, 0], [1, 1]]}, "
      "\"cuda\": {\"available\": true, \"reason\": null, \"devices\": ["
      "{\"ordinal\": 0, \"name\": \"NVIDIA H200\", \"key\": \"cuda_nvidia_h200_pci_1b_00\"}, "
      "{\"ordinal\": 1, \"name\": \"NVIDIA H200\", \"key\": \"cuda_nvidia_h200_pci_2c_00\"}], "
      "\"selected\": [1]}}\n";
  EXPECT_EQ(format_json(overview), expected);
}

TEST(OverviewJson, APlatformWithoutDevicesSaysWhy) {
  polydev::opencl::Inventory inventory = polydev_test::synthetic_opencl_inventory();
  inventory.platforms[2].devices.clear();
  inventory.platforms[2].devices_error = "CL_PLATFORM_VERSION 'bogus' is not 'OpenCL X.Y'";
  const std::string json = format_json(
      make_overview(inventory, std::nullopt, polydev_test::synthetic_cuda_inventory(), {}));
  EXPECT_THAT(json, HasSubstr("\"devices\": [], \"devices_error\": \"CL_PLATFORM_VERSION 'bogus' "
                              "is not 'OpenCL X.Y'\"}"));
}

TEST(OverviewJson, UnsetSelectorsSelectEverythingInOrder) {
  const Overview overview =
      make_overview(polydev_test::synthetic_opencl_inventory(), std::nullopt,
                    polydev_test::synthetic_cuda_inventory(), polydev::cuda::DeviceSources{});
  const std::string json = format_json(overview);
  EXPECT_THAT(json, HasSubstr("\"selected\": [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]]}"));
  EXPECT_THAT(json, HasSubstr("\"selected\": [0, 1]}}\n"));
}

TEST(OverviewJson, UnavailableBackendsGiveTheirReasonAndEmptyLists) {
  const Overview overview =
      make_overview(polydev_test::empty_opencl_inventory(), std::nullopt,
                    polydev_test::unavailable_cuda_inventory(), polydev::cuda::DeviceSources{});
  EXPECT_EQ(format_json(overview),
            "{\"opencl\": {\"available\": false, \"reason\": \"no OpenCL ICD loader\", "
            "\"platforms\": [], \"selected\": []}, "
            "\"cuda\": {\"available\": false, \"reason\": \"cudaGetDeviceCount failed: "
            "cudaErrorInsufficientDriver (35)\", \"devices\": [], \"selected\": []}}\n");
}

TEST(OverviewJson, InvalidSelectorsGiveNullSelections) {
  const Overview overview =
      make_overview(polydev_test::with_simple_keys(polydev_test::synthetic_opencl_inventory()),
                    std::string("x"), polydev_test::synthetic_cuda_inventory(), cuda_device("9"));
  EXPECT_FALSE(overview.opencl_selection.has_value());
  EXPECT_THAT(overview.opencl_error, HasSubstr("no platform matches 'x'"));
  EXPECT_FALSE(overview.cuda_selection.has_value());
  EXPECT_THAT(overview.cuda_error, HasSubstr("device ordinal 9 out of range"));
  const std::string json = format_json(overview);
  EXPECT_THAT(json, HasSubstr("\"key_2_0\"}], \"devices_error\": null}], "
                              "\"selected\": null}, \"cuda\""));
  EXPECT_THAT(json, HasSubstr("\"selected\": null}}\n"));
}

TEST(OverviewJson, NamesAreEscaped) {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  inventory.platforms.push_back(polydev_test::make_platform(0, "Quote\" Back\\slash",
                                                            "Tab\tNewline\nReturn\r",
                                                            "Ctl\x01"
                                                            "End\x1f",
                                                            {{"Dev \"0\"", "C:\\vendor", "gpu"}}));
  const Overview overview =
      make_overview(inventory, std::nullopt, polydev_test::unavailable_cuda_inventory(), {});
  const std::string json = format_json(overview);
  EXPECT_THAT(json, HasSubstr("\"name\": \"Quote\\\" Back\\\\slash\""));
  EXPECT_THAT(json, HasSubstr("\"vendor\": \"Tab\\tNewline\\nReturn\\r\""));
  EXPECT_THAT(json, HasSubstr("\"version\": \"Ctl\\u0001End\\u001f\""));
  EXPECT_THAT(json, HasSubstr("\"name\": \"Dev \\\"0\\\"\", \"vendor\": \"C:\\\\vendor\""));
  // No raw control character survives; the only newline ends the document.
  for (std::size_t i = 0; i + 1 < json.size(); ++i) {
    EXPECT_GE(static_cast<unsigned char>(json[i]), 0x20u) << "at " << i;
  }
  EXPECT_EQ(json.back(), '\n');
}

TEST(JsonWriter, EscapesEveryControlCharacter) {
  std::string all_controls;
  for (char c = 1; c < 0x20; ++c) all_controls += c;
  JsonWriter json;
  json.value(all_controls);
  EXPECT_EQ(json.text(),
            "\"\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\u0008\\t\\n\\u000b\\u000c\\r"
            "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019"
            "\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\"");
}

TEST(JsonWriter, KeepsNulAndUtf8) {
  JsonWriter json;
  json.value(std::string_view("a\0b", 3)).value("\xc3\xa9");
  EXPECT_EQ(json.text(), "\"a\\u0000b\"\"\xc3\xa9\"");
}

// U+FFFD as the document holds it.
const std::string kReplacement = "\xef\xbf\xbd";

TEST(JsonWriter, ReplacesIllFormedUtf8) {
  const auto written = [](const std::string& text) {
    JsonWriter json;
    json.value(text);
    return json.text();
  };
  EXPECT_EQ(written("a\xff"
                    "b"),
            "\"a" + kReplacement + "b\"");
  EXPECT_EQ(written("\x80"), "\"" + kReplacement + "\"") << "a stray continuation byte";
  EXPECT_EQ(written("cut \xe2\x82"), "\"cut " + kReplacement + "\"")
      << "one per truncated sequence";
  EXPECT_EQ(written("\xf0\x9f\x98"
                    "x"),
            "\"" + kReplacement + "x\"");
  EXPECT_EQ(written("\xc0\xaf"), "\"" + kReplacement + kReplacement + "\"") << "overlong";
  EXPECT_EQ(written("\xe0\x80\xaf"), "\"" + kReplacement + kReplacement + kReplacement + "\"");
  EXPECT_EQ(written("\xed\xa0\x80"), "\"" + kReplacement + kReplacement + kReplacement + "\"")
      << "a surrogate";
  EXPECT_EQ(written("\xf4\x90\x80\x80"),
            "\"" + kReplacement + kReplacement + kReplacement + kReplacement + "\"")
      << "above U+10FFFF";
  EXPECT_EQ(written("\xe6\x97\xa5\xf0\x9f\x98\x80"), "\"\xe6\x97\xa5\xf0\x9f\x98\x80\"")
      << "well-formed text stays";
}

TEST(JsonWriter, EscapesDeleteAndC1Controls) {
  JsonWriter json;
  json.value(
      "del\x7f csi\xc2\x9b"
      "2J");
  EXPECT_EQ(json.text(), "\"del\\u007f csi\\u009b2J\"");
}

TEST(JsonWriter, KeysAreMadeValidUtf8Too) {
  JsonWriter json;
  json.begin_object().key("k\xff").value(true).end_object();
  EXPECT_EQ(json.text(), "{\"k" + kReplacement + "\": true}");
}

TEST(JsonWriter, PlacesCommasInNestedContainers) {
  JsonWriter json;
  json.begin_array()
      .value(std::int64_t{1})
      .begin_array()
      .value(std::int64_t{2})
      .value(std::int64_t{-3})
      .end_array()
      .begin_object()
      .key("a")
      .null()
      .key("b")
      .value(false)
      .key("c")
      .begin_array()
      .end_array()
      .end_object()
      .value("s")
      .end_array();
  EXPECT_EQ(json.text(), "[1, [2, -3], {\"a\": null, \"b\": false, \"c\": []}, \"s\"]");
}

TEST(JsonWriter, KeysAreEscaped) {
  JsonWriter json;
  json.begin_object().key("k\"ey").value(true).end_object();
  EXPECT_EQ(json.text(), "{\"k\\\"ey\": true}");
}

// --- the table --------------------------------------------------------------------------------

TEST(OverviewTable, MarksSelectedDevicesInRunOrder) {
  const Overview overview =
      make_overview(polydev_test::synthetic_opencl_inventory(), std::string("nvidia:a100,h100"),
                    polydev_test::synthetic_cuda_inventory(), cuda_device("1"));
  const std::string table = format_table(overview);
  EXPECT_THAT(table, HasSubstr("PYOPENCL_TEST='nvidia:a100,h100'"));
  EXPECT_THAT(table, HasSubstr("[run #1] 1 'NVIDIA A100'"));
  EXPECT_THAT(table, HasSubstr("[run #2] 0 'NVIDIA H100'"));
  EXPECT_THAT(table, HasSubstr("[ skip ] 0 'Intel(R) Core(TM) i5 CPU'"));
  EXPECT_THAT(table, HasSubstr("not selected: not named by PYOPENCL_TEST='nvidia:a100,h100'"));
  EXPECT_THAT(table, HasSubstr("CUDA_DEVICE='1'"));
  EXPECT_THAT(table, HasSubstr("[run #1] 1 'NVIDIA H200'"));
  EXPECT_THAT(table, HasSubstr("[ skip ] 0 'NVIDIA H200'"));
}

TEST(OverviewTable, ShowsSelectionErrorsAndUnavailableBackends) {
  const Overview overview =
      make_overview(polydev_test::synthetic_opencl_inventory(), std::string("0:0:0"),
                    polydev_test::unavailable_cuda_inventory(), {});
  const std::string table = format_table(overview);
  EXPECT_THAT(table, AllOf(HasSubstr("selection error: PYOPENCL_TEST entry 1 '0:0:0'"),
                           HasSubstr("the selector is invalid"),
                           HasSubstr("CUDA: unavailable: cudaGetDeviceCount failed"),
                           Not(HasSubstr("[run #"))));
}

}  // namespace
