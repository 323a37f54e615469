// The pool algorithm (polydev::pools::Pool / PoolCore / BinScheme) over a fault-injecting allocator
// on the host heap: size classes, counters, reuse order, out-of-memory recovery, pass-through of
// other errors, stop_holding, lifetimes and a many-thread run. Needs no device.
#include "polydev/pools/pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/pools/bins.hpp"
#include "support/pool_counters.hpp"

namespace {

using polydev::pools::BinScheme;

// What the fake allocator did and what it is told to do, shared by its copies.
struct FakeState {
  std::mutex mutex;
  std::size_t calls = 0;                // allocate() calls so far
  std::set<std::size_t> oom_calls;      // 1-based calls that throw out_of_memory
  std::set<std::size_t> failing_calls;  // 1-based calls that throw backend_error
  std::size_t byte_cap = std::numeric_limits<std::size_t>::max();  // live bytes allowed
  std::map<void*, std::size_t> live;                               // block -> bytes
  std::size_t live_bytes = 0;
  std::vector<std::size_t> requests;  // bytes of every allocate() call, failed ones included
  std::vector<std::size_t> frees;     // bytes of every freed block, in order
};

// The allocator concept of pool.hpp over std::malloc, failing on chosen calls or above a cap.
class FakeAllocator {
 public:
  using block_type = void*;

  FakeAllocator() : state_(std::make_shared<FakeState>()) {}

  void* allocate(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    const std::size_t call = ++state_->calls;
    state_->requests.push_back(bytes);
    if (state_->failing_calls.count(call) != 0) {
      throw polydev::backend_error("Fake", "fake_allocate", -5, "FAKE_DEVICE_LOST",
                                   "call " + std::to_string(call));
    }
    if (state_->oom_calls.count(call) != 0 || bytes > state_->byte_cap ||
        state_->live_bytes > state_->byte_cap - bytes) {
      throw polydev::out_of_memory("fake_allocate of " + std::to_string(bytes) + " bytes failed");
    }
    void* block = std::malloc(bytes);
    if (block == nullptr) throw polydev::out_of_memory("host heap exhausted");
    state_->live.emplace(block, bytes);
    state_->live_bytes += bytes;
    return block;
  }

  void free(void* block) noexcept {
    std::lock_guard<std::mutex> lock(state_->mutex);
    const auto found = state_->live.find(block);
    if (found == state_->live.end()) {
      ADD_FAILURE() << "freed a block the allocator does not own (double free?)";
      return;
    }
    state_->live_bytes -= found->second;
    state_->frees.push_back(found->second);
    state_->live.erase(found);
    std::free(block);
  }

  FakeState& state() const { return *state_; }

