// The CUDA pools on every selected CUDA device, through polydev's CUDA fixture: counters, data
// written by kernels, early free, one pool per device, a request beyond the device's memory, frees
// after a device reset, and page-locked typed arrays. Skipped with the reason without a device.
// Tests that depend on the amount of free memory are in cuda_pool_memory_test.cpp.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <polydev/gtest.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "polydev/cuda/device_allocator.hpp"
#include "polydev/cuda/device_memory_pool.hpp"
#include "polydev/cuda/error.hpp"
#include "polydev/cuda/page_locked_allocator.hpp"
#include "polydev/cuda/page_locked_memory_pool.hpp"
#include "polydev/error.hpp"
#include "pool_kernels.hpp"
#include "support/cuda_checks.hpp"
#include "support/pool_counters.hpp"

namespace {

using polydev::cuda::DeviceAllocator;
using polydev::cuda::DeviceMemoryPool;
using polydev::cuda::dtype;
using polydev::cuda::Order;
using polydev::cuda::PageLockedAllocator;
using polydev::cuda::PageLockedMemoryPool;
using polydev::cuda::PooledDeviceAllocation;
using polydev::testing::pools_support::expect_counters;
using Sizes = std::vector<std::size_t>;

int current_device() {
  int device = -1;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  return device;
}

int device_count() {
  int count = 0;
  EXPECT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  return count;
}

// -----------------------------------------------------------------------------------------------
// Device memory

class CudaDevicePool : public polydev::testing::CudaTest {};

TEST_P(CudaDevicePool, CountersFollowAllocations) {
  DeviceMemoryPool pool;
  EXPECT_EQ(pool.device(), ordinal());
  expect_counters(pool, 0, 0, 0, 0, "new pool");

  auto a = pool.allocate(1000);
  ASSERT_NE(a.ptr(), nullptr);
  EXPECT_EQ(a.size(), 1000u);
  EXPECT_EQ(a.device(), ordinal());
  EXPECT_EQ(a.address(), reinterpret_cast<std::uintptr_t>(a.ptr()));
  expect_counters(pool, 0, 1, 1024, 1000, "a = allocate(1000)");
  cudaPointerAttributes attributes{};
  ASSERT_CUDA(cudaPointerGetAttributes(&attributes, a.ptr()));
  EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attributes.device, ordinal());

  void* const block = a.ptr();
  a.free();
  EXPECT_FALSE(a.valid());
  expect_counters(pool, 1, 0, 1024, 0, "a.free()");
  EXPECT_THROW(a.free(), polydev::error);

  auto b = pool.allocate(1020);
  EXPECT_EQ(b.ptr(), block) << "the held block was not reused";
  auto z = pool.allocate(0);
  EXPECT_NE(z.ptr(), nullptr) << "a 0-byte request is a real 1-byte block";
  EXPECT_EQ(z.size(), 0u);
  expect_counters(pool, 0, 2, 1025, 1020, "b and z");
  z.free();
  pool.free_held();
  expect_counters(pool, 0, 1, 1024, 1020, "free_held()");
  pool.stop_holding();
  b.free();
  expect_counters(pool, 0, 0, 0, 0, "after stop_holding and b.free()");
}

TEST_P(CudaDevicePool, KernelDataReadsBackIntact) {
  DeviceMemoryPool pool;
  const Sizes sizes = {4, 4096, (std::size_t{1} << 20) + 4, std::size_t{16} << 20};
  std::vector<void*> first_blocks;
  {
    std::vector<PooledDeviceAllocation> blocks;
    for (std::size_t size : sizes) {
      blocks.push_back(pool.allocate(size));
      first_blocks.push_back(blocks.back().ptr());
      fill_and_check(blocks.back(), size, 0x1234u + static_cast<std::uint32_t>(size));
    }
    // Each block still holds its own pattern after the others were written.
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::uint32_t word = 0;
      ASSERT_CUDA(cudaMemcpy(&word, blocks[i].ptr(), 4, cudaMemcpyDeviceToHost));
      EXPECT_EQ(word, pattern_word(0x1234u + static_cast<std::uint32_t>(sizes[i]), 0));
    }
  }
  EXPECT_EQ(pool.held_blocks(), sizes.size());
  // Reused blocks take new data just as well.
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto again = pool.allocate(sizes[i]);
    EXPECT_EQ(again.ptr(), first_blocks[i]);
    fill_and_check(again, sizes[i], 0xBEEFu);
  }
}

