// Stable device keys: slug, PCI suffixes, platform words, and uniqueness of the keys assigned to
// OpenCL and CUDA inventories (identical boards, two ICDs of one platform, odd names).
#include "polydev/key.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/opencl/inventory.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::opencl_platform_word;
using polydev::pci_key_suffix;
using polydev::slug;
using polydev_test::make_platform;
using testing::ElementsAre;

bool is_key_text(const std::string& key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

std::vector<std::string> keys_of(const polydev::opencl::Inventory& inventory) {
  std::vector<std::string> keys;
  for (const auto& platform : inventory.platforms) {
    for (const auto& device : platform.devices) keys.push_back(device.key);
  }
  return keys;
}

std::vector<std::string> keys_of(const polydev::cuda::Inventory& inventory) {
  std::vector<std::string> keys;
  for (const auto& device : inventory.devices) keys.push_back(device.key);
  return keys;
}

void expect_unique_key_text(const std::vector<std::string>& keys) {
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size())
      << testing::PrintToString(keys);
  for (const std::string& key : keys) EXPECT_TRUE(is_key_text(key)) << key;
}

polydev::opencl::Inventory one_platform(const std::string& name,
                                        const std::vector<polydev_test::SyntheticDevice>& devices) {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  inventory.platforms.push_back(make_platform(0, name, "Vendor", "OpenCL 3.0", devices));
  polydev::opencl::assign_keys(inventory);
  return inventory;
}

// --- slug -------------------------------------------------------------------------------------

TEST(Slug, LowerCasesAndJoinsWordsWithOneUnderscore) {
  EXPECT_EQ(slug("NVIDIA H100 80GB HBM3"), "nvidia_h100_80gb_hbm3");
  EXPECT_EQ(slug("cpu-skylake-avx512"), "cpu_skylake_avx512");
  EXPECT_EQ(slug("a  --  b"), "a_b");
}

TEST(Slug, DropsLeadingAndTrailingSeparators) {
  EXPECT_EQ(slug("  (gfx1100)  "), "gfx1100");
  EXPECT_EQ(slug("_x_"), "x");
}

TEST(Slug, TextWithoutLetterOrDigitIsUnnamed) {
  EXPECT_EQ(slug(""), "unnamed");
  EXPECT_EQ(slug("---"), "unnamed");
  EXPECT_EQ(slug("\xc3\xa9\xe2\x84\xa2"), "unnamed");  // "é™" in UTF-8
}

TEST(Slug, NonAsciiBytesAreSeparators) {
  EXPECT_EQ(slug("Ger\xc3\xa4t 2"), "ger_t_2");  // "Gerät 2"
}

// --- pci_key_suffix ---------------------------------------------------------------------------

TEST(PciKeySuffix, CudaStyleEightDigitDomain) {
  EXPECT_EQ(pci_key_suffix("00000000:1B:00.0"), "pci_1b_00");
}

TEST(PciKeySuffix, FourDigitDomainAndLowerCase) {
  EXPECT_EQ(pci_key_suffix("0000:1b:00.0"), "pci_1b_00");
  EXPECT_EQ(pci_key_suffix("0000:c1:1f.0"), "pci_c1_1f");
}

TEST(PciKeySuffix, NonzeroDomainComesFirst) {
  EXPECT_EQ(pci_key_suffix("0001:02:03.0"), "pci_0001_02_03");
}

TEST(PciKeySuffix, NonzeroFunctionComesLast) {
  EXPECT_EQ(pci_key_suffix("0000:1b:00.1"), "pci_1b_00_1");
  EXPECT_EQ(pci_key_suffix("0002:81:00.7"), "pci_0002_81_00_7");
}

TEST(PciKeySuffix, TextThatIsNotAnAddressGivesNothing) {
  EXPECT_FALSE(pci_key_suffix("").has_value());
  EXPECT_FALSE(pci_key_suffix("garbage").has_value());
  EXPECT_FALSE(pci_key_suffix("0000:1b:00").has_value());
  EXPECT_FALSE(pci_key_suffix("0000:zz:00.0").has_value());
  EXPECT_FALSE(pci_key_suffix("0000::00.0").has_value());
  EXPECT_FALSE(pci_key_suffix("0000:1b:00.").has_value());
  EXPECT_FALSE(pci_key_suffix("000000000:1b:00.0").has_value());  // more than 8 hex digits
}

