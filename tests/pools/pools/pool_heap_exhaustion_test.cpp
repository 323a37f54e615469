// The pool when the host heap runs out in a return: the block it cannot remember (its held list
// would have to grow) goes back to the allocator, and giving held blocks back without room for
// the list frees them one at a time. Neither loses a block nor ends the process (a pool's return
// is noexcept). This binary replaces the global allocation functions so that a test can make the
// heap fail for one call; it is a binary of its own so that no other test runs with them.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <set>
#include <vector>

#include "polydev/pools/pool.hpp"

namespace {

// While true, every operator new throws std::bad_alloc. Set only around the call under test.
bool heap_exhausted = false;

void* allocate_or_throw(std::size_t bytes, std::size_t alignment) {
  if (heap_exhausted) throw std::bad_alloc();
  if (bytes == 0) bytes = 1;
  void* block =
      alignment <= alignof(std::max_align_t)
          ? std::malloc(bytes)
          : std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate_or_throw(bytes, 0); }
void* operator new[](std::size_t bytes) { return allocate_or_throw(bytes, 0); }
void* operator new(std::size_t bytes, std::align_val_t alignment) {
  return allocate_or_throw(bytes, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t bytes, std::align_val_t alignment) {
  return allocate_or_throw(bytes, static_cast<std::size_t>(alignment));
}
void operator delete(void* block) noexcept { std::free(block); }
void operator delete[](void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }
void operator delete[](void* block, std::size_t) noexcept { std::free(block); }
void operator delete(void* block, std::align_val_t) noexcept { std::free(block); }
void operator delete[](void* block, std::align_val_t) noexcept { std::free(block); }
void operator delete(void* block, std::size_t, std::align_val_t) noexcept { std::free(block); }
void operator delete[](void* block, std::size_t, std::align_val_t) noexcept { std::free(block); }

namespace {

// Blocks are addresses from a counter (never dereferenced); the allocator records what is live.
// Not FaultInjectingAllocator (tests/support): its free appends to a list, which needs the heap
// these tests take away, and a free may not throw.
struct Ledger {
  std::set<std::uintptr_t> live;
  std::size_t frees = 0;
  std::uintptr_t next = 4096;
};

class LedgerAllocator {
 public:
  using block_type = void*;
  explicit LedgerAllocator(Ledger& ledger) : ledger_(&ledger) {}
  void* allocate(std::size_t) {
    ledger_->live.insert(ledger_->next);
    return reinterpret_cast<void*>(ledger_->next++ * 256);
  }
  void free(void* block) noexcept {
    ledger_->live.erase(reinterpret_cast<std::uintptr_t>(block) / 256);
    ++ledger_->frees;
  }

 private:
  Ledger* ledger_;
};

using LedgerPool = polydev::pools::Pool<LedgerAllocator>;

TEST(PoolHeapExhaustion, AReturnThatCannotBeHeldGoesBackToTheAllocator) {
  Ledger ledger;
  LedgerPool pool{LedgerAllocator(ledger)};
  auto block = pool.allocate(1000);  // its bin has never held a block: holding it needs the heap
  ASSERT_EQ(ledger.live.size(), 1u);
  heap_exhausted = true;
  block.release();
  heap_exhausted = false;
  EXPECT_EQ(ledger.frees, 1u) << "the block the pool could not hold should be freed";
  EXPECT_TRUE(ledger.live.empty());
  const polydev::pools::PoolCounters counters = pool.counters();
  EXPECT_EQ(counters.held_blocks, 0u);
  EXPECT_EQ(counters.active_blocks, 0u);
  EXPECT_EQ(counters.managed_bytes, 0u);
  EXPECT_EQ(counters.active_bytes, 0u);
  // The pool goes on as before.
  { auto again = pool.allocate(1000); }
  EXPECT_EQ(pool.held_blocks(), 1u);
}

TEST(PoolHeapExhaustion, GivingHeldBlocksBackWithoutHeapFreesEachOfThem) {
  Ledger ledger;
  LedgerPool pool{LedgerAllocator(ledger)};
  {
    std::vector<polydev::pools::PooledAllocation<LedgerAllocator>> blocks;
    for (std::size_t size : {100, 1000, 1000, 10000, 100000}) blocks.push_back(pool.allocate(size));
  }
  ASSERT_EQ(pool.held_blocks(), 5u);
  heap_exhausted = true;
  pool.free_held();
  heap_exhausted = false;
  EXPECT_EQ(ledger.frees, 5u);
  EXPECT_TRUE(ledger.live.empty());
  EXPECT_EQ(pool.held_blocks(), 0u);
  EXPECT_EQ(pool.managed_bytes(), 0u);
}

}  // namespace
