// Version strings under the characterization rules: PoCL releases (and the fallback polydev uses
// where PyOpenCL fails), OpenCL versions, extension lists, and the SVM and struct-argument rules
// that depend on them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "polydev/error.hpp"
#include "polydev/opencl/characterize.hpp"
#include "support/synthetic_facts.hpp"

namespace {

using namespace polydev::opencl;
using namespace polydev_test;
using ::testing::HasSubstr;

PlatformInfo platform(const char* name, const char* version) {
  PlatformInfo info;
  info.name = name;
  info.version = version;
  return info;
}

TEST(PoclVersion, ParsesWhatPoclPrints) {
  const auto pocl3 = get_pocl_version(
      platform("Portable Computing Language",
               "OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, SPIR, LLVM 15.0.6"));
  EXPECT_EQ(pocl3.value, (Version{3, 1}));
  EXPECT_TRUE(pocl3.notes.empty());
  EXPECT_EQ(get_pocl_version(platform("Portable Computing Language", "OpenCL 1.2 pocl 0.13")).value,
            (Version{0, 13}));
  EXPECT_EQ(
      get_pocl_version(platform("Portable Computing Language", "OpenCL 3.0 PoCL 6.0-pre")).value,
      (Version{6, 0}));
  EXPECT_EQ(
      get_pocl_version(platform("Portable Computing Language", "OpenCL 2.0 pocL 12.34")).value,
      (Version{12, 34}));
}

TEST(PoclVersion, OtherPlatformsHaveNone) {
  const auto nvidia =
      get_pocl_version(platform("NVIDIA CUDA", "OpenCL 3.0 PoCL 3.1"), Version{1, 0});
  EXPECT_EQ(nvidia.value, std::nullopt);
  EXPECT_TRUE(nvidia.notes.empty());
}

TEST(PoclVersion, UnparsableGivesTheFallbackAndANote) {
  // "POCL": PoCL's pattern wants a lower-case 'o'.
  for (const char* version : {"OpenCL 3.0 POCL 3.1", "OpenCL 3.0 PoCL", "PoCL 3.1",
                              "OpenCL 3.0 PoCL 99999999999.1", "OpenCL 3.0  PoCL 3.1"}) {
    const auto none = get_pocl_version(platform("Portable Computing Language", version));
    EXPECT_EQ(none.value, std::nullopt) << version;
    ASSERT_EQ(none.notes.size(), 1u) << version;
    EXPECT_THAT(none.notes[0], HasSubstr(std::string("'") + version + "'"));
    EXPECT_THAT(none.notes[0], HasSubstr("using no version"));
    const auto fallback =
        get_pocl_version(platform("Portable Computing Language", version), Version{0, 14});
    EXPECT_EQ(fallback.value, (Version{0, 14})) << version;
    EXPECT_THAT(fallback.notes.at(0), HasSubstr("using the fallback 0.14"));
  }
}

TEST(OpenCLVersion, ParsesThePrescribedFormat) {
  EXPECT_EQ(parse_opencl_version("OpenCL 3.0 CUDA 13.0.88"), (Version{3, 0}));
  EXPECT_EQ(parse_opencl_version("OpenCL 1.2 "), (Version{1, 2}));
  EXPECT_EQ(parse_opencl_version("OpenCL 12.34 x"), (Version{12, 34}));
  for (const char* bad : {"OpenCL 1.2", "opencl 3.0 x", "OpenCL 3 x", "OpenCL .0 x", "OpenCL 3. x",
                          "OpenCL 3.0x", "OpenCL 99999999999.0 x", "", "OpenCL  3.0 x"}) {
    EXPECT_EQ(parse_opencl_version(bad), std::nullopt) << bad;
  }
}

TEST(Extensions, SplitOnSingleSpacesExactTokens) {
  const char* list = "cl_khr_icd  cl_khr_fp64   cl_khr_fp16";
  EXPECT_TRUE(has_extension(list, "cl_khr_icd"));
  EXPECT_TRUE(has_extension(list, "cl_khr_fp64"));
  EXPECT_TRUE(has_extension(list, "cl_khr_fp16"));
  EXPECT_FALSE(has_extension(list, "cl_khr"));
  EXPECT_FALSE(has_extension(list, "cl_khr_fp6"));
  EXPECT_FALSE(has_extension(list, "khr_fp16"));
  EXPECT_FALSE(has_extension("", "cl_khr_fp64"));
}

TEST(Version, OrdersAsATuple) {
  EXPECT_LT((Version{1, 3}), (Version{2, 0}));
  EXPECT_LT((Version{2, 0}), (Version{2, 1}));
  EXPECT_LE((Version{0, 14}), (Version{0, 14}));
  EXPECT_GT((Version{10, 0}), (Version{9, 9}));
  EXPECT_EQ(to_string(Version{9, 0}), "9.0");
}

constexpr std::uint64_t kCoarseAndFine = svm_coarse_grain_buffer | svm_fine_grain_buffer;

TEST(Svm, PoclThreeOneCpu) {
  DeviceFacts pocl = pocl_cpu();
  pocl.descriptor.device.svm_capabilities = kCoarseAndFine;
  EXPECT_TRUE(may_have_svm(pocl));
  EXPECT_TRUE(has_coarse_grain_buffer_svm(pocl));
  EXPECT_TRUE(has_fine_grain_buffer_svm(pocl));
  EXPECT_FALSE(has_fine_grain_system_svm(pocl));
  EXPECT_FALSE(has_fine_grain_buffer_svm_atomics(pocl));
  EXPECT_FALSE(has_fine_grain_system_svm_atomics(pocl));
}

TEST(Svm, AtomicsNeedTheirGrainToo) {
  DeviceFacts device = nvidia_gpu({9, 0});
  device.descriptor.device.svm_capabilities = svm_coarse_grain_buffer | svm_atomics;
  EXPECT_FALSE(has_fine_grain_buffer_svm_atomics(device));
  device.descriptor.device.svm_capabilities = kCoarseAndFine | svm_atomics;
  EXPECT_TRUE(has_fine_grain_buffer_svm_atomics(device));
  EXPECT_FALSE(has_fine_grain_system_svm_atomics(device));
  device.descriptor.device.svm_capabilities |= svm_fine_grain_system;
  EXPECT_TRUE(has_fine_grain_system_svm_atomics(device));
}

TEST(Svm, PlatformBeforeOpenCL2HasNoneWhateverTheBits) {
  DeviceFacts old = apple_cpu();  // "OpenCL 1.2 (Nov 13 2023)"
  old.descriptor.device.svm_capabilities = kCoarseAndFine;
  EXPECT_FALSE(has_coarse_grain_buffer_svm(old));
  DeviceFacts garbled = arm_mali_gpu();
  garbled.descriptor.platform.version = "OpenCL3.0";
  garbled.descriptor.device.svm_capabilities = kCoarseAndFine;
  EXPECT_FALSE(may_have_svm(garbled));
}

TEST(Svm, PoclReleaseDecidesOnPocl) {
  DeviceFacts early = pocl_cpu("OpenCL 2.0 pocl 0.15");
  early.descriptor.device.svm_capabilities = kCoarseAndFine;
  EXPECT_FALSE(has_coarse_grain_buffer_svm(early));
  DeviceFacts one = pocl_cpu("OpenCL 1.2 pocl 1.0");
  one.descriptor.device.svm_capabilities = kCoarseAndFine;
  EXPECT_TRUE(has_coarse_grain_buffer_svm(one));
}

TEST(Svm, UnparsablePoclVersionFallsBackToThePlatformVersion) {
  // PyOpenCL raises TypeError here (None >= (1, 0)).
  DeviceFacts modern = pocl_cpu("OpenCL 3.0 PoCL-git");
  modern.descriptor.device.svm_capabilities = kCoarseAndFine;
  EXPECT_TRUE(has_coarse_grain_buffer_svm(modern));
  DeviceFacts old = pocl_cpu("OpenCL 1.2 pocl-git");
  old.descriptor.device.svm_capabilities = kCoarseAndFine;
  EXPECT_FALSE(has_coarse_grain_buffer_svm(old));
}

TEST(StructArgCountBug, PoclFourteenFollowsTheProbe) {
  DeviceFacts pocl = pocl_cpu("OpenCL 1.2 pocl 0.14");
  EXPECT_TRUE(needs_struct_arg_count_probe(pocl));
  pocl.struct_arg_count_probe = true;
  EXPECT_EQ(has_struct_arg_count_bug(pocl), StructArgCountBug::pocl);
  pocl.struct_arg_count_probe = false;
  EXPECT_EQ(has_struct_arg_count_bug(pocl), StructArgCountBug::none);
}

TEST(StructArgCountBug, UnparsablePoclVersionIsTakenAsFourteen) {
  DeviceFacts pocl = pocl_cpu("OpenCL 3.0 PoCL-git");
  EXPECT_TRUE(needs_struct_arg_count_probe(pocl));
  pocl.struct_arg_count_probe = true;
  EXPECT_EQ(has_struct_arg_count_bug(pocl), StructArgCountBug::pocl);
}

TEST(StructArgCountBug, WithoutTheNeededProbeSaysHowToGetIt) {
  try {
    has_struct_arg_count_bug(pocl_cpu("OpenCL 1.2 pocl 0.14"));
    FAIL() << "no error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("PoCL 0.14"));
    EXPECT_THAT(failure.what(), HasSubstr("query_device_facts_with_probes"));
  }
}

TEST(StructArgCountBug, OnlyPoclFourteenNeedsTheProbe) {
  EXPECT_FALSE(needs_struct_arg_count_probe(pocl_cpu()));
  EXPECT_FALSE(needs_struct_arg_count_probe(pocl_cpu("OpenCL 1.2 pocl 0.13")));
  EXPECT_FALSE(needs_struct_arg_count_probe(nvidia_gpu({9, 0})));
  EXPECT_FALSE(needs_struct_arg_count_probe(apple_cpu()));
  EXPECT_EQ(to_string(StructArgCountBug::none), "");
  EXPECT_EQ(to_string(StructArgCountBug::apple), "apple");
  EXPECT_EQ(to_string(StructArgCountBug::pocl), "pocl");
}

TEST(StructArgCountBug, AppleOnlyOnItsCpu) {
  DeviceFacts gpu = apple_cpu();
  gpu.descriptor.device.type = "gpu";
  EXPECT_EQ(has_struct_arg_count_bug(gpu), StructArgCountBug::none);
}

}  // namespace