 private:
  std::shared_ptr<FakeState> state_;
};

using FakePool = polydev::pools::Pool<FakeAllocator>;
using Counters = polydev::pools::PoolCounters;

// held, active, managed, active_bytes
void expect_counters(const FakePool& pool, std::size_t held, std::size_t active,
                     std::size_t managed, std::size_t active_bytes, const char* step) {
  polydev::testing::pools_support::expect_counters(pool, held, active, managed, active_bytes, step);
  const Counters c = pool.counters();
  // Every managed byte is a live allocation of the allocator.
  EXPECT_EQ(c.managed_bytes, pool.allocator().state().live_bytes) << step;
  EXPECT_EQ(c.held_blocks + c.active_blocks, pool.allocator().state().live.size()) << step;
}

// ---------------------------------------------------------------------------------------------
// Size classes

// The values of PyOpenCL's and PyCUDA's bitlog2 (semantics.md, bin arithmetic; PyCUDA's
// test_bitlog).
TEST(Bitlog2, GivesTheSeedsValues) {
  using polydev::pools::bitlog2;
  EXPECT_EQ(bitlog2(0), 0u) << "the seeds give 0 for 0, as for 1";
  EXPECT_EQ(bitlog2(1), 0u);
  EXPECT_EQ(bitlog2(2), 1u);
  EXPECT_EQ(bitlog2(3), 1u);
  EXPECT_EQ(bitlog2(4), 2u);
  EXPECT_EQ(bitlog2(17), 4u);
  EXPECT_EQ(bitlog2(1023), 9u);
  EXPECT_EQ(bitlog2(1024), 10u);
  EXPECT_EQ(bitlog2(0xAFFE), 15u);
  EXPECT_EQ(bitlog2(0x3AFFE), 17u);
  EXPECT_EQ(bitlog2(0xCC3AFFE), 27u);
  EXPECT_EQ(bitlog2(std::size_t{1} << 40), 40u);
  EXPECT_EQ(bitlog2(std::numeric_limits<std::size_t>::max()),
            static_cast<unsigned>(std::numeric_limits<std::size_t>::digits - 1));
  static_assert(bitlog2(1024) == 10, "usable in constant expressions");
}

struct BinRow {
  std::uint64_t size;
  std::uint64_t alloc_size;
  std::uint32_t bin;
};

TEST(BinScheme, DefaultTableRoundsUpToClassBoundaries) {
  const BinScheme scheme(4);
  const BinRow rows[] = {
      {0, 1, 0},
      {1, 1, 0},
      {2, 2, 16},
      {3, 3, 24},
      {7, 7, 44},
      {8, 8, 48},
      {15, 15, 62},
      {16, 16, 64},
      {17, 17, 65},
      {1000, 1024, 160},
      {1023, 1024, 160},
      {1024, 1024, 160},
      {1025, 1088, 161},
      {4096, 4096, 192},
      {1000000, 1015808, 319},
      {(std::uint64_t{1} << 31) + 1, 2281701376u, 497},
      {std::uint64_t{1} << 40, std::uint64_t{1} << 40, 640},
  };
  for (const BinRow& row : rows) {
    const std::uint32_t bin = scheme.bin_number(row.size);
    EXPECT_EQ(bin, row.bin) << "size " << row.size;
    EXPECT_EQ(scheme.alloc_size(bin), row.alloc_size) << "size " << row.size;
  }
}

TEST(BinScheme, PoolReportsTheSameClasses) {
  const FakePool pool{FakeAllocator()};
  EXPECT_EQ(pool.bin_number(1000), 160u);
  EXPECT_EQ(pool.alloc_size(160), 1024u);
  EXPECT_EQ(pool.bin_number(0), 0u);
  EXPECT_EQ(pool.alloc_size(0), 1u);
}

// Rounds up, wastes less than s / 2^B (nothing on class boundaries), round-trips, is monotonic.
void check_scheme(unsigned leading_bits) {
  SCOPED_TRACE("leading_bits " + std::to_string(leading_bits));
  const BinScheme scheme(leading_bits);
  auto check_size = [&](std::uint64_t s) {
    const std::uint32_t bin = scheme.bin_number(s);
    const std::uint64_t a = scheme.alloc_size(bin);
    const std::uint64_t wanted = s == 0 ? 1 : s;
    ASSERT_GE(a, wanted) << "size " << s;
    // waste < s / 2^B  <=>  waste <= (s - 1) >> B
    ASSERT_LE(a - wanted, (wanted - 1) >> leading_bits) << "size " << s;
    ASSERT_EQ(scheme.bin_number(a), bin) << "size " << s << " rounds to " << a;
    ASSERT_EQ(scheme.alloc_size(scheme.bin_number(a)), a) << "size " << s;
  };
  // Exhaustive for small sizes: exact below 2^(B+1), monotonic.
  const std::uint64_t exact_below = std::uint64_t{2} << leading_bits;
  std::uint32_t previous = 0;
  for (std::uint64_t s = 0; s < 4 * exact_below + 100; ++s) {
    check_size(s);
    const std::uint32_t bin = scheme.bin_number(s);
    ASSERT_GE(bin, previous) << "bins decrease at size " << s;
    previous = bin;
    if (s >= 1 && s < exact_below) {
      ASSERT_EQ(scheme.alloc_size(bin), s) << "size " << s;
    }
  }
  // Powers of two are class boundaries: no waste, and bins grow with them.
  for (unsigned k = 0; k < 64; ++k) {
    const std::uint64_t p = std::uint64_t{1} << k;
    if (p > scheme.max_size()) break;
    EXPECT_EQ(scheme.alloc_size(scheme.bin_number(p)), p) << "2^" << k;
  }
  // Log-uniform random sizes up to the largest class, with a fixed seed.
  std::mt19937_64 random(20261122u + leading_bits);
  std::uniform_int_distribution<unsigned> exponent(0, 63);
  for (int i = 0; i < 20000; ++i) {
    const unsigned e = exponent(random);
    std::uint64_t s = random() >> (63 - e);  // below 2^(e+1)
    if (s > scheme.max_size()) s = scheme.max_size();
    check_size(s);
  }
  check_size(scheme.max_size());
  EXPECT_EQ(scheme.alloc_size(scheme.bin_number(scheme.max_size())), scheme.max_size());
}

TEST(BinScheme, RoundTripAndWasteForSeveralLeadingBits) {
  for (unsigned b : {0u, 2u, 4u, 8u}) check_scheme(b);
}

TEST(BinScheme, LeadingBitsZeroIsPowersOfTwo) {
  const BinScheme scheme(0);
  EXPECT_EQ(scheme.alloc_size(scheme.bin_number(5)), 8u);
  EXPECT_EQ(scheme.alloc_size(scheme.bin_number(1025)), 2048u);
  EXPECT_EQ(scheme.max_size(), std::uint64_t{1} << 63);
}

TEST(BinScheme, RejectsTooManyLeadingBits) {
  EXPECT_NO_THROW(BinScheme(16));
  try {
    BinScheme scheme(17);
    FAIL() << "leading_bits_in_bin_id 17 was accepted";
  } catch (const std::invalid_argument& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("leading_bits_in_bin_id is 17"), std::string::npos) << message;
    EXPECT_NE(message.find("0 to 16"), std::string::npos) << message;
  }
  EXPECT_THROW(FakePool(FakeAllocator(), 17), std::invalid_argument);
}