TEST_P(CudaDevicePool, BlocksOutliveThePoolObject) {
  PooledDeviceAllocation survivor;
  {
    DeviceMemoryPool pool;
    survivor = pool.allocate(std::size_t{1} << 20);
  }
  ASSERT_TRUE(survivor.valid());
  EXPECT_EQ(survivor.device(), ordinal());
  fill_and_check(survivor, std::size_t{1} << 20, 77u);
  survivor.free();
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(survivor.device(), -1) << "a freed handle holds no memory of any device";
}

TEST_P(CudaDevicePool, AllocatorZeroBytesAndOrdinals) {
  DeviceAllocator allocator;
  EXPECT_EQ(allocator.device(), ordinal());
  EXPECT_EQ(allocator.allocate(0), nullptr);
  allocator.free(nullptr);
  EXPECT_EQ(DeviceAllocator(ordinal()).device(), ordinal());
  const int count = device_count();
  try {
    DeviceAllocator missing(count);
    FAIL() << "device " << count << " accepted";
  } catch (const std::invalid_argument& failure) {
    EXPECT_NE(std::string(failure.what()).find("CUDA device " + std::to_string(count)),
              std::string::npos)
        << failure.what();
  }
  EXPECT_THROW(DeviceAllocator(-2), std::invalid_argument);
  EXPECT_THROW(DeviceMemoryPool{count}, std::invalid_argument);
  EXPECT_THROW(DeviceMemoryPool(ordinal(), 17), std::invalid_argument);
}

TEST_P(CudaDevicePool, OnePoolPerDeviceFreesOnTheRightDevice) {
  const int count = device_count();
  if (count < 2) GTEST_SKIP() << "needs two CUDA devices; this machine has " << count;
  const int here = ordinal();
  const int other = (here + 1) % count;
  constexpr std::size_t bytes = std::size_t{64} << 20;
  DeviceMemoryPool local;
  DeviceMemoryPool remote(other);
  EXPECT_EQ(remote.device(), other);

  auto a = local.allocate(bytes);
  auto b = remote.allocate(bytes);
  EXPECT_EQ(current_device(), here) << "allocating on another device changed the current one";
  EXPECT_EQ(b.device(), other);
  cudaPointerAttributes attributes{};
  ASSERT_CUDA(cudaPointerGetAttributes(&attributes, a.ptr()));
  EXPECT_EQ(attributes.device, here);
  ASSERT_CUDA(cudaPointerGetAttributes(&attributes, b.ptr()));
  EXPECT_EQ(attributes.device, other);
  fill_and_check(a, bytes, 1u);

  // With the other device current: return and free `a` (of this device), write into `b`.
  ASSERT_CUDA(cudaSetDevice(other));
  fill_and_check(b, bytes, 2u);
  a.free();
  local.free_held();
  EXPECT_EQ(current_device(), other) << "freeing changed the current device";
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);

  // And back: `b` is freed on the other device while this one is current.
  ASSERT_CUDA(cudaSetDevice(here));
  b.free();
  remote.stop_holding();
  EXPECT_EQ(current_device(), here);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  expect_counters(local, 0, 0, 0, 0, "local pool");
  expect_counters(remote, 0, 0, 0, 0, "remote pool");

  // New blocks of both pools after the cross-device frees still work.
  auto c = remote.allocate(bytes);
  ASSERT_CUDA(cudaPointerGetAttributes(&attributes, c.ptr()));
  EXPECT_EQ(attributes.device, other);
}

