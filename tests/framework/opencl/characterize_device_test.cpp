// What PyOpenCL's characterize functions answer for each vendor's devices, row by row, on synthetic
// devices; and the rules that polydev fixes (the "ati" in "Corporation").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/characterize.hpp"
#include "support/synthetic_facts.hpp"

namespace {

using namespace polydev::opencl;
using namespace polydev_test;
using ::testing::HasSubstr;

// One answer of a rule that may throw: its value, or the error's message.
template <typename T>
struct Outcome {
  std::optional<T> value;
  std::string error;
};

template <typename T>
Outcome<T> outcome(const std::function<T()>& rule) {
  try {
    return {rule(), {}};
  } catch (const polydev::error& failure) {
    return {std::nullopt, failure.what()};
  }
}

constexpr int kError = -1;  // the rule throws
constexpr int kNone = -2;   // nullopt (PyOpenCL's None)

struct MatrixRow {
  const char* name;
  DeviceFacts facts;
  bool strict_aliasing;
  int simd_group_size;  // a size, kError or kNone
  int bank_count;       // a count or kError
  bool bank_count_noted;
  unsigned simultaneous;
  bool simultaneous_noted;
  StructArgCountBug struct_arg_bug;
  std::optional<bool> src_build_cache;
};

void PrintTo(const MatrixRow& row, std::ostream* out) { *out << row.name; }

class VendorMatrix : public ::testing::TestWithParam<MatrixRow> {};

TEST_P(VendorMatrix, FastInaccurateBuildOptions) {
  const auto options = get_fast_inaccurate_build_options(GetParam().facts);
  std::vector<std::string> expected = {"-cl-mad-enable", "-cl-fast-relaxed-math",
                                       "-cl-no-signed-zeros"};
  if (GetParam().strict_aliasing) expected.emplace_back("-cl-strict-aliasing");
  EXPECT_EQ(options, expected);
}

TEST_P(VendorMatrix, SimdGroupSize) {
  const auto answer =
      outcome<std::optional<std::size_t>>([&] { return get_simd_group_size(GetParam().facts); });
  switch (GetParam().simd_group_size) {
    case kError:
      EXPECT_FALSE(answer.value) << "expected an error, got a value";
      EXPECT_THAT(answer.error, HasSubstr("get_simd_group_size"));
      break;
    case kNone:
      ASSERT_TRUE(answer.value) << answer.error;
      EXPECT_EQ(*answer.value, std::nullopt);
      break;
    default:
      ASSERT_TRUE(answer.value) << answer.error;
      EXPECT_EQ(*answer.value, std::optional<std::size_t>(GetParam().simd_group_size));
  }
}

TEST_P(VendorMatrix, LocalMemoryBankCount) {
  const auto answer =
      outcome<Noted<unsigned>>([&] { return local_memory_bank_count(GetParam().facts); });
  if (GetParam().bank_count == kError) {
    EXPECT_FALSE(answer.value);
    EXPECT_THAT(answer.error, HasSubstr("cache-based"));
    return;
  }
  ASSERT_TRUE(answer.value) << answer.error;
  EXPECT_EQ(answer.value->value, static_cast<unsigned>(GetParam().bank_count));
  EXPECT_EQ(answer.value->notes.size(), GetParam().bank_count_noted ? 1u : 0u);
}

TEST_P(VendorMatrix, SimultaneousWorkItems) {
  const Noted<unsigned> answer = simultaneous_work_items_on_local_access(GetParam().facts);
  EXPECT_EQ(answer.value, GetParam().simultaneous);
  EXPECT_EQ(answer.notes.size(), GetParam().simultaneous_noted ? 1u : 0u);
}

TEST_P(VendorMatrix, StructArgCountBug) {
  EXPECT_EQ(has_struct_arg_count_bug(GetParam().facts), GetParam().struct_arg_bug);
}

TEST_P(VendorMatrix, SrcBuildCache) {
  EXPECT_EQ(has_src_build_cache(GetParam().facts), GetParam().src_build_cache);
}

TEST_P(VendorMatrix, LocalMemoryAccessGranularityIsFourBytes) {
  EXPECT_EQ(local_memory_access_granularity(GetParam().facts), 4u);
}

DeviceFacts with_pocl_version(const char* version) { return pocl_cpu(version); }

INSTANTIATE_TEST_SUITE_P(
    Rows, VendorMatrix,
    ::testing::Values(
        MatrixRow{"nvidia_cc_1_3", nvidia_gpu({1, 3}), true, 32, 16, false, 16, false,
                  StructArgCountBug::none, true},
        MatrixRow{"nvidia_cc_2_0", nvidia_gpu({2, 0}), true, 32, 32, false, 32, false,
                  StructArgCountBug::none, true},
        MatrixRow{"nvidia_cc_9_0", nvidia_gpu({9, 0}), true, 32, 32, true, 32, true,
                  StructArgCountBug::none, true},
        MatrixRow{"nvidia_without_attributes", nvidia_gpu_without_attributes(), true, 32, 16, true,
                  16, true, StructArgCountBug::none, std::nullopt},
        MatrixRow{"amd_gpu", amd("gpu", 64), true, 64, 16, true, 16, true, StructArgCountBug::none,
                  false},
        MatrixRow{"amd_cpu", amd("cpu"), false, 1, kError, false, 1, false, StructArgCountBug::none,
                  false},
        MatrixRow{"amd_accelerator", amd("accelerator"), true, kError, 16, true, 16, true,
                  StructArgCountBug::none, false},
        // PyOpenCL: the kernel probe's 32 (its "ati" matches "Corporation"); polydev: unknown.
        MatrixRow{"intel_gpu", intel("gpu"), false, kNone, 16, true, 16, true,
                  StructArgCountBug::none, std::nullopt},
        MatrixRow{"intel_cpu", intel("cpu"), false, 1, kError, false, 1, false,
                  StructArgCountBug::none, std::nullopt},
        MatrixRow{"apple_cpu", apple_cpu(), false, 1, kError, false, 1, false,
                  StructArgCountBug::apple, std::nullopt},
        MatrixRow{"pocl_3_1_cpu", pocl_cpu(), false, 1, kError, false, 1, false,
                  StructArgCountBug::none, true},
        MatrixRow{"pocl_0_13_cpu", with_pocl_version("OpenCL 1.2 pocl 0.13"), false, 1, kError,
                  false, 1, false, StructArgCountBug::pocl, true},
        MatrixRow{"arm_mali_gpu", arm_mali_gpu(), false, kNone, 16, true, 16, true,
                  StructArgCountBug::none, std::nullopt}),
    [](const ::testing::TestParamInfo<MatrixRow>& row) { return std::string(row.param.name); });

TEST(Characterize, AtiMatchesAsAWordOnly) {
  DeviceFacts ati = make_facts("ATI Stream", "ATI Technologies Inc.", "OpenCL 1.1 ATI-Stream-v2.3",
                               "Cypress", "ATI Technologies Inc.", "gpu");
  ati.kernel_work_group_size_multiple = 64;
  EXPECT_EQ(get_simd_group_size(ati), std::optional<std::size_t>(64));
  // "Corporation", "Automation", "Ratio": the letters, not the word.
  for (const char* vendor : {"Intel(R) Corporation", "Automation Systems", "Ratio Labs"}) {
    DeviceFacts other = make_facts("Other", vendor, "OpenCL 3.0 x", "Some GPU", vendor, "gpu");
    other.kernel_work_group_size_multiple = 64;
    EXPECT_EQ(get_simd_group_size(other), std::nullopt) << vendor;
  }
}

TEST(Characterize, AmdGpuWithoutTheKernelProbeSaysHowToGetIt) {
  const auto answer = outcome<std::optional<std::size_t>>(
      [] { return get_simd_group_size(amd("gpu", std::nullopt)); });
  EXPECT_FALSE(answer.value);
  EXPECT_THAT(answer.error, HasSubstr("query_device_facts_with_probes"));
}

TEST(Characterize, StrictAliasingNeedsTheVendorPrefixInItsOwnCase) {
  DeviceFacts lower_case = nvidia_gpu({9, 0});
  lower_case.descriptor.device.vendor = "nvidia corporation";
  EXPECT_EQ(get_fast_inaccurate_build_options(lower_case).size(), 3u);
  DeviceFacts inside = nvidia_gpu({9, 0});
  inside.descriptor.device.vendor = "The NVIDIA Corporation";
  EXPECT_EQ(get_fast_inaccurate_build_options(inside).size(), 3u);
}

TEST(Characterize, ReasonableWorkGroupSizeMultiple) {
  EXPECT_EQ(reasonable_work_group_size_multiple(nvidia_gpu({9, 0})), 32u);
  EXPECT_EQ(reasonable_work_group_size_multiple(amd("gpu", 64)), 64u);
  DeviceFacts cpu = pocl_cpu();
  cpu.kernel_work_group_size_multiple = 8;
  EXPECT_EQ(reasonable_work_group_size_multiple(cpu), 8u);
  cpu.kernel_work_group_size_multiple.reset();
  const auto answer =
      outcome<std::size_t>([&] { return reasonable_work_group_size_multiple(cpu); });
  EXPECT_FALSE(answer.value);
  EXPECT_THAT(answer.error, HasSubstr("kernel_work_group_size_multiple"));
  EXPECT_THAT(answer.error, HasSubstr("pthread-skylake-avx512-AMD EPYC"));
}

TEST(Characterize, UsableLocalMemSize) {
  EXPECT_EQ(usable_local_mem_size(nvidia_gpu({1, 3}, 16384)), 16128u);
  EXPECT_EQ(usable_local_mem_size(nvidia_gpu({1, 3}, 16384), 10), 16384u - 40u);
  EXPECT_EQ(usable_local_mem_size(nvidia_gpu({2, 0}, 49152)), 49152u);
  EXPECT_EQ(usable_local_mem_size(nvidia_gpu({9, 0}, 49152), 10), 49152u);
  EXPECT_EQ(usable_local_mem_size(pocl_cpu()), 4u * 1024 * 1024);
  EXPECT_EQ(usable_local_mem_size(amd("gpu")), 48u * 1024);
}

TEST(Characterize, UsableLocalMemSizeRejectsArgumentsThatCannotFit) {
  const auto too_many = outcome<std::uint64_t>([] {
    return usable_local_mem_size(nvidia_gpu({1, 3}, 16384), 4097);
  });
  EXPECT_FALSE(too_many.value);
  EXPECT_THAT(too_many.error, HasSubstr("4097 arguments"));
  EXPECT_THAT(too_many.error, HasSubstr("16384 bytes"));
  const auto tiny = outcome<std::uint64_t>([] {
    return usable_local_mem_size(nvidia_gpu({1, 0}, 128));
  });
  EXPECT_FALSE(tiny.value);
  EXPECT_THAT(tiny.error, HasSubstr("pass nargs"));
  EXPECT_EQ(usable_local_mem_size(nvidia_gpu({1, 0}, 128), 32), 0u);
}

TEST(Characterize, BankCountOnACpuWithDedicatedLocalMemoryIsAGuess) {
  DeviceFacts cpu = intel("cpu");
  cpu.local_memory_type = LocalMemoryType::local;
  const Noted<unsigned> banks = local_memory_bank_count(cpu);
  EXPECT_EQ(banks.value, 16u);
  ASSERT_EQ(banks.notes.size(), 1u);
  EXPECT_THAT(banks.notes[0], HasSubstr("of type 'cpu'"));
}

TEST(Characterize, NotesNameTheDeviceAndTheGuess) {
  const Noted<unsigned> nvidia = simultaneous_work_items_on_local_access(nvidia_gpu({9, 0}));
  ASSERT_EQ(nvidia.notes.size(), 1u);
  EXPECT_THAT(nvidia.notes[0], HasSubstr("'NVIDIA H100' (compute capability 9.0) is a guess"));
  const Noted<unsigned> mali = local_memory_bank_count(arm_mali_gpu());
  ASSERT_EQ(mali.notes.size(), 1u);
  EXPECT_THAT(mali.notes[0], HasSubstr("16 is a guess for GPU 'Mali-G78'"));
}

TEST(Characterize, DoubleSupportIsAnExactExtensionToken) {
  EXPECT_TRUE(has_double_support(pocl_cpu()));
  EXPECT_FALSE(has_amd_double_support(pocl_cpu()));
  EXPECT_TRUE(has_amd_double_support(amd("gpu")));
  DeviceFacts near_miss = arm_mali_gpu();
  near_miss.descriptor.device.extensions = "cl_khr_fp64_extra xcl_khr_fp64 cl_khr_fp16";
  EXPECT_FALSE(has_double_support(near_miss));
  EXPECT_FALSE(has_double_support(arm_mali_gpu()));
}

TEST(Characterize, NvComputeCapabilityOnlyFromNvidiaAttributes) {
  EXPECT_EQ(nv_compute_capability(nvidia_gpu({8, 6})), (Version{8, 6}));
  EXPECT_EQ(nv_compute_capability(nvidia_gpu_without_attributes()), std::nullopt);
  EXPECT_EQ(nv_compute_capability(pocl_cpu()), std::nullopt);
}

}  // namespace
