// Every characterization function on every selected OpenCL device, checked against what the
// device actually does: kernels that compile or not, local memory that can be used, the kernel
// work-group query, SVM allocations.
#include "polydev/opencl/characterize.hpp"

#include <algorithm>
#include <polydev/gtest.hpp>
#include <string>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/binary_cache.hpp"
#include "polydev/opencl/characterize_device.hpp"
#include "polydev/opencl/program_cache.hpp"

namespace {

namespace pc = polydev::opencl;

constexpr const char* kDoubleSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void twice(__global double* x) { x[get_global_id(0)] *= 2.0; }
)CLC";

// Fills a local array of `words` words from every work item and sums it back: uses all of it.
constexpr const char* kLocalSource = R"CLC(
__kernel void fill_local(__local uint* scratch, uint words, __global uint* sum) {
  const size_t lid = get_local_id(0);
  const size_t n = get_local_size(0);
  for (uint i = lid; i < words; i += n) scratch[i] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint total = 0;
    for (uint i = 0; i < words; ++i) total += scratch[i];
    sum[0] = total;
  }
}
)CLC";

class Characterize : public polydev::testing::OpenCLTest {
 protected:
  // Builds `source`; the status of clBuildProgram, with the log in `log`.
  cl_int build(const char* source, cl::Program& program, std::string& log,
               const std::string& options = "") {
    cl_int status = CL_SUCCESS;
    program = cl::Program(context(), source, /*build=*/false, &status);
    if (status != CL_SUCCESS) return status;
    status = program.build({device()}, options.c_str());
    log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device());
    return status;
  }

  pc::DeviceFacts facts() { return pc::query_device_facts(device()); }
};

TEST_P(Characterize, FactsDescribeTheSameDeviceAsTheInventory) {
  const pc::DeviceFacts live = facts();
  const auto& known = descriptor();
  EXPECT_EQ(live.descriptor.device.name, known.device.name);
  EXPECT_EQ(live.descriptor.device.vendor, known.device.vendor);
  EXPECT_EQ(live.descriptor.device.type, known.device.type);
  EXPECT_EQ(live.descriptor.device.extensions, known.device.extensions);
  EXPECT_EQ(live.descriptor.device.local_memory_bytes, known.device.local_memory_bytes);
  EXPECT_EQ(live.descriptor.device.svm_capabilities, known.device.svm_capabilities);
  EXPECT_EQ(live.descriptor.device.key, known.device.key);
  EXPECT_EQ(live.descriptor.platform.name, known.platform.name);
  EXPECT_EQ(live.descriptor.platform.version, known.platform.version);
  EXPECT_EQ(live.descriptor.platform.index, known.platform.index);
}

TEST_P(Characterize, DoubleSupportAgreesWithTheCompiler) {
  cl::Program program;
  std::string log;
  const cl_int status = build(kDoubleSource, program, log);
  if (pc::has_double_support(device())) {
    EXPECT_EQ(status, CL_SUCCESS) << "has_double_support, but a double kernel fails:\n" << log;
  } else {
    EXPECT_NE(status, CL_SUCCESS) << "no cl_khr_fp64, but a double kernel builds";
  }
}

TEST_P(Characterize, AmdDoubleSupportIsTheExtensionToken) {
  const std::string extensions = " " + descriptor().device.extensions + " ";
  EXPECT_EQ(pc::has_amd_double_support(device()),
            extensions.find(" cl_amd_fp64 ") != std::string::npos);
}

TEST_P(Characterize, FastInaccurateBuildOptionsAreAcceptedByTheCompiler) {
  const auto options = pc::get_fast_inaccurate_build_options(device());
  ASSERT_GE(options.size(), 3u);
  std::string joined;
  for (const auto& option : options) joined += option + " ";
  cl::Program program;
  std::string log;
  EXPECT_EQ(build(kLocalSource, program, log, joined), CL_SUCCESS) << joined << "\n" << log;
  const std::string& vendor = descriptor().device.vendor;
  const bool strict = vendor.rfind("NVIDIA", 0) == 0 || vendor.rfind("Advanced Micro", 0) == 0;
  EXPECT_EQ(options.back() == "-cl-strict-aliasing", strict) << vendor;
}