// Found by tests/fuzz/fuzz_device_keys: numbers beyond PCI's ranges made two addresses share one
// suffix, e.g. "0:1234:05.10" and "1234:05:10.0" both gave pci_1234_05_10.
TEST(PciKeySuffix, FieldsBeyondPciRangesGiveNothing) {
  EXPECT_FALSE(pci_key_suffix("0:1234:05.10").has_value());      // bus > 0xff, function > 7
  EXPECT_FALSE(pci_key_suffix("0000:100:00.0").has_value());     // bus > 0xff
  EXPECT_FALSE(pci_key_suffix("00000000:2C:20.1").has_value());  // device > 0x1f
  EXPECT_FALSE(pci_key_suffix("0000:1b:00.8").has_value());      // function > 7
  EXPECT_EQ(pci_key_suffix("1234:05:10.0"), "pci_1234_05_10");
  EXPECT_EQ(pci_key_suffix("ffffffff:ff:1f.7"), "pci_ffffffff_ff_1f_7");
}

// --- opencl_platform_word ---------------------------------------------------------------------

TEST(OpenclPlatformWord, KnownPlatformsGetAShortWord) {
  EXPECT_EQ(opencl_platform_word("Portable Computing Language"), "pocl");
  EXPECT_EQ(opencl_platform_word("NVIDIA CUDA"), "nvidia");
  EXPECT_EQ(opencl_platform_word("Intel(R) OpenCL Graphics"), "intel");
  EXPECT_EQ(opencl_platform_word("AMD Accelerated Parallel Processing"), "amd");
  EXPECT_EQ(opencl_platform_word("Apple"), "apple");
  EXPECT_EQ(opencl_platform_word("rusticl"), "rusticl");
  EXPECT_EQ(opencl_platform_word("Clover"), "clover");
}

TEST(OpenclPlatformWord, UnknownPlatformsUseTheirSlugCutTo24Characters) {
  EXPECT_EQ(opencl_platform_word("Xilinx"), "xilinx");
  EXPECT_EQ(opencl_platform_word("A Very Long Platform Name For Testing"),
            "a_very_long_platform_nam");
}

// Found by tests/fuzz/fuzz_device_keys: a cut right after a '_' left it at the end, and the key
// then held "__" ("opencl_" + "1portable_computing_ead_" + "_" + device word).
TEST(OpenclPlatformWord, CutDropsATrailingSeparator) {
  EXPECT_EQ(opencl_platform_word("1Portable Computing ead-haswell"), "1portable_computing_ead");
  EXPECT_EQ(polydev::shorten_slug("intel_xeon_gold", 11), "intel_xeon");
  EXPECT_EQ(polydev::shorten_slug("intel_xeon", 48), "intel_xeon");
}

TEST(OpenclKeys, LongDeviceNamesCutWithoutADoubleSeparator) {
  // slug: 47 characters of "a", then "_b": the cut at 48 falls right after the '_'.
  const auto inventory = one_platform("NVIDIA CUDA", {{std::string(47, 'a') + " b", "NVIDIA"}});
  EXPECT_THAT(keys_of(inventory), ElementsAre("opencl_nvidia_" + std::string(47, 'a') + "_0"));
}

TEST(CudaKeys, LongNamesCutWithoutADoubleSeparator) {
  polydev::cuda::Inventory inventory;
  polydev::cuda::DeviceInfo device;
  device.name = std::string(47, 'a') + " b";
  device.pci_bus_id = "0000:1b:00.0";
  inventory.devices.push_back(device);
  polydev::cuda::assign_keys(inventory);
  ASSERT_EQ(inventory.devices.size(), 1u);
  EXPECT_EQ(inventory.devices[0].key, "cuda_" + std::string(47, 'a') + "_pci_1b_00");
}

// --- OpenCL keys ------------------------------------------------------------------------------

TEST(OpenclKeys, SyntheticMachine) {
  const auto keys = keys_of(polydev_test::synthetic_opencl_inventory());
  expect_unique_key_text(keys);
  ASSERT_EQ(keys.size(), 5u);
  // How "(R)"/"(TM)" are spelled in a key is slug's business; the structure is checked here.
  // The platform word "intel" is not repeated: "opencl_" + "intel_..." rather than "intel_intel_".
  EXPECT_EQ(keys[0], "opencl_" + slug("Intel(R) Core(TM) i5 CPU") + "_0");
  EXPECT_EQ(keys[1], "opencl_" + slug("Intel(R) Iris(TM) Graphics") + "_0");
  EXPECT_EQ(keys[2], "opencl_nvidia_h100_0");
  EXPECT_EQ(keys[3], "opencl_nvidia_a100_0");
  EXPECT_EQ(keys[4], "opencl_pocl_" + slug("cpu-skylake-avx512-Intel(R) Xeon(R)") + "_0");
}

