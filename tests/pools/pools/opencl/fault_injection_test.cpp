// Fault injection under the OpenCL pools: polydev::pools::Pool over FaultInjectingAllocator around
// each real OpenCL allocator (DeferredAllocator, ImmediateAllocator, SVMAllocator), on every
// selected device. Out-of-memory makes the pool free held blocks largest first and retry, and the
// block it then hands out is real device memory; when nothing helps, the error names the request
// and the pool; other errors pass through and free nothing; nothing leaks. The pool algorithm on
// its own (host memory, many threads) is tested in pool_core_test.cpp; the scenarios are
// fault_injection_scenarios.hpp's, shared with the CUDA pools.
#include <CL/opencl.hpp>
#include <cstddef>
#include <polydev/gtest.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/buffer_allocators.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/svm_allocator.hpp"
#include "polydev/pools/pool.hpp"
#include "support/fault_injecting_allocator.hpp"
#include "support/fault_injection_scenarios.hpp"
#include "support/opencl_checks.hpp"

namespace {

using polydev::opencl::DeferredAllocator;
using polydev::opencl::ImmediateAllocator;
using polydev::opencl::SVMAllocator;
using polydev::opencl::SVMBlock;
using polydev::testing::FaultInjectingAllocator;
using polydev::testing::fault_scenarios::PoolFaultScenarios;
using polydev::testing::pools_support::build_program;

// The wrapper offers the hand-out hook exactly where the wrapped allocator has one.
static_assert(polydev::pools::detail::has_hand_out_hook<FaultInjectingAllocator<SVMAllocator>,
                                                        SVMBlock>::value);
static_assert(!polydev::pools::detail::has_hand_out_hook<FaultInjectingAllocator<DeferredAllocator>,
                                                         cl::Buffer>::value);

constexpr const char* kPatternSource = R"CLC(
__kernel void pattern(__global uint* words, uint seed) {
  const size_t i = get_global_id(0);
  words[i] = seed ^ ((uint)i * 2654435761u);
}
)CLC";

cl_uint pattern_word(cl_uint seed, std::size_t i) {
  return seed ^ (static_cast<cl_uint>(i) * 2654435761u);
}

// A pool over FaultInjectingAllocator<Upstream> on the instance's device, and the scenarios run
// for each Upstream.
template <typename Upstream>
class OpenCLPoolFaults : public polydev::testing::OpenCLTest,
                         public PoolFaultScenarios<OpenCLPoolFaults<Upstream>, Upstream> {
 protected:
  friend class PoolFaultScenarios<OpenCLPoolFaults<Upstream>, Upstream>;
  using Faulty = FaultInjectingAllocator<Upstream>;
  using Block = typename Upstream::block_type;

  // The SVM pool's instances skip in OpenCLTest::SetUp on devices without coarse-grain SVM.
  polydev::testing::Capabilities required_capabilities() const override {
    if constexpr (std::is_same_v<Upstream, SVMAllocator>) {
      return {polydev::testing::svm_coarse_grain_buffer()};
    } else {
      return {};
    }
  }

  Faulty make_allocator() {
    if constexpr (std::is_same_v<Upstream, DeferredAllocator>) {
      return Faulty(DeferredAllocator(context()));
    } else if constexpr (std::is_same_v<Upstream, ImmediateAllocator>) {
      return Faulty(ImmediateAllocator(queue()));
    } else {
      // Bound to the queue: frees are enqueued, reuse goes through the hand-out hook.
      return Faulty(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
    }
  }

  // Writes the pattern of `seed` to the first `bytes` of `block` with a kernel.
  void write_pattern(const Block& block, std::size_t bytes, cl_uint seed) {
    if (kernel_() == nullptr) {
      const cl::Program program = build_program(context(), device(), kPatternSource);
      ASSERT_NE(program(), nullptr);
      kernel_ = cl::Kernel(program, "pattern");
    }
    if constexpr (std::is_same_v<Block, SVMBlock>) {
      ASSERT_EQ(kernel_.setArg(0, block.ptr), CL_SUCCESS);
    } else {
      ASSERT_EQ(kernel_.setArg(0, block), CL_SUCCESS);
    }
    ASSERT_EQ(kernel_.setArg(1, seed), CL_SUCCESS);
    ASSERT_EQ(
        queue().enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(bytes / sizeof(cl_uint))),
        CL_SUCCESS);
    ASSERT_EQ(queue().finish(), CL_SUCCESS);
  }

  // Reads the first `bytes` of `block` back and checks every word against the pattern of `seed`.
  void expect_pattern(const Block& block, std::size_t bytes, cl_uint seed) {
    std::vector<cl_uint> words(bytes / sizeof(cl_uint));
    if constexpr (std::is_same_v<Block, SVMBlock>) {
      ASSERT_EQ(queue().enqueueMapSVM(block.ptr, CL_TRUE, CL_MAP_READ, bytes), CL_SUCCESS);
      const auto* mapped = static_cast<const cl_uint*>(block.ptr);
      words.assign(mapped, mapped + words.size());
      ASSERT_EQ(queue().enqueueUnmapSVM(block.ptr), CL_SUCCESS);
    } else {
      ASSERT_EQ(queue().enqueueReadBuffer(block, CL_TRUE, 0, bytes, words.data()), CL_SUCCESS);
    }
    ASSERT_EQ(queue().finish(), CL_SUCCESS);
    for (std::size_t i = 0; i < words.size(); ++i) {
      ASSERT_EQ(words[i], pattern_word(seed, i)) << "word " << i << " of " << bytes << " bytes";
    }
  }

  // A buffer belongs to the test's context. An SVM pointer has no owner OpenCL can be asked
  // about; the pattern written and read back through the queue checks it.
  void expect_memory_of_its_kind(const Block& block) {
    if constexpr (!std::is_same_v<Block, SVMBlock>) {
      EXPECT_EQ(block.template getInfo<CL_MEM_CONTEXT>()(), context()());
    }
  }

  void expect_device_clean() { EXPECT_EQ(queue().finish(), CL_SUCCESS); }

 private:
  cl::Kernel kernel_;
};