TEST(BinScheme, RejectsSizesAboveTheLargestClass) {
  const BinScheme scheme(4);
  const std::size_t largest = scheme.max_size();
  EXPECT_EQ(largest, std::size_t{0x1F} << 59);
  EXPECT_NO_THROW(scheme.bin_number(largest));
  try {
    scheme.bin_number(largest + 1);
    FAIL() << "size above max_size() was accepted";
  } catch (const std::length_error& failure) {
    EXPECT_NE(std::string(failure.what()).find(std::to_string(largest + 1)), std::string::npos)
        << failure.what();
  }
  EXPECT_THROW(scheme.bin_number(std::numeric_limits<std::size_t>::max()), std::length_error);

  FakePool pool{FakeAllocator()};
  EXPECT_THROW(pool.allocate(std::numeric_limits<std::size_t>::max()), std::length_error);
  EXPECT_EQ(pool.allocator().state().calls, 0u) << "the allocator was asked for an impossible size";
  expect_counters(pool, 0, 0, 0, 0, "after the rejected request");
}

// ---------------------------------------------------------------------------------------------
// Counters and reuse

TEST(PoolCounters, ScriptedSequence) {
  FakePool pool{FakeAllocator()};
  expect_counters(pool, 0, 0, 0, 0, "new pool");

  auto a = pool.allocate(1000);
  EXPECT_EQ(a.size(), 1000u);
  expect_counters(pool, 0, 1, 1024, 1000, "a = allocate(1000)");
  void* const a_block = a.block();

  auto b = pool.allocate(1010);
  expect_counters(pool, 0, 2, 2048, 2010, "b = allocate(1010), same bin");

  a.release();
  EXPECT_FALSE(a.valid());
  expect_counters(pool, 1, 1, 2048, 1010, "a.release()");

  auto c = pool(1020);
  EXPECT_EQ(c.block(), a_block) << "the held block of bin 160 was not reused";
  expect_counters(pool, 0, 2, 2048, 2030, "c = pool(1020) reuses a's block");

  EXPECT_THROW(a.release(), polydev::error);
  expect_counters(pool, 0, 2, 2048, 2030, "second a.release() changes nothing");

  { auto gone = std::move(b); }
  expect_counters(pool, 1, 1, 2048, 1020, "b destroyed");

  auto z = pool.allocate(0);
  EXPECT_EQ(z.size(), 0u);
  EXPECT_NE(z.block(), nullptr) << "a 0-byte request is a real 1-byte block";
  expect_counters(pool, 1, 2, 2049, 1020, "z = allocate(0)");
  EXPECT_EQ(pool.allocator().state().requests.back(), 1u);

  z.release();
  expect_counters(pool, 2, 1, 2049, 1020, "z.release()");

  pool.free_held();
  expect_counters(pool, 0, 1, 1024, 1020, "free_held()");

  pool.stop_holding();
  expect_counters(pool, 0, 1, 1024, 1020, "stop_holding()");

  c.release();
  expect_counters(pool, 0, 0, 0, 0, "c.release() after stop_holding frees at once");

  auto d = pool.allocate(5000);
  expect_counters(pool, 0, 1, 5120, 5000, "d = allocate(5000)");
  d.release();
  expect_counters(pool, 0, 0, 0, 0, "d.release()");

  const FakeState& state = pool.allocator().state();
  EXPECT_EQ(state.calls, 4u) << "a, b, z and d; c reused a's block";
  EXPECT_EQ(state.frees.size(), 4u);
}

