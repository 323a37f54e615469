// CacheLineAllocator: what keeps the held-block lists of different pool shards off each other's
// cache lines (pool.hpp). Each allocation starts on a 128-byte boundary, so two of them never share
// a line, and containers work with it as with std::allocator.
#include "polydev/pools/detail/cache_line.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <new>
#include <unordered_map>
#include <vector>

#include "polydev/pools/pool.hpp"
#include "support/aligned_host_allocator.hpp"

namespace {

using polydev::pools::detail::CacheLineAllocator;
using polydev::pools::detail::false_sharing_range;

bool on_a_boundary(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % false_sharing_range == 0;
}

TEST(CacheLineAllocator, EveryAllocationStartsOnItsOwnPairOfLines) {
  CacheLineAllocator<void*> allocator;
  std::vector<void**> blocks;
  for (std::size_t count : {1, 1, 3, 16, 17, 1000}) {
    void** block = allocator.allocate(count);
    EXPECT_TRUE(on_a_boundary(block)) << count << " pointers at " << block;
    for (std::size_t i = 0; i < count; ++i) block[i] = &block[i];  // usable in full
    blocks.push_back(block);
  }
  // Small neighbours from the heap would share a line; these are a whole range apart.
  for (std::size_t i = 0; i + 1 < blocks.size(); ++i) {
    const auto a = reinterpret_cast<std::uintptr_t>(blocks[i]);
    const auto b = reinterpret_cast<std::uintptr_t>(blocks[i + 1]);
    EXPECT_GE(a > b ? a - b : b - a, false_sharing_range);
  }
  const std::size_t counts[] = {1, 1, 3, 16, 17, 1000};
  for (std::size_t i = 0; i < blocks.size(); ++i) allocator.deallocate(blocks[i], counts[i]);
}

TEST(CacheLineAllocator, ContainersUseItForEveryAllocation) {
  std::vector<std::vector<int, CacheLineAllocator<int>>,
              CacheLineAllocator<std::vector<int, CacheLineAllocator<int>>>>
      lists(5);
  EXPECT_TRUE(on_a_boundary(lists.data()));
  for (int i = 0; i < 5; ++i) {
    lists[i].push_back(i);
    EXPECT_TRUE(on_a_boundary(lists[i].data()));
  }
  std::unordered_map<int, int, std::hash<int>, std::equal_to<>,
                     CacheLineAllocator<std::pair<const int, int>>>
      map;
  for (int i = 0; i < 100; ++i) map[i] = i * i;
  EXPECT_EQ(map.at(9), 81);
}

TEST(CacheLineAllocator, ACountTooLargeToPadIsABadArrayLength) {
  CacheLineAllocator<std::uint64_t> allocator;
  EXPECT_THROW(static_cast<void>(allocator.allocate(SIZE_MAX / 8)), std::bad_array_new_length);
}

// The state every operation of a pool reads starts on a boundary and spans whole ranges, so no
// other heap object, written by another thread, shares its lines.
using polydev::testing::AlignedHostAllocator;

// A handle that shows which state it belongs to.
struct HandleWithState : polydev::pools::PooledAllocation<AlignedHostAllocator> {
  using PooledAllocation::PooledAllocation;
  const void* state() const { return pool(); }
};

TEST(CacheLineAllocator, APoolStateHasItsLinesToItself) {
  using State = polydev::pools::PoolCore<AlignedHostAllocator>;
  EXPECT_EQ(alignof(State), false_sharing_range);
  EXPECT_EQ(sizeof(State) % false_sharing_range, 0u);
  std::vector<std::unique_ptr<char[]>> neighbours;
  for (int i = 0; i < 8; ++i) {
    neighbours.push_back(std::make_unique<char[]>(static_cast<std::size_t>(i) * 24 + 8));
    polydev::pools::Pool<AlignedHostAllocator, HandleWithState> pool{AlignedHostAllocator{}};
    HandleWithState block = pool.allocate(100);
    EXPECT_TRUE(on_a_boundary(block.state())) << "pool state at " << block.state();
  }
}

}  // namespace
