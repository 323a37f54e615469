// CompactDeviceMemoryPool on every selected CUDA device, through polydev's CUDA fixture: device
// memory from cudaMalloc segments, carved and merged by the arena; data written by kernels; held
// blocks of one class serving another instead of the arena growing; segments going back to CUDA;
// out of memory; threads. Skipped with the reason without a device.
#include "polydev/cuda/compact_device_memory_pool.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <polydev/gtest.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "polydev/error.hpp"
#include "pool_kernels.hpp"
#include "support/cuda_checks.hpp"
#include "support/pool_counters.hpp"

namespace {

using polydev::cuda::CompactDeviceMemoryPool;
using polydev::cuda::CompactPooledDeviceAllocation;
using polydev::testing::pools_support::expect_counters;

const std::size_t segment = polydev::pools::ArenaOptions{}.segment_granularity;

class CudaCompactPool : public polydev::testing::CudaTest {};

TEST_P(CudaCompactPool, HandsOutAlignedDeviceMemoryOfItsDevice) {
  CompactDeviceMemoryPool pool;
  EXPECT_EQ(pool.device(), ordinal());
  EXPECT_EQ(pool.reserved_bytes(), 0u);

  auto a = pool.allocate(1000);
  EXPECT_EQ(a.device(), ordinal());
  EXPECT_EQ(a.address() % 256, 0u);
  cudaPointerAttributes attributes{};
  ASSERT_CUDA(cudaPointerGetAttributes(&attributes, a.ptr()));
  EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attributes.device, ordinal());
  expect_counters(pool, 0, 1, 1000, 1000, "a = allocate(1000)");  // 1000 is a class of B = 6
  EXPECT_EQ(pool.reserved_bytes(), segment);

  auto b = pool.allocate(3);
  EXPECT_EQ(b.address(), a.address() + 1024) << "b is carved just after a (1000 -> 1024)";
  void* const first = a.ptr();
  a.free();
  EXPECT_EQ(pool.allocate(999).ptr(), first) << "the held block of the class was not reused";
  EXPECT_THROW(a.free(), polydev::error);
  EXPECT_EQ(pool.arena_counters().segments, 1u);
}

TEST_P(CudaCompactPool, KernelDataReadsBackIntact) {
  CompactDeviceMemoryPool pool;
  const std::vector<std::size_t> sizes = {4, 4096, 1000004, std::size_t{3} << 20, 256, 65536};
  std::vector<CompactPooledDeviceAllocation> blocks;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    blocks.push_back(pool.allocate(sizes[i]));
    fill_and_check(blocks.back(), sizes[i], 0x600du + static_cast<std::uint32_t>(i));
  }
  // Each block still holds its own pattern after its neighbours in the segment were written.
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::vector<std::uint32_t> words(sizes[i] / 4);
    ASSERT_CUDA(
        cudaMemcpy(words.data(), blocks[i].ptr(), words.size() * 4, cudaMemcpyDeviceToHost));
    for (std::size_t w = 0; w < words.size(); ++w) {
      ASSERT_EQ(words[w], pattern_word(0x600du + static_cast<std::uint32_t>(i), w))
          << "word " << w << " of block " << i << " (" << sizes[i] << " bytes)";
    }
  }
}

TEST_P(CudaCompactPool, HeldBlocksOfOneClassServeAnotherInsteadOfGrowing) {
  CompactDeviceMemoryPool pool;
  {
    std::vector<CompactPooledDeviceAllocation> eighths;
    for (int i = 0; i < 8; ++i) eighths.push_back(pool.allocate(segment / 8));
    EXPECT_EQ(pool.arena_counters().segments, 1u) << "eight eighths fill one segment";
  }
  EXPECT_EQ(pool.held_blocks(), 8u);
  auto half = pool.allocate(segment / 2);
  EXPECT_EQ(pool.arena_counters().segments, 1u) << "the arena grew instead of merging";
  EXPECT_EQ(pool.reserved_bytes(), segment);
  EXPECT_EQ(pool.held_blocks(), 0u);
  fill_and_check(half, segment / 2, 9u);
}