TEST(PoolCounters, ReuseIsLastInFirstOutWithinOneBin) {
  FakePool pool{FakeAllocator()};
  auto x = pool.allocate(1000);
  auto y = pool.allocate(1001);
  auto z = pool.allocate(1024);
  void* const blocks[] = {x.block(), y.block(), z.block()};
  x.release();
  y.release();
  z.release();
  EXPECT_EQ(pool.held_blocks(), 3u);
  auto first = pool.allocate(999);
  auto second = pool.allocate(1000);
  auto third = pool.allocate(1017);
  EXPECT_EQ(first.block(), blocks[2]);
  EXPECT_EQ(second.block(), blocks[1]);
  EXPECT_EQ(third.block(), blocks[0]);
  EXPECT_EQ(pool.allocator().state().calls, 3u);
}

TEST(PoolCounters, ReuseNeverCrossesBins) {
  FakePool pool{FakeAllocator()};
  auto held = pool.allocate(1024);  // bin 160
  void* const held_block = held.block();
  held.release();

  auto larger = pool.allocate(1025);        // bin 161
  auto smaller = pool.allocate(1023 - 64);  // 959 -> 960, bin 158
  EXPECT_NE(larger.block(), held_block);
  EXPECT_NE(smaller.block(), held_block);
  EXPECT_EQ(pool.held_blocks(), 1u);
  EXPECT_EQ(pool.allocator().state().calls, 3u);
  expect_counters(pool, 1, 2, 1024 + 1088 + 960, 1025 + 959, "neighbouring bins");
}

// The optional hook runs when a held block is handed out again, and only then.
class HookAllocator : public FakeAllocator {
 public:
  explicit HookAllocator(std::shared_ptr<std::vector<void*>> log) : log_(std::move(log)) {}
  void hand_out_existing_block(void*& block) { log_->push_back(block); }

 private:
  std::shared_ptr<std::vector<void*>> log_;
};

TEST(PoolCounters, HandOutHookRunsOnReuseOnly) {
  auto log = std::make_shared<std::vector<void*>>();
  polydev::pools::Pool<HookAllocator> pool{HookAllocator(log)};
  auto a = pool.allocate(64);
  EXPECT_TRUE(log->empty()) << "hook called for a new block";
  void* const block = a.block();
  a.release();
  auto again = pool.allocate(64);
  ASSERT_EQ(log->size(), 1u);
  EXPECT_EQ(log->front(), block);
}

// A hook that fails (an SVM queue that cannot be waited on, say) must not lose the block.
class ThrowingHookAllocator : public FakeAllocator {
 public:
  void hand_out_existing_block(void*&) { throw polydev::error("hook failed"); }
};

TEST(PoolCounters, AThrowingHandOutHookReturnsTheBlockToThePool) {
  polydev::pools::Pool<ThrowingHookAllocator> pool{ThrowingHookAllocator()};
  pool.allocate(64).release();
  ASSERT_EQ(pool.held_blocks(), 1u);
  EXPECT_THROW(pool.allocate(64), polydev::error);
  EXPECT_EQ(pool.held_blocks(), 1u) << "the block was lost";
  EXPECT_EQ(pool.active_blocks(), 0u);
  EXPECT_EQ(pool.active_bytes(), 0u);
}

// ---------------------------------------------------------------------------------------------
// Out of memory