TEST(OpenclKeys, IdenticalDevicesWithoutPciAddressGetTheirRank) {
  const auto inventory =
      one_platform("NVIDIA CUDA", {{"NVIDIA H100", "NVIDIA"}, {"NVIDIA H100", "NVIDIA"}});
  EXPECT_THAT(keys_of(inventory), ElementsAre("opencl_nvidia_h100_0", "opencl_nvidia_h100_1"));
}

TEST(OpenclKeys, RankCountsOnlyDevicesOfTheSameName) {
  const auto inventory = one_platform(
      "NVIDIA CUDA",
      {{"NVIDIA H100", "NVIDIA"}, {"NVIDIA A100", "NVIDIA"}, {"NVIDIA H100", "NVIDIA"}});
  EXPECT_THAT(keys_of(inventory),
              ElementsAre("opencl_nvidia_h100_0", "opencl_nvidia_a100_0", "opencl_nvidia_h100_1"));
}

TEST(OpenclKeys, PciAddressNamesTheBoard) {
  const auto inventory =
      one_platform("NVIDIA CUDA", {{"NVIDIA H100", "NVIDIA", "gpu", "0000:2c:00.0"},
                                   {"NVIDIA H100", "NVIDIA", "gpu", "0000:1b:00.0"}});
  EXPECT_THAT(keys_of(inventory),
              ElementsAre("opencl_nvidia_h100_pci_2c_00", "opencl_nvidia_h100_pci_1b_00"));
}

TEST(OpenclKeys, UnparsablePciAddressFallsBackToTheRank) {
  const auto inventory = one_platform("NVIDIA CUDA", {{"NVIDIA H100", "NVIDIA", "gpu", "unknown"}});
  EXPECT_THAT(keys_of(inventory), ElementsAre("opencl_nvidia_h100_0"));
}

TEST(OpenclKeys, PlatformWordIsNotRepeatedInTheDeviceWord) {
  const auto inventory = one_platform("Clover", {{"Clover GPU", "Mesa"}, {"Clover", "Mesa"}});
  // A device named exactly like the platform keeps its word.
  EXPECT_THAT(keys_of(inventory), ElementsAre("opencl_clover_gpu_0", "opencl_clover_clover_0"));
}

TEST(OpenclKeys, TwoPlatformsWithTheSameWordGetAPlatformSuffix) {
  polydev::opencl::Inventory inventory;
  inventory.platforms.push_back(make_platform(0, "Portable Computing Language", "The pocl project",
                                              "OpenCL 3.0", {{"cpu", "GenuineIntel"}}));
  inventory.platforms.push_back(
      make_platform(1, "NVIDIA CUDA", "NVIDIA", "OpenCL 3.0", {{"NVIDIA H100", "NVIDIA"}}));
  inventory.platforms.push_back(make_platform(2, "Portable Computing Language", "The pocl project",
                                              "OpenCL 3.0", {{"cpu", "GenuineIntel"}}));
  polydev::opencl::assign_keys(inventory);
  EXPECT_THAT(keys_of(inventory),
              ElementsAre("opencl_pocl_cpu_0_p0", "opencl_nvidia_h100_0", "opencl_pocl_cpu_0_p2"));
}

TEST(OpenclKeys, OnePciAddressReportedTwiceInOnePlatformStillGivesUniqueKeys) {
  const auto inventory = one_platform(
      "AMD Accelerated Parallel Processing",
      {{"gfx90a", "AMD", "gpu", "0000:00:00.0"}, {"gfx90a", "AMD", "gpu", "0000:00:00.0"}});
  expect_unique_key_text(keys_of(inventory));
  EXPECT_THAT(keys_of(inventory), ElementsAre("opencl_amd_gfx90a_pci_00_00_p0_d0",
                                              "opencl_amd_gfx90a_pci_00_00_p0_d1"));
}

TEST(OpenclKeys, NamesThatDifferOnlyInPunctuationGetUniqueKeys) {
  const auto inventory = one_platform("Acme", {{"Acme GPU-1", "Acme"}, {"Acme GPU 1", "Acme"}});
  EXPECT_THAT(keys_of(inventory), ElementsAre("opencl_acme_gpu_1_0", "opencl_acme_gpu_1_1"));
}