// A probe is built like any program of the process: after its first build on a kind of device the
// binary cache serves it, and no program (nor context) is kept for it.
TEST_P(Characterize, ProbesAreServedByTheBinaryCacheAndKeepNoProgram) {
  pc::ProgramBinaryCache* binaries = pc::process_binary_cache();
  if (binaries == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1: no binary cache serves the probes";
  const std::size_t kept = pc::cached_program_count();
  const std::size_t multiple = pc::kernel_preferred_work_group_size_multiple(device());
  const pc::ProgramBinaryCache::Statistics before = binaries->statistics();
  EXPECT_EQ(pc::kernel_preferred_work_group_size_multiple(device()), multiple);
  const pc::ProgramBinaryCache::Statistics after = binaries->statistics();
  EXPECT_EQ(after.misses, before.misses) << "the second probe was built from source";
  EXPECT_GT(after.memory_hits + after.file_hits, before.memory_hits + before.file_hits);
  EXPECT_EQ(pc::cached_program_count(), kept);
}

TEST_P(Characterize, ReasonableWorkGroupSizeMultipleMatchesTheKernelQuery) {
  const std::size_t multiple = pc::reasonable_work_group_size_multiple(device());
  EXPECT_GT(multiple, 0u);
  // An independent kernel: the preferred multiple is the device's, not the probe's.
  cl::Program program;
  std::string log;
  ASSERT_EQ(build(kLocalSource, program, log), CL_SUCCESS) << log;
  cl::Kernel kernel(program, "fill_local");
  std::size_t preferred = 0;
  ASSERT_EQ(
      kernel.getWorkGroupInfo(device(), CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, &preferred),
      CL_SUCCESS);
  const auto warp = facts().warp_size_nv;
  EXPECT_EQ(multiple, warp ? *warp : preferred);
  // In the fixture's own context, the same answer.
  EXPECT_EQ(pc::reasonable_work_group_size_multiple(device(), &context()), multiple);
}

TEST_P(Characterize, SimdGroupSize) {
  const auto size = pc::get_simd_group_size(device());
  const auto live = facts();
  if (live.warp_size_nv) {
    EXPECT_EQ(size, live.warp_size_nv);
  } else if (descriptor().device.type == "cpu") {
    EXPECT_EQ(size, std::optional<std::size_t>(1));
  } else if (size) {
    EXPECT_GT(*size, 0u);
    EXPECT_LE(*size, descriptor().device.max_work_group_size);
  }
}

TEST_P(Characterize, NvComputeCapabilityOnlyWithNvidiaAttributes) {
  const auto cc = pc::nv_compute_capability(device());
  const bool nv = pc::has_extension(descriptor().device.extensions, "cl_nv_device_attribute_query");
  if (!nv) {
    EXPECT_EQ(cc, std::nullopt);
    return;
  }
  ASSERT_TRUE(cc) << "NVIDIA's driver lists cl_nv_device_attribute_query but answers no cc";
  EXPECT_GE(cc->major, 1);
  // The CUDA runtime, when it sees the same board, reports the same compute capability.
  for (const auto& cuda : polydev::cuda::system_inventory().devices) {
    if (cuda.name != descriptor().device.name) continue;
    EXPECT_EQ(cc, (pc::Version{cuda.compute_capability_major, cuda.compute_capability_minor}))
        << "CUDA device " << cuda.ordinal;
  }
}

TEST_P(Characterize, UsableLocalMemoryIsUsable) {
  const std::uint64_t usable = pc::usable_local_mem_size(device());
  const auto local = device().getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  ASSERT_GT(usable, 0u);
  EXPECT_LE(usable, local);
  cl::Program program;
  std::string log;
  ASSERT_EQ(build(kLocalSource, program, log), CL_SUCCESS) << log;
  cl::Kernel kernel(program, "fill_local");
  // The kernel's own local use (none declared, but a compiler may add some) comes off the top.
  cl_ulong kernel_local = 0;
  ASSERT_EQ(kernel.getWorkGroupInfo(device(), CL_KERNEL_LOCAL_MEM_SIZE, &kernel_local), CL_SUCCESS);
  const std::uint64_t bytes = (usable - std::min<std::uint64_t>(usable, kernel_local)) / 4 * 4;
  const cl_uint words = static_cast<cl_uint>(bytes / 4);
  cl::Buffer sum(context(), CL_MEM_READ_WRITE, sizeof(cl_uint));
  ASSERT_EQ(kernel.setArg(0, cl::Local(bytes)), CL_SUCCESS);
  ASSERT_EQ(kernel.setArg(1, words), CL_SUCCESS);
  ASSERT_EQ(kernel.setArg(2, sum), CL_SUCCESS);
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1)),
            CL_SUCCESS)
      << "a work group with " << bytes << " bytes of local memory did not launch";
  cl_uint total = 0;
  ASSERT_EQ(queue().enqueueReadBuffer(sum, CL_TRUE, 0, sizeof total, &total), CL_SUCCESS);
  // Sum of 0..words-1, modulo 2^32 as the device computes it.
  const std::uint64_t n = words;
  EXPECT_EQ(total, static_cast<cl_uint>(n * (n - 1) / 2));
}