TEST_P(CudaDevicePool, HugeRequestIsOutOfMemoryWithTheSize) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  ASSERT_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t huge = 2 * total_bytes;

  try {
    DeviceAllocator(ordinal()).allocate(huge);
    FAIL() << "cudaMalloc of " << huge << " bytes succeeded";
  } catch (const polydev::out_of_memory& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("cudaErrorMemoryAllocation"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(huge) + " bytes on device " + std::to_string(ordinal())),
              std::string::npos)
        << message;
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the failure stayed in the runtime's last error";

  DeviceMemoryPool pool;
  { auto held = pool.allocate(std::size_t{1} << 20); }
  EXPECT_EQ(pool.held_blocks(), 1u);
  try {
    auto never = pool.allocate(huge);
    FAIL() << "pool allocation of " << huge << " bytes succeeded";
  } catch (const polydev::out_of_memory& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("pool allocation of " + std::to_string(huge) + " bytes"),
              std::string::npos)
        << message;
  }
  expect_counters(pool, 0, 0, 0, 0, "the held block was freed while trying");
  EXPECT_THROW(pool.allocate(huge), std::bad_alloc);
  auto after = pool.allocate(std::size_t{1} << 20);
  EXPECT_TRUE(after.valid()) << "the pool is usable after running out of memory";
}

// A free after the device's primary context was destroyed neither throws nor crashes, and leaves
// no error behind.
TEST_P(CudaDevicePool, FreeAfterDeviceResetIsHarmless) {
  DeviceMemoryPool pool;
  auto active = pool.allocate(4096);
  { auto held = pool.allocate(8192); }
  ASSERT_CUDA(cudaDeviceReset());
  EXPECT_NO_THROW(active.free());
  EXPECT_NO_THROW(pool.free_held());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  expect_counters(pool, 0, 0, 0, 0, "after the frees");
  auto fresh = pool.allocate(4096);
  fill_and_check(fresh, 4096, 5u);
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CudaDevicePool);

// -----------------------------------------------------------------------------------------------
// Page-locked host memory

class CudaPageLockedPool : public polydev::testing::CudaTest {};

TEST_P(CudaPageLockedPool, RawBlocksAndCounters) {
  PageLockedMemoryPool pool;
  auto a = pool.allocate(5000);
  ASSERT_NE(a.ptr(), nullptr);
  EXPECT_EQ(a.size(), 5000u);
  cudaPointerAttributes attributes{};
  ASSERT_CUDA(cudaPointerGetAttributes(&attributes, a.ptr()));
  EXPECT_EQ(attributes.type, cudaMemoryTypeHost);
  std::memset(a.ptr(), 0xA5, a.size());
  expect_counters(pool, 0, 1, 5120, 5000, "a = allocate(5000)");
  void* const block = a.ptr();
  a.free();
  EXPECT_THROW(a.free(), polydev::error);
  auto b = pool.allocate(5100);
  EXPECT_EQ(b.ptr(), block);
  expect_counters(pool, 0, 1, 5120, 5100, "b reuses a's block");
}

TEST_P(CudaPageLockedPool, TypedArraysInBothOrders) {
  PageLockedMemoryPool pool;
  auto c = pool.allocate({2, 3, 4}, dtype<float>, Order::c);
  EXPECT_EQ(c.shape(), (Sizes{2, 3, 4}));
  EXPECT_EQ(c.strides(), (Sizes{48, 16, 4}));
  EXPECT_EQ(c.size(), 24u);
  EXPECT_EQ(c.nbytes(), 96u);
  EXPECT_EQ(c.ndim(), 3u);
  EXPECT_EQ(c.order(), Order::c);
  EXPECT_EQ(c.base().size(), 96u);

  auto f = pool.allocate({2, 3, 4}, dtype<double>, "F");
  EXPECT_EQ(f.strides(), (Sizes{8, 16, 48}));
  EXPECT_EQ(f.order(), Order::fortran);
  EXPECT_EQ(f.base().size(), 192u);

  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 4; ++k) {
        c.at(i, j, k) = static_cast<float>(100 * i + 10 * j + k);
        f.at(i, j, k) = static_cast<double>(100 * i + 10 * j + k);
      }
    }
  }
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 4; ++k) {
        const double value = static_cast<double>(100 * i + 10 * j + k);
        EXPECT_EQ(c.data()[(i * 3 + j) * 4 + k], static_cast<float>(value)) << i << j << k;
        EXPECT_EQ(f.data()[i + 2 * (j + 3 * k)], value) << i << j << k;
      }
    }
  }
  EXPECT_THROW(c.at(2, 0, 0), std::out_of_range);
  EXPECT_THROW(c.at(0, 0), std::out_of_range);

  auto scalar = pool.allocate({}, dtype<std::int16_t>);
  EXPECT_EQ(scalar.size(), 1u);
  EXPECT_EQ(scalar.nbytes(), 2u);
  scalar.at() = 7;
  EXPECT_EQ(scalar.data()[0], 7);

  auto empty = pool.allocate({0, 5}, dtype<int>);
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_NE(empty.data(), nullptr);
  EXPECT_EQ(pool.active_blocks(), 4u);
}