TEST_P(CudaCompactPool, FreeHeldGivesEmptySegmentsBackToCuda) {
  CompactDeviceMemoryPool pool;
  auto kept = pool.allocate(4096);
  pool.allocate(std::size_t{64} << 20).free();
  EXPECT_EQ(pool.arena_counters().segments, 2u);
  pool.free_held();
  EXPECT_EQ(pool.arena_counters().segments, 1u);
  EXPECT_EQ(pool.reserved_bytes(), segment);
  kept.free();
  pool.free_held();
  EXPECT_EQ(pool.reserved_bytes(), 0u);
  EXPECT_EQ(pool.arena_counters().peak_reserved_bytes, segment + (std::size_t{64} << 20));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_P(CudaCompactPool, HugeRequestIsOutOfMemoryAndThePoolStaysUsable) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  ASSERT_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t huge = 2 * total_bytes;
  CompactDeviceMemoryPool pool;
  auto active = pool.allocate(std::size_t{1} << 20);
  pool.allocate(std::size_t{4} << 20).free();
  try {
    auto never = pool.allocate(huge);
    FAIL() << "pool allocation of " << huge << " bytes succeeded";
  } catch (const polydev::out_of_memory& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("pool allocation of " + std::to_string(huge) + " bytes"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("cudaErrorMemoryAllocation"), std::string::npos) << message;
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the failure stayed in the runtime's last error";
  EXPECT_EQ(pool.active_blocks(), 1u);
  EXPECT_EQ(pool.held_blocks(), 0u) << "the held block went back to the arena while trying";
  fill_and_check(active, std::size_t{1} << 20, 3u);
  auto after = pool.allocate(std::size_t{4} << 20);
  fill_and_check(after, std::size_t{4} << 20, 4u);
}

TEST_P(CudaCompactPool, BlocksOutliveThePoolObject) {
  CompactPooledDeviceAllocation survivor;
  {
    CompactDeviceMemoryPool pool;
    survivor = pool.allocate(std::size_t{1} << 20);
  }
  ASSERT_TRUE(survivor.valid());
  fill_and_check(survivor, std::size_t{1} << 20, 77u);
  survivor.free();
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_P(CudaCompactPool, RejectsMissingDevicesAndBadOptions) {
  int count = 0;
  ASSERT_CUDA(cudaGetDeviceCount(&count));
  EXPECT_THROW(CompactDeviceMemoryPool{count}, std::invalid_argument);
  EXPECT_THROW(CompactDeviceMemoryPool(ordinal(), 17), std::invalid_argument);
  polydev::pools::ArenaOptions options;
  options.alignment = 100;
  try {
    CompactDeviceMemoryPool pool(ordinal(), CompactDeviceMemoryPool::default_leading_bits, options);
    FAIL() << "alignment 100 was accepted";
  } catch (const std::invalid_argument& failure) {
    EXPECT_NE(std::string(failure.what()).find("alignment 100 is not a power of two"),
              std::string::npos)
        << failure.what();
  }
}

TEST_P(CudaCompactPool, ThreadsShareOnePool) {
  CompactDeviceMemoryPool pool;
  const int device = ordinal();
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, device, t] {
      ASSERT_CUDA(cudaSetDevice(device));
      std::mt19937 random(t);
      std::uniform_int_distribution<std::size_t> words(1, 1 << 18);
      std::vector<CompactPooledDeviceAllocation> live;
      for (int step = 0; step < 40; ++step) {
        const std::size_t bytes = 4 * words(random);
        live.push_back(pool.allocate(bytes));
        fill_and_check(live.back(), bytes, t * 1000 + static_cast<std::uint32_t>(step));
        if (live.size() > 6) live.erase(live.begin() + static_cast<long>(random() % live.size()));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(pool.active_blocks(), 0u);
  pool.free_held();
  EXPECT_EQ(pool.reserved_bytes(), 0u);
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CudaCompactPool);

}  // namespace
