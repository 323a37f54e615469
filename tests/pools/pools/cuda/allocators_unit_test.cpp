// Parts of the CUDA pools that need no device: the array layout's CUDA names, zero-byte requests,
// and the errors the allocators give on a machine without a usable CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "polydev/cuda/array_layout.hpp"
#include "polydev/cuda/device_allocator.hpp"
#include "polydev/cuda/device_memory_pool.hpp"
#include "polydev/cuda/inventory.hpp"
#include "polydev/cuda/page_locked_allocator.hpp"
#include "polydev/cuda/page_locked_memory_pool.hpp"
#include "polydev/error.hpp"

namespace {

// The layout is tested once, under its backend-neutral names (pools/array_layout_test.cpp); this
// holds its CUDA names to them.
static_assert(std::is_same_v<polydev::cuda::Order, polydev::pools::Order>);
static_assert(std::is_same_v<polydev::cuda::ArrayLayout, polydev::pools::ArrayLayout>);

TEST(PageLockedAllocator, ZeroBytesIsNullWithoutACudaCall) {
  const polydev::cuda::PageLockedAllocator allocator(cudaHostAllocPortable);
  EXPECT_EQ(allocator.flags(), static_cast<unsigned>(cudaHostAllocPortable));
  polydev::cuda::PageLockedAllocator copy = allocator;
  EXPECT_EQ(copy.allocate(0), nullptr);
  copy.free(nullptr);  // no CUDA call, no failure
}

TEST(CudaAllocatorsWithoutDevice, DeviceAllocatorReportsWhyCudaIsUnusable) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (inventory.available) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_THROW(polydev::cuda::DeviceAllocator(0), polydev::backend_error);
  EXPECT_THROW(polydev::cuda::DeviceAllocator(), polydev::backend_error);
  EXPECT_THROW(polydev::cuda::DeviceMemoryPool(), polydev::backend_error);
}

TEST(CudaAllocatorsWithoutDevice, PageLockedFailureIsNotOutOfMemory) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (inventory.available) GTEST_SKIP() << "this machine has a CUDA device";
  // The pool must pass this through rather than treat it as a shortage of memory.
  polydev::cuda::PageLockedMemoryPool pool;
  try {
    auto never = pool.allocate(4096);
    FAIL() << "page-locked memory without a CUDA driver";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.api(), "cudaHostAlloc");
    EXPECT_NE(std::string(failure.what()).find("4096 bytes"), std::string::npos) << failure.what();
  }
  EXPECT_EQ(pool.managed_bytes(), 0u);
  EXPECT_EQ(pool.active_blocks(), 0u);
}

}  // namespace
