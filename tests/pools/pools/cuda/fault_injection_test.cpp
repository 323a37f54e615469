// Fault injection under the CUDA pools: polydev::pools::Pool over FaultInjectingAllocator around
// each real CUDA allocator (DeviceAllocator, PageLockedAllocator), on every selected CUDA device.
// Out-of-memory makes the pool free held blocks largest first and retry, and the block it then
// hands out is real memory (checked with cudaMemcpy); when nothing helps, the error names the
// request and the pool; other errors pass through and free nothing; nothing leaks. The scenarios
// are fault_injection_scenarios.hpp's, shared with the OpenCL pools; the pool algorithm on its own
// is tested in pool_core_test.cpp. Host code only (the CUDA runtime API); skipped with the
// reason on a machine without a CUDA device.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <polydev/gtest.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "polydev/cuda/device_allocator.hpp"
#include "polydev/cuda/page_locked_allocator.hpp"
#include "polydev/error.hpp"
#include "polydev/pools/pool.hpp"
#include "support/cuda_checks.hpp"
#include "support/fault_injecting_allocator.hpp"
#include "support/fault_injection_scenarios.hpp"

namespace {

using polydev::cuda::DeviceAllocator;
using polydev::cuda::PageLockedAllocator;
using polydev::testing::FaultInjectingAllocator;
using polydev::testing::fault_scenarios::PoolFaultScenarios;

std::uint32_t pattern_word(std::uint32_t seed, std::size_t i) {
  return seed ^ (static_cast<std::uint32_t>(i) * 2654435761u);
}

std::vector<std::uint32_t> pattern(std::size_t bytes, std::uint32_t seed) {
  std::vector<std::uint32_t> words(bytes / 4);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = pattern_word(seed, i);
  return words;
}

// A pool over FaultInjectingAllocator<Upstream> on the instance's device (current during the
// test), and the scenarios run for each Upstream.
template <typename Upstream>
class CudaPoolFaults : public polydev::testing::CudaTest,
                       public PoolFaultScenarios<CudaPoolFaults<Upstream>, Upstream> {
 protected:
  friend class PoolFaultScenarios<CudaPoolFaults<Upstream>, Upstream>;
  using Faulty = FaultInjectingAllocator<Upstream>;

  Faulty make_allocator() {
    if constexpr (std::is_same_v<Upstream, DeviceAllocator>) {
      return Faulty(DeviceAllocator(ordinal()));
    } else {
      return Faulty(PageLockedAllocator());
    }
  }

  // Device memory: copied to from the host. Page-locked memory: copied to from device memory that
  // holds the pattern (the device writes it).
  void write_pattern(void* block, std::size_t bytes, std::uint32_t seed) {
    const std::vector<std::uint32_t> words = pattern(bytes, seed);
    if constexpr (std::is_same_v<Upstream, DeviceAllocator>) {
      ASSERT_CUDA(cudaMemcpy(block, words.data(), bytes, cudaMemcpyHostToDevice));
    } else {
      void* staging = nullptr;
      ASSERT_CUDA(cudaMalloc(&staging, bytes));
      const cudaError_t to_device =
          cudaMemcpy(staging, words.data(), bytes, cudaMemcpyHostToDevice);
      const cudaError_t to_pinned = cudaMemcpy(block, staging, bytes, cudaMemcpyDeviceToHost);
      ASSERT_CUDA(cudaFree(staging));
      ASSERT_CUDA(to_device);
      ASSERT_CUDA(to_pinned);
    }
  }

  // Reads the block back (device memory through cudaMemcpy, page-locked memory directly) and
  // checks every word.
  void expect_pattern(const void* block, std::size_t bytes, std::uint32_t seed) {
    std::vector<std::uint32_t> words(bytes / 4);
    if constexpr (std::is_same_v<Upstream, DeviceAllocator>) {
      ASSERT_CUDA(cudaMemcpy(words.data(), block, bytes, cudaMemcpyDeviceToHost));
    } else {
      std::memcpy(words.data(), block, bytes);
    }
    const std::vector<std::uint32_t> expected = pattern(bytes, seed);
    for (std::size_t i = 0; i < words.size(); ++i) {
      ASSERT_EQ(words[i], expected[i]) << "word " << i << " of " << bytes << " bytes";
    }
  }

  // The memory is of the kind the upstream allocator promises.
  void expect_memory_of_its_kind(const void* block) {
    cudaPointerAttributes attributes{};
    ASSERT_CUDA(cudaPointerGetAttributes(&attributes, block));
    if constexpr (std::is_same_v<Upstream, DeviceAllocator>) {
      EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
      EXPECT_EQ(attributes.device, ordinal());
    } else {
      EXPECT_EQ(attributes.type, cudaMemoryTypeHost);
    }
  }

  void expect_device_clean() { EXPECT_EQ(cudaGetLastError(), cudaSuccess); }
};

using CudaDevicePoolFaults = CudaPoolFaults<DeviceAllocator>;
using CudaPageLockedPoolFaults = CudaPoolFaults<PageLockedAllocator>;

TEST_P(CudaDevicePoolFaults, HeldBlocksAreFreedLargestFirstUntilTheRequestFits) {
  held_blocks_are_freed_largest_first_until_the_request_fits();
}
TEST_P(CudaDevicePoolFaults, OutOfMemoryNamesTheRequestAndLosesNothing) {
  out_of_memory_names_the_request_and_loses_nothing();
}
TEST_P(CudaDevicePoolFaults, OutOfMemoryOnAChosenCallFreesOneHeldBlockAndRetries) {
  out_of_memory_on_a_chosen_call_frees_one_held_block_and_retries();
}
TEST_P(CudaDevicePoolFaults, BackendErrorPassesThroughAndKeepsHeldBlocks) {
  backend_error_passes_through_and_keeps_held_blocks();
}
TEST_P(CudaDevicePoolFaults, ReleasingEverythingLeavesNothingLive) {
  releasing_everything_leaves_nothing_live();
}
POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CudaDevicePoolFaults);

TEST_P(CudaPageLockedPoolFaults, HeldBlocksAreFreedLargestFirstUntilTheRequestFits) {
  held_blocks_are_freed_largest_first_until_the_request_fits();
}
TEST_P(CudaPageLockedPoolFaults, OutOfMemoryNamesTheRequestAndLosesNothing) {
  out_of_memory_names_the_request_and_loses_nothing();
}
TEST_P(CudaPageLockedPoolFaults, OutOfMemoryOnAChosenCallFreesOneHeldBlockAndRetries) {
  out_of_memory_on_a_chosen_call_frees_one_held_block_and_retries();
}
TEST_P(CudaPageLockedPoolFaults, BackendErrorPassesThroughAndKeepsHeldBlocks) {
  backend_error_passes_through_and_keeps_held_blocks();
}
TEST_P(CudaPageLockedPoolFaults, ReleasingEverythingLeavesNothingLive) {
  releasing_everything_leaves_nothing_live();
}
POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CudaPageLockedPoolFaults);

}  // namespace
