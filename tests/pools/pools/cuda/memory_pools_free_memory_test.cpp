// CUDA pool tests that size their requests from the device's free memory or fill most of it.
// They run alone (RUN_SERIAL), so that no other test takes or gives back memory meanwhile, and no
// other test runs out of memory because of them.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <deque>
#include <polydev/gtest.hpp>

#include "polydev/cuda/device_memory_pool.hpp"
#include "polydev/pools/bins.hpp"
#include "support/cuda_checks.hpp"
#include "support/pool_counters.hpp"

namespace {

using polydev::cuda::DeviceMemoryPool;
using polydev::cuda::PooledDeviceAllocation;
using polydev::testing::pools_support::expect_counters;

class CudaDevicePoolMemory : public polydev::testing::CudaTest {};

TEST_P(CudaDevicePoolMemory, OutOfMemoryIsRecoveredByFreeingHeldBlocks) {
  std::size_t free_before = 0;
  std::size_t total = 0;
  ASSERT_CUDA(cudaMemGetInfo(&free_before, &total));
  // Three held blocks of a quarter (or less) of the free memory, then a request that fits only
  // once one of them is freed.
  const std::size_t quarter = std::size_t{1} << (polydev::pools::bitlog2(free_before) - 2);
  DeviceMemoryPool pool;
  {
    auto a = pool.allocate(quarter);
    auto b = pool.allocate(quarter);
    auto c = pool.allocate(quarter);
  }
  ASSERT_EQ(pool.held_blocks(), 3u);
  std::size_t free_now = 0;
  ASSERT_CUDA(cudaMemGetInfo(&free_now, &total));
  const std::size_t request = free_now + quarter / 2;
  auto big = pool.allocate(request);
  EXPECT_TRUE(big.valid());
  EXPECT_LT(pool.held_blocks(), 3u) << "the request fit without freeing a held block";
  EXPECT_EQ(pool.active_blocks(), 1u);
  EXPECT_EQ(pool.active_bytes(), request);
  EXPECT_EQ(pool.managed_bytes(),
            pool.held_blocks() * quarter + pool.alloc_size(pool.bin_number(request)));
}

// PyCUDA's test_mempool: 2 x 100 allocations of 2^(e0-6) and 2^(e0-5) bytes, e0 = bitlog2(free
// memory), ten kept alive in a sliding window; then stop_holding().
TEST_P(CudaDevicePoolMemory, PyCudaMempoolPattern) {
  std::size_t free_bytes = 0;
  std::size_t total = 0;
  ASSERT_CUDA(cudaMemGetInfo(&free_bytes, &total));
  const unsigned e0 = polydev::pools::bitlog2(free_bytes);
  DeviceMemoryPool pool;
  {
    std::deque<PooledDeviceAllocation> queue;
    for (unsigned e = e0 - 6; e < e0 - 4; ++e) {
      for (int i = 0; i < 100; ++i) {
        queue.push_back(pool.allocate(std::size_t{1} << e));
        if (queue.size() > 10) queue.pop_front();
      }
    }
    // Eleven blocks of each size were ever needed; the window holds ten of the larger ones.
    const std::size_t small = std::size_t{1} << (e0 - 6);
    const std::size_t large = std::size_t{1} << (e0 - 5);
    expect_counters(pool, 12, 10, 11 * (small + large), 10 * large, "after the loops");
  }
  EXPECT_EQ(pool.active_blocks(), 0u);
  EXPECT_EQ(pool.held_blocks(), 22u);
  pool.stop_holding();
  expect_counters(pool, 0, 0, 0, 0, "after stop_holding()");
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CudaDevicePoolMemory);

}  // namespace