TEST_P(Characterize, LocalMemoryBanksAndSimultaneousWorkItems) {
  EXPECT_EQ(pc::local_memory_access_granularity(device()), 4u);
  const auto simultaneous = pc::simultaneous_work_items_on_local_access(device());
  const auto type = device().getInfo<CL_DEVICE_LOCAL_MEM_TYPE>();
  const auto live = facts();
  if (descriptor().device.type == "cpu" && !live.compute_capability_nv) {
    EXPECT_EQ(simultaneous.value, 1u);
    EXPECT_TRUE(simultaneous.notes.empty());
  } else {
    EXPECT_TRUE(simultaneous.value == 16u || simultaneous.value == 32u) << simultaneous.value;
  }
  if (descriptor().device.type == "cpu" && type == CL_GLOBAL && !live.compute_capability_nv) {
    EXPECT_THROW(pc::local_memory_bank_count(device()), polydev::error);
  } else {
    const auto banks = pc::local_memory_bank_count(device());
    EXPECT_TRUE(banks.value == 16u || banks.value == 32u) << banks.value;
  }
}

TEST_P(Characterize, LocalAccessConflicts) {
  const auto square = pc::why_not_local_access_conflict_free(device(), 4, {32, 32});
  const auto padded = pc::why_not_local_access_conflict_free(device(), 4, {32, 32}, {32, 33});
  EXPECT_EQ(padded.multiplicity, 1u) << padded.explanation.value_or("");
  const auto simultaneous = pc::simultaneous_work_items_on_local_access(device()).value;
  if (simultaneous == 1) {
    EXPECT_EQ(square.multiplicity, 1u);
    EXPECT_EQ(square.explanation, std::nullopt);
  } else {
    // Walking down a column of a 32-word-wide tile hits one bank with every work item.
    EXPECT_EQ(square.multiplicity, simultaneous);
    EXPECT_NE(square.explanation.value_or("").find("access bank 0"), std::string::npos);
  }
}