TEST(PoolOutOfMemory, FreesHeldBlocksLargestFirstOneAtATimeThenRetries) {
  FakePool pool{FakeAllocator()};
  FakeState& state = pool.allocator().state();
  {
    auto small = pool.allocate(1024);
    auto medium = pool.allocate(4096);
    auto large = pool.allocate(65536);
    auto large2 = pool.allocate(65536);
  }
  expect_counters(pool, 4, 0, 1024 + 4096 + 2 * 65536, 0, "four held blocks");
  auto active = pool.allocate(100);  // 100 bytes, class 100 (exact: 100 = 0b1100100 -> 100)
  const std::size_t active_bytes = pool.alloc_size(pool.bin_number(100));

  // Room for 2 * 65536 more bytes only once both large blocks are freed.
  state.byte_cap = state.live_bytes + 65535;
  state.frees.clear();
  state.requests.clear();
  auto big = pool.allocate(2 * 65536);
  EXPECT_EQ(state.frees, (std::vector<std::size_t>{65536, 65536}))
      << "the pool freed something other than the two largest held blocks";
  EXPECT_EQ(state.requests, (std::vector<std::size_t>{131072, 131072, 131072}))
      << "expected a try, a retry after each freed block";
  expect_counters(pool, 2, 2, 1024 + 4096 + active_bytes + 131072, 100 + 131072, "after recovery");
  big.release();
  active.release();
  pool.free_held();
  expect_counters(pool, 0, 0, 0, 0, "everything returned");
}

TEST(PoolOutOfMemory, FailureOnAChosenCallIsRetriedAfterFreeingAHeldBlock) {
  FakePool pool{FakeAllocator()};
  FakeState& state = pool.allocator().state();
  { auto held = pool.allocate(4096); }
  state.oom_calls = {2};
  auto other_bin = pool.allocate(3000);
  EXPECT_EQ(state.calls, 3u);
  EXPECT_EQ(state.frees, (std::vector<std::size_t>{4096}));
  expect_counters(pool, 0, 1, 3072, 3000, "after the retry");
}