TEST(OpenclKeys, NamesThatDifferOnlyBeyondTheCutGetUniqueKeys) {
  const std::string common(60, 'x');
  const auto inventory = one_platform("Acme", {{common + " A", "Acme"}, {common + " B", "Acme"}});
  EXPECT_THAT(keys_of(inventory), ElementsAre("opencl_acme_" + std::string(48, 'x') + "_0",
                                              "opencl_acme_" + std::string(48, 'x') + "_1"));
}

TEST(OpenclKeys, OddNamesGiveOnlyKeyCharacters) {
  const auto inventory = one_platform(
      "Plat\xc3\xa9"
      "form \"X\"/2",
      {{"Ger\xc3\xa4t\t<1>", "v"}, {"", "v"}, {"!!!", "v"}});
  const auto keys = keys_of(inventory);
  expect_unique_key_text(keys);
  EXPECT_THAT(keys, ElementsAre("opencl_plat_form_x_2_ger_t_1_0", "opencl_plat_form_x_2_unnamed_0",
                                "opencl_plat_form_x_2_unnamed_1"));
}

TEST(OpenclKeys, AssigningAgainGivesTheSameKeys) {
  auto inventory = polydev_test::synthetic_opencl_inventory();
  const auto first = keys_of(inventory);
  polydev::opencl::assign_keys(inventory);
  EXPECT_EQ(keys_of(inventory), first);
}

// --- CUDA keys --------------------------------------------------------------------------------

polydev::cuda::DeviceInfo cuda_device(int ordinal, std::string name, std::string pci,
                                      std::string uuid = {}) {
  polydev::cuda::DeviceInfo device;
  device.ordinal = ordinal;
  device.name = std::move(name);
  device.pci_bus_id = std::move(pci);
  device.uuid = std::move(uuid);
  return device;
}

TEST(CudaKeys, IdenticalBoardsAtDifferentPciAddressesGetDifferentKeys) {
  const auto inventory = polydev_test::synthetic_cuda_inventory();
  EXPECT_THAT(keys_of(inventory),
              ElementsAre("cuda_nvidia_h200_pci_1b_00", "cuda_nvidia_h200_pci_2c_00"));
}

TEST(CudaKeys, UuidIsUsedWithoutPciAddress) {
  polydev::cuda::Inventory inventory;
  inventory.devices.push_back(
      cuda_device(0, "NVIDIA H200", "", "GPU-1a2b3c4d-2222-3333-4444-555555555555"));
  polydev::cuda::assign_keys(inventory);
  EXPECT_THAT(keys_of(inventory), ElementsAre("cuda_nvidia_h200_uuid_1a2b3c4d"));
}

TEST(CudaKeys, OrdinalIsUsedWithoutPciAddressOrUuid) {
  polydev::cuda::Inventory inventory;
  inventory.devices.push_back(cuda_device(0, "NVIDIA H200", ""));
  inventory.devices.push_back(cuda_device(1, "NVIDIA H200", ""));
  polydev::cuda::assign_keys(inventory);
  EXPECT_THAT(keys_of(inventory), ElementsAre("cuda_nvidia_h200_0", "cuda_nvidia_h200_1"));
}

TEST(CudaKeys, SamePciAddressTwiceGetsTheOrdinalAppended) {
  polydev::cuda::Inventory inventory;
  inventory.devices.push_back(cuda_device(0, "NVIDIA H200", "00000000:1B:00.0"));
  inventory.devices.push_back(cuda_device(1, "NVIDIA H200", "00000000:1B:00.0"));
  inventory.devices.push_back(cuda_device(2, "NVIDIA H200", "00000000:2C:00.0"));
  polydev::cuda::assign_keys(inventory);
  EXPECT_THAT(keys_of(inventory),
              ElementsAre("cuda_nvidia_h200_pci_1b_00_0", "cuda_nvidia_h200_pci_1b_00_1",
                          "cuda_nvidia_h200_pci_2c_00"));
}

TEST(CudaKeys, OddNamesGiveOnlyKeyCharacters) {
  polydev::cuda::Inventory inventory;
  inventory.devices.push_back(cuda_device(0, "NVIDIA RTX\xe2\x84\xa2 6000 (Ada)", "0001:81:00.0"));
  inventory.devices.push_back(cuda_device(1, "", "bogus"));
  polydev::cuda::assign_keys(inventory);
  const auto keys = keys_of(inventory);
  expect_unique_key_text(keys);
  EXPECT_THAT(keys, ElementsAre("cuda_nvidia_rtx_6000_ada_pci_0001_81_00", "cuda_unnamed_1"));
}

}  // namespace