TEST_P(CudaPageLockedPool, ArraysOwnTheirMemory) {
  PageLockedMemoryPool pool;
  {
    auto array = pool.allocate({1000}, dtype<int>);
    EXPECT_EQ(pool.active_blocks(), 1u);
    EXPECT_EQ(pool.active_bytes(), 4000u);
  }
  expect_counters(pool, 1, 0, 4096, 0, "the array returned its block when destroyed");

  auto make = [] {
    PageLockedMemoryPool short_lived;
    return short_lived.allocate({1000}, dtype<int>);
  };
  auto survivor = make();
  ASSERT_TRUE(survivor.base().valid());
  for (int i = 0; i < 1000; ++i) survivor.at(i) = i;
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(survivor.data()[i], i);
  survivor.free();
  EXPECT_FALSE(survivor.base().valid());
  EXPECT_THROW(survivor.free(), polydev::error);
}

TEST_P(CudaPageLockedPool, PinnedArrayRoundTripsThroughPooledDeviceMemory) {
  PageLockedMemoryPool host_pool;
  DeviceMemoryPool device_pool;
  constexpr std::size_t n = std::size_t{1} << 20;
  auto source = host_pool.allocate({n}, dtype<std::uint32_t>);
  auto target = host_pool.allocate({n}, dtype<std::uint32_t>);
  for (std::size_t i = 0; i < n; ++i) source.data()[i] = pattern_word(9u, i);
  auto device = device_pool.allocate(n * 4);
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreate(&stream));
  ASSERT_CUDA(cudaMemcpyAsync(device.ptr(), source.data(), n * 4, cudaMemcpyHostToDevice, stream));
  ASSERT_CUDA(cudaMemcpyAsync(target.data(), device.ptr(), n * 4, cudaMemcpyDeviceToHost, stream));
  ASSERT_CUDA(cudaStreamSynchronize(stream));
  ASSERT_CUDA(cudaStreamDestroy(stream));
  EXPECT_EQ(std::memcmp(source.data(), target.data(), n * 4), 0);
}

TEST_P(CudaPageLockedPool, BadShapeOrOrderAllocatesNothing) {
  PageLockedMemoryPool pool;
  const std::size_t big = std::size_t{1} << 40;
  EXPECT_THROW(pool.allocate({big, big}, dtype<float>), std::length_error);
  EXPECT_THROW(pool.allocate({2}, dtype<float>, "K"), std::invalid_argument);
  EXPECT_THROW(pool.allocate({2}, dtype<float>, static_cast<Order>(3)), std::invalid_argument);
  expect_counters(pool, 0, 0, 0, 0, "after the rejected requests");
}

TEST_P(CudaPageLockedPool, AllocatorFlagsReachCuda) {
  PageLockedMemoryPool pool(PageLockedAllocator(cudaHostAllocMapped | cudaHostAllocPortable));
  EXPECT_EQ(pool.allocator().flags(),
            static_cast<unsigned>(cudaHostAllocMapped | cudaHostAllocPortable));
  auto block = pool.allocate(4096);
  unsigned flags = 0;
  ASSERT_CUDA(cudaHostGetFlags(&flags, block.ptr()));
  EXPECT_NE(flags & cudaHostAllocMapped, 0u) << "flags " << flags;
}

TEST_P(CudaPageLockedPool, InvalidFlagsPassThroughAsABackendError) {
  PageLockedMemoryPool pool(PageLockedAllocator(0x80000000u));
  try {
    auto never = pool.allocate(4096);
    FAIL() << "cudaHostAlloc accepted flags 0x80000000";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.api(), "cudaHostAlloc");
    EXPECT_EQ(failure.code_name(), "cudaErrorInvalidValue") << failure.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  expect_counters(pool, 0, 0, 0, 0, "after the failure");
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CudaPageLockedPool);

}  // namespace