TEST_P(Characterize, PoclVersionIsThePlatformsAndTheDriversRelease) {
  const auto version = pc::get_pocl_version(platform());
  if (descriptor().platform.name != "Portable Computing Language") {
    EXPECT_EQ(version.value, std::nullopt);
    return;
  }
  ASSERT_TRUE(version.value) << version.notes.at(0);
  EXPECT_TRUE(version.notes.empty());
  // PoCL's driver version ("3.1+debian", "6.0") starts with the same release.
  const std::string release = pc::to_string(*version.value);
  EXPECT_EQ(descriptor().device.driver_version.rfind(release, 0), 0u)
      << descriptor().device.driver_version << " vs " << release;
  EXPECT_NE(descriptor().platform.version.find("PoCL " + release), std::string::npos);
}

TEST_P(Characterize, StructArgumentCountMatchesTheProbe) {
  const auto bug = pc::has_struct_arg_count_bug(device(), &context());
  if (descriptor().platform.name == "Apple" && descriptor().device.type == "cpu") {
    EXPECT_EQ(bug, pc::StructArgCountBug::apple);
    return;
  }
  // The bug belongs to PoCL 0.14 and older; a current driver counts one struct argument as one,
  // and the answer is then "none".
  EXPECT_FALSE(pc::struct_arg_count_probe(device(), &context()))
      << "a kernel with one struct argument reports 2 arguments";
  EXPECT_EQ(bug, pc::StructArgCountBug::none);
}

TEST_P(Characterize, SvmQueriesAgreeWithAllocations) {
  const bool coarse = pc::has_coarse_grain_buffer_svm(device());
  const bool fine = pc::has_fine_grain_buffer_svm(device());
  const bool system = pc::has_fine_grain_system_svm(device());
  const cl_device_svm_capabilities bits = descriptor().device.svm_capabilities;
  EXPECT_TRUE(!coarse || (bits & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0);
  EXPECT_TRUE(!fine || (bits & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0);
  EXPECT_TRUE(!system || (bits & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) != 0);
  EXPECT_EQ(pc::has_fine_grain_buffer_svm_atomics(device()),
            fine && (bits & CL_DEVICE_SVM_ATOMICS) != 0);
  EXPECT_EQ(pc::has_fine_grain_system_svm_atomics(device()),
            system && (bits & CL_DEVICE_SVM_ATOMICS) != 0);
  if (coarse) {
    void* pointer = clSVMAlloc(context()(), CL_MEM_READ_WRITE, 1024, 0);
    EXPECT_NE(pointer, nullptr) << "has_coarse_grain_buffer_svm, but clSVMAlloc fails";
    if (pointer) clSVMFree(context()(), pointer);
  }
  if (fine) {
    // Fine-grain buffers are usable from the host without mapping.
    auto* words = static_cast<cl_uint*>(
        clSVMAlloc(context()(), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0));
    ASSERT_NE(words, nullptr) << "has_fine_grain_buffer_svm, but clSVMAlloc fails";
    words[0] = 42;
    EXPECT_EQ(words[0], 42u);
    clSVMFree(context()(), words);
  }
}

TEST_P(Characterize, SrcBuildCache) {
  const auto cache = pc::has_src_build_cache(device());
  if (descriptor().platform.name == "Portable Computing Language" ||
      facts().compute_capability_nv) {
    EXPECT_EQ(cache, true);
  } else if (descriptor().platform.name == "AMD Accelerated Parallel Processing") {
    EXPECT_EQ(cache, false);
  } else {
    EXPECT_EQ(cache, std::nullopt);
  }
}

TEST_P(Characterize, ProbedFactsAnswerEveryRuleWithoutMoreQueries) {
  const pc::DeviceFacts probed = pc::query_device_facts_with_probes(device(), &context());
  EXPECT_EQ(pc::reasonable_work_group_size_multiple(probed),
            pc::reasonable_work_group_size_multiple(device()));
  EXPECT_EQ(pc::get_simd_group_size(probed), pc::get_simd_group_size(device()));
  EXPECT_EQ(pc::has_struct_arg_count_bug(probed), pc::has_struct_arg_count_bug(device()));
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(Characterize);

}  // namespace