TEST(PoolOutOfMemory, NothingToFreeThrowsWithSizeAndCounters) {
  FakePool pool{FakeAllocator()};
  FakeState& state = pool.allocator().state();
  auto active = pool.allocate(100);
  { auto held = pool.allocate(4096); }
  state.byte_cap = 100 + 1023;  // 1024 more bytes never fit, even after freeing the held block
  try {
    auto never = pool.allocate(1000);
    FAIL() << "allocation succeeded above the cap";
  } catch (const polydev::out_of_memory& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("pool allocation of 1000 bytes (1024 with rounding)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("fake_allocate of 1024 bytes failed"), std::string::npos) << message;
    EXPECT_NE(message.find("1 active blocks of 100 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("100 bytes managed, 0 held"), std::string::npos) << message;
  }
  EXPECT_EQ(state.frees, (std::vector<std::size_t>{4096})) << "the held block was not freed";
  expect_counters(pool, 0, 1, 100, 100, "after the failure");
  active.release();
  expect_counters(pool, 1, 0, 100, 0, "after release");
}

TEST(PoolOutOfMemory, IsAStdBadAlloc) {
  FakePool pool{FakeAllocator()};
  pool.allocator().state().byte_cap = 10;
  EXPECT_THROW(pool.allocate(11), std::bad_alloc);
  EXPECT_NO_THROW(pool.allocate(10));
}

TEST(PoolErrors, OtherErrorsPassThroughUnchanged) {
  FakePool pool{FakeAllocator()};
  FakeState& state = pool.allocator().state();
  { auto held = pool.allocate(4096); }
  auto active = pool.allocate(8);
  state.failing_calls = {3};
  try {
    auto never = pool.allocate(1000);
    FAIL() << "the failing call succeeded";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.backend(), "Fake");
    EXPECT_EQ(failure.api(), "fake_allocate");
    EXPECT_EQ(failure.code(), -5);
    EXPECT_EQ(failure.code_name(), "FAKE_DEVICE_LOST");
    EXPECT_EQ(std::string(failure.what()), "fake_allocate failed: FAKE_DEVICE_LOST (-5): call 3");
  }
  EXPECT_TRUE(state.frees.empty()) << "a non-memory error freed held blocks";
  expect_counters(pool, 1, 1, 4096 + 8, 8, "after the failure");
  EXPECT_NO_THROW(pool.allocate(1000)) << "the pool is still usable";
}

// ---------------------------------------------------------------------------------------------
// stop_holding, release, lifetime

TEST(PoolHolding, StopHoldingFreesHeldAndLaterReturns) {
  FakePool pool{FakeAllocator()};
  FakeState& state = pool.allocator().state();
  auto a = pool.allocate(1000);
  auto b = pool.allocate(2000);
  { auto held = pool.allocate(300); }
  expect_counters(pool, 1, 2, 1024 + 2048 + 304, 3000, "before");
  pool.stop_holding();
  expect_counters(pool, 0, 2, 1024 + 2048, 3000, "stop_holding frees the held block");
  a.release();
  expect_counters(pool, 0, 1, 2048, 2000, "a freed at once");
  EXPECT_EQ(state.frees.back(), 1024u);
  auto c = pool.allocate(1000);
  EXPECT_EQ(state.calls, 4u) << "nothing is held, so a new block";
  c.release();
  b.release();
  expect_counters(pool, 0, 0, 0, 0, "all returned");
  pool.stop_holding();  // a second call is harmless
  expect_counters(pool, 0, 0, 0, 0, "second stop_holding");
}

TEST(PoolHolding, DestroyingThePoolFreesHeldBlocks) {
  FakeAllocator allocator;
  {
    FakePool pool{allocator};
    auto a = pool.allocate(10);
    auto b = pool.allocate(20000);
  }
  EXPECT_TRUE(allocator.state().live.empty());
  EXPECT_EQ(allocator.state().frees.size(), 2u);
}

// A fine scheme (8 leading bits) puts sizes from 64 KiB up in bins above the flat table's 4096:
// free_held must give back the blocks of both kinds of bin, and only once.
TEST(PoolHolding, FreeHeldGivesBackEveryBinOfAFineScheme) {
  FakePool pool{FakeAllocator(), 8};
  FakeState& state = pool.allocator().state();
  std::vector<std::size_t> sizes;
  for (std::size_t size = 1; size <= (std::size_t{4} << 20); size = size * 5 / 4 + 1) {
    sizes.push_back(size);
  }
  ASSERT_GT(pool.bin_number(sizes.back()), 4096u) << "the test needs bins beyond the flat table";
  std::size_t managed = 0;
  {
    std::vector<polydev::pools::PooledAllocation<FakeAllocator>> blocks;
    for (std::size_t size : sizes) {
      blocks.push_back(pool.allocate(size));
      managed += pool.alloc_size(pool.bin_number(size));
    }
  }
  expect_counters(pool, sizes.size(), 0, managed, 0, "every block held");
  pool.free_held();
  expect_counters(pool, 0, 0, 0, 0, "free_held gave back every bin");
  EXPECT_EQ(state.frees.size(), sizes.size());
  pool.free_held();
  EXPECT_EQ(state.frees.size(), sizes.size()) << "a second free_held found blocks again";
  // The emptied bins take blocks again and hand them out.
  { auto again = pool.allocate(sizes.back()); }
  const std::size_t calls = state.calls;
  auto reused = pool.allocate(sizes.back());
  EXPECT_EQ(state.calls, calls) << "the block held after free_held was not reused";
}

// Largest first looks at bins of the flat table and beyond it alike.
TEST(PoolOutOfMemory, LargestFirstCoversEveryBinOfAFineScheme) {
  FakePool pool{FakeAllocator(), 8};
  FakeState& state = pool.allocator().state();
  const std::size_t large = std::size_t{1} << 20;  // a bin beyond the flat table
  const std::size_t small = 1024;                  // a bin of the flat table
  ASSERT_GE(pool.bin_number(large), 4096u);
  ASSERT_LT(pool.bin_number(small), 4096u);
  {
    auto a = pool.allocate(small);
    auto b = pool.allocate(large);
    auto c = pool.allocate(small * 2);
  }
  // Room for twice `large` only once the held large block is freed.
  state.byte_cap = state.live_bytes + large;
  state.frees.clear();
  auto request = pool.allocate(2 * large);
  EXPECT_EQ(state.frees, (std::vector<std::size_t>{large}))
      << "the largest held block is in a bin beyond the flat table and should go first";
  expect_counters(pool, 2, 1, small + small * 2 + 2 * large, 2 * large, "after recovery");
}

TEST(PooledAllocation, DoubleReleaseIsAnError) {
  FakePool pool{FakeAllocator()};
  auto a = pool.allocate(64);
  a.release();
  try {
    a.release();
    FAIL() << "second release accepted";
  } catch (const polydev::error& failure) {
    EXPECT_NE(std::string(failure.what()).find("released twice"), std::string::npos);
  }
  EXPECT_EQ(pool.held_blocks(), 1u) << "the block was returned twice";
}

TEST(PooledAllocation, MoveTransfersOwnership) {
  FakePool pool{FakeAllocator()};
  auto a = pool.allocate(64);
  void* const block = a.block();
  auto b = std::move(a);
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): checking the moved-from state
  EXPECT_TRUE(b.valid());
  EXPECT_EQ(b.block(), block);
  EXPECT_THROW(a.release(), polydev::error);
  auto c = pool.allocate(128);
  c = std::move(b);  // c's own block returns to the pool
  EXPECT_EQ(pool.held_blocks(), 1u);
  EXPECT_EQ(pool.active_blocks(), 1u);
  EXPECT_EQ(c.block(), block);
  polydev::pools::PooledAllocation<FakeAllocator> empty;
  EXPECT_FALSE(empty.valid());
  EXPECT_THROW(empty.release(), polydev::error);
}

TEST(PooledAllocation, OutlivesItsPoolObject) {
  FakeAllocator allocator;
  polydev::pools::PooledAllocation<FakeAllocator> survivor;
  {
    FakePool pool{allocator};
    survivor = pool.allocate(4000);
    { auto held = pool.allocate(10); }
  }
  // The pool object is gone; its state lives on with the active block, and the held block, which
  // nothing can reuse any more, went back to the allocator with the pool object.
  EXPECT_TRUE(survivor.valid());
  EXPECT_EQ(allocator.state().live.size(), 1u);
  std::memset(survivor.block(), 0x5A, survivor.size());
  survivor.release();
  EXPECT_TRUE(allocator.state().live.empty()) << "the last block did not take the pool's state";
}

// ---------------------------------------------------------------------------------------------
// Threads

// Threads allocate, fill, check and release random sizes on one pool; every block carries its
// owner's pattern, so a block handed out twice at once is detected. With `cap`, allocations fail
// now and then and the pool's out-of-memory path runs concurrently too.
void stress(std::size_t cap) {
  FakePool pool{FakeAllocator()};
  pool.allocator().state().byte_cap = cap;
  constexpr int threads = 16;
  constexpr int steps = 3000;
  std::atomic<int> corrupted{0};
  std::atomic<int> oom_count{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937 random(1234u + static_cast<unsigned>(t));
      std::uniform_int_distribution<std::size_t> size_exponent(0, 16);
      std::vector<polydev::pools::PooledAllocation<FakeAllocator>> mine;
      const auto tag = static_cast<unsigned char>(t + 1);
      for (int step = 0; step < steps; ++step) {
        if (mine.size() < 8 && (mine.empty() || random() % 2 == 0)) {
          const std::size_t size = (std::size_t{1} << size_exponent(random)) + random() % 100;
          try {
            auto block = pool.allocate(size);
            std::memset(block.block(), tag, size);
            mine.push_back(std::move(block));
          } catch (const polydev::out_of_memory&) {
            ++oom_count;
          }
        } else {
          const std::size_t victim = random() % mine.size();
          auto& block = mine[victim];
          const auto* bytes = static_cast<const unsigned char*>(block.block());
          for (std::size_t i = 0; i < block.size(); ++i) {
            if (bytes[i] != tag) {
              ++corrupted;
              break;
            }
          }
          mine[victim] = std::move(mine.back());
          mine.pop_back();
        }
      }
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(corrupted.load(), 0) << "a block was handed to two threads at once";
  const Counters c = pool.counters();
  EXPECT_EQ(c.active_blocks, 0u);
  EXPECT_EQ(c.active_bytes, 0u);
  const FakeState& state = pool.allocator().state();
  EXPECT_EQ(c.held_blocks, state.live.size());
  EXPECT_EQ(c.managed_bytes, state.live_bytes);
  pool.free_held();
  expect_counters(pool, 0, 0, 0, 0, "after free_held");
  if (cap != std::numeric_limits<std::size_t>::max()) {
    ::testing::Test::RecordProperty("out_of_memory", oom_count.load());
  }
}

TEST(PoolThreads, SixteenThreadsKeepCountersConsistent) {
  stress(std::numeric_limits<std::size_t>::max());
}

TEST(PoolThreads, SixteenThreadsUnderMemoryPressure) { stress(std::size_t{1} << 20); }

// Held blocks sit in the shard of the thread that returned them (pool.hpp); these check that every
// thread still sees every held block.

// Runs `work` on a new thread and waits for it.
template <typename Work>
void on_another_thread(Work work) {
  std::thread thread(work);
  thread.join();
}

TEST(PoolThreads, ABlockReturnedByAnotherThreadIsReused) {
  FakePool pool{FakeAllocator()};
  void* returned = nullptr;
  on_another_thread([&] {
    auto block = pool.allocate(4096);
    returned = block.block();
  });
  auto block = pool.allocate(4096);
  EXPECT_EQ(block.block(), returned);
  EXPECT_EQ(pool.allocator().state().calls, 1u) << "the held block was not found";
  expect_counters(pool, 0, 1, 4096, 4096, "reused across threads");
}

TEST(PoolThreads, CountersAddUpOverBlocksOfManyThreads) {
  FakePool pool{FakeAllocator()};
  std::vector<polydev::pools::PooledAllocation<FakeAllocator>> kept(8);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kept.size(); ++t) {
    threads.emplace_back([&, t] {
      pool.allocate(1000).release();                  // held in this thread's shard
      kept[t] = pool.allocate(std::size_t{1} << 20);  // active, returned later by the main thread
    });
  }
  for (auto& thread : threads) thread.join();
  // The 1000-byte blocks: each thread reused its own or another's, so 1 to 8 are held.
  const std::size_t held = pool.held_blocks();
  EXPECT_GE(held, 1u);
  EXPECT_LE(held, 8u);
  expect_counters(pool, held, 8, held * 1024 + 8 * (std::size_t{1} << 20),
                  8 * (std::size_t{1} << 20), "after the threads");
  kept.clear();
  expect_counters(pool, held + 8, 0, held * 1024 + 8 * (std::size_t{1} << 20), 0,
                  "every block returned");
  pool.free_held();
  expect_counters(pool, 0, 0, 0, 0, "free_held reaches every shard");
}

TEST(PoolThreads, OutOfMemoryFreesBlocksHeldForOtherThreads) {
  FakePool pool{FakeAllocator()};
  on_another_thread([&] { pool.allocate(std::size_t{1} << 20).release(); });
  pool.allocator().state().byte_cap = std::size_t{1} << 20;  // room for one MiB in all
  auto block = pool.allocate(std::size_t{1} << 19);          // another bin: must free the MiB
  EXPECT_EQ(pool.allocator().state().frees, std::vector<std::size_t>{std::size_t{1} << 20});
  expect_counters(pool, 0, 1, std::size_t{1} << 19, std::size_t{1} << 19, "after the retry");
}

TEST(PoolThreads, StopHoldingFreesWhatOtherThreadsReturnLater) {
  FakePool pool{FakeAllocator()};
  auto block = pool.allocate(64);
  pool.stop_holding();
  on_another_thread([&] { block.release(); });
  expect_counters(pool, 0, 0, 0, 0, "returned by another thread after stop_holding");
}

TEST(PoolThreads, TheLastReturnOnAnotherThreadEndsAPoolThatIsGone) {
  FakeAllocator allocator;
  std::optional<polydev::pools::PooledAllocation<FakeAllocator>> survivor;
  {
    FakePool pool{allocator};
    pool.allocate(128).release();  // held: freed when the pool goes
    survivor = pool.allocate(256);
  }
  EXPECT_EQ(allocator.state().live.size(), 1u);
  on_another_thread([&] { survivor.reset(); });
  EXPECT_TRUE(allocator.state().live.empty()) << "the last block did not take the pool's state";
}

}  // namespace