using OpenCLDeferredPoolFaults = OpenCLPoolFaults<DeferredAllocator>;
using OpenCLImmediatePoolFaults = OpenCLPoolFaults<ImmediateAllocator>;
using OpenCLSVMPoolFaults = OpenCLPoolFaults<SVMAllocator>;

TEST_P(OpenCLDeferredPoolFaults, HeldBlocksAreFreedLargestFirstUntilTheRequestFits) {
  held_blocks_are_freed_largest_first_until_the_request_fits();
}
TEST_P(OpenCLDeferredPoolFaults, OutOfMemoryNamesTheRequestAndLosesNothing) {
  out_of_memory_names_the_request_and_loses_nothing();
}
TEST_P(OpenCLDeferredPoolFaults, OutOfMemoryOnAChosenCallFreesOneHeldBlockAndRetries) {
  out_of_memory_on_a_chosen_call_frees_one_held_block_and_retries();
}
TEST_P(OpenCLDeferredPoolFaults, BackendErrorPassesThroughAndKeepsHeldBlocks) {
  backend_error_passes_through_and_keeps_held_blocks();
}
TEST_P(OpenCLDeferredPoolFaults, ReleasingEverythingLeavesNothingLive) {
  releasing_everything_leaves_nothing_live();
}
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLDeferredPoolFaults);

TEST_P(OpenCLImmediatePoolFaults, HeldBlocksAreFreedLargestFirstUntilTheRequestFits) {
  held_blocks_are_freed_largest_first_until_the_request_fits();
}
TEST_P(OpenCLImmediatePoolFaults, OutOfMemoryNamesTheRequestAndLosesNothing) {
  out_of_memory_names_the_request_and_loses_nothing();
}
TEST_P(OpenCLImmediatePoolFaults, OutOfMemoryOnAChosenCallFreesOneHeldBlockAndRetries) {
  out_of_memory_on_a_chosen_call_frees_one_held_block_and_retries();
}
TEST_P(OpenCLImmediatePoolFaults, BackendErrorPassesThroughAndKeepsHeldBlocks) {
  backend_error_passes_through_and_keeps_held_blocks();
}
TEST_P(OpenCLImmediatePoolFaults, ReleasingEverythingLeavesNothingLive) {
  releasing_everything_leaves_nothing_live();
}
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLImmediatePoolFaults);

TEST_P(OpenCLSVMPoolFaults, HeldBlocksAreFreedLargestFirstUntilTheRequestFits) {
  held_blocks_are_freed_largest_first_until_the_request_fits();
}
TEST_P(OpenCLSVMPoolFaults, OutOfMemoryNamesTheRequestAndLosesNothing) {
  out_of_memory_names_the_request_and_loses_nothing();
}
TEST_P(OpenCLSVMPoolFaults, OutOfMemoryOnAChosenCallFreesOneHeldBlockAndRetries) {
  out_of_memory_on_a_chosen_call_frees_one_held_block_and_retries();
}
TEST_P(OpenCLSVMPoolFaults, BackendErrorPassesThroughAndKeepsHeldBlocks) {
  backend_error_passes_through_and_keeps_held_blocks();
}
TEST_P(OpenCLSVMPoolFaults, ReleasingEverythingLeavesNothingLive) {
  releasing_everything_leaves_nothing_live();
}
// The SVM allocator's hand-out hook still runs through the wrapper when a held block is reused.
TEST_P(OpenCLSVMPoolFaults, ReuseGoesThroughTheForwardedHandOutHook) {
  const Faulty faults = make_allocator();
  FaultyPool pool(faults);
  pool.allocate(4096).release();
  auto reused = pool.allocate(4096);
  EXPECT_EQ(faults.counts().allocations, 1u);
  EXPECT_EQ(faults.counts().hand_outs, 1u);
  EXPECT_EQ(reused.block().queue(), queue()()) << "the hook binds a reused block to the queue";
}
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLSVMPoolFaults);

}  // namespace
