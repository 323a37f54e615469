#pragma once

// The fault-injection scenarios that every pool kind must pass (fault_injection_opencl_test.cpp,
// fault_injection_cuda_test.cpp): polydev::pools::Pool over FaultInjectingAllocator around a real
// allocator. Out-of-memory makes the pool free held blocks largest first and retry, and the block
// it then hands out is real memory; when nothing helps, the error names the request and the pool;
// other errors pass through and free nothing; nothing leaks.
//
// `Derived` is the backend's fixture. It provides
//   FaultInjectingAllocator<Upstream> make_allocator();
//   void write_pattern(const Block&, std::size_t bytes, std::uint32_t seed);
//   void expect_pattern(const Block&, std::size_t bytes, std::uint32_t seed);
//   void expect_memory_of_its_kind(const Block&);  // what the upstream allocator promises
//   void expect_device_clean();                     // no error left on the device
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/pools/pool.hpp"
#include "support/fault_injecting_allocator.hpp"
#include "support/pool_counters.hpp"

namespace polydev::testing::fault_scenarios {

using Sizes = std::vector<std::size_t>;

/// The elements of `all` from index `first` on: what happened after a snapshot of the counts.
inline Sizes since(const Sizes& all, std::size_t first) {
  return first <= all.size() ? Sizes(all.begin() + static_cast<std::ptrdiff_t>(first), all.end())
                             : Sizes();
}

/// Every byte the pool manages is a live upstream allocation, and nothing was freed twice.
template <typename Pool, typename Faulty>
void expect_pool_owns_every_live_block(const Pool& pool, const Faulty& faults, const char* step) {
  const pools::PoolCounters pool_counts = pool.counters();
  const FaultInjectionCounts counts = faults.counts();
  EXPECT_EQ(pool_counts.managed_bytes, counts.live_bytes) << step;
  EXPECT_EQ(pool_counts.held_blocks + pool_counts.active_blocks, counts.live_blocks) << step;
  EXPECT_EQ(counts.unknown_frees, 0u) << "freed a block twice or one it did not allocate; " << step;
}

/// The five scenarios, each a test of `Derived`'s suite (see the file comment).
template <typename Derived, typename Upstream>
class PoolFaultScenarios {
 public:
  using Faulty = FaultInjectingAllocator<Upstream>;
  using FaultyPool = pools::Pool<Faulty>;
  using PoolCounters = pools::PoolCounters;

  // (a) A request above the cap frees held blocks largest first, one per retry, until it fits.
  void held_blocks_are_freed_largest_first_until_the_request_fits() {
    const Faulty faults = self().make_allocator();
    FaultyPool pool(faults);
    auto active = pool.allocate(4096);
    {
      auto small = pool.allocate(1024);
      auto medium = pool.allocate(16384);
      auto large = pool.allocate(65536);
      auto large2 = pool.allocate(65536);
    }
    pools_support::expect_counters(pool, {4, 1, 4096 + 1024 + 16384 + 2 * 65536, 4096},
                                   "four held, one active");
    const FaultInjectionCounts before = faults.counts();
    ASSERT_EQ(before.live_bytes, pool.managed_bytes());

    // 128 KiB fit only once both 64 KiB blocks are gone; the smaller ones must stay.
    faults.set_byte_cap(before.live_bytes + 65535);
    auto big = pool.allocate(131072);

    const FaultInjectionCounts after = faults.counts();
    EXPECT_EQ(since(faults.freed_sizes(), before.frees), (Sizes{65536, 65536}))
        << "the pool freed something other than the two largest held blocks";
    EXPECT_EQ(since(faults.requests(), before.calls), (Sizes{131072, 131072, 131072}))
        << "expected a try and a retry after each freed block";
    EXPECT_EQ(after.injected_faults - before.injected_faults, 2u);
    EXPECT_EQ(after.allocations - before.allocations, 1u);
    pools_support::expect_counters(pool, {2, 2, 4096 + 1024 + 16384 + 131072, 4096 + 131072},
                                   "after the retry");
    expect_pool_owns_every_live_block(pool, faults, "after the retry");

    self().expect_memory_of_its_kind(big.block());
    self().write_pattern(big.block(), 131072, 0xC0FFEEu);
    self().expect_pattern(big.block(), 131072, 0xC0FFEEu);
  }

  // (b) Nothing fits even with every held block freed: out_of_memory names the request and the
  // pool, the active block and its data survive, and a second failure changes nothing at all.
  void out_of_memory_names_the_request_and_loses_nothing() {
    const Faulty faults = self().make_allocator();
    FaultyPool pool(faults);
    auto active = pool.allocate(4096);
    self().write_pattern(active.block(), 4096, 0xA11CEu);
    {
      auto small = pool.allocate(1024);
      auto large = pool.allocate(65536);
    }
    const FaultInjectionCounts before = faults.counts();
    faults.set_byte_cap(before.live_bytes);  // no growth, ever
    const std::size_t request = 100000;
    const std::size_t rounded = pool.alloc_size(pool.bin_number(request));
    ASSERT_EQ(rounded, 102400u);

    try {
      auto never = pool.allocate(request);
      FAIL() << "an allocation above the cap succeeded";
    } catch (const polydev::out_of_memory& failure) {
      const std::string message = failure.what();
      EXPECT_NE(message.find("pool allocation of 100000 bytes (102400 with rounding)"),
                std::string::npos)
          << message;
      EXPECT_NE(message.find("102400 bytes would exceed the cap"), std::string::npos) << message;
      EXPECT_NE(message.find("pool: 1 active blocks of 4096 bytes, 4096 bytes managed, 0 held"),
                std::string::npos)
          << message;
    }
    EXPECT_EQ(since(faults.freed_sizes(), before.frees), (Sizes{65536, 1024}))
        << "every held block is freed while trying, largest first";
    EXPECT_EQ(since(faults.requests(), before.calls), Sizes(3, rounded));
    pools_support::expect_counters(pool, {0, 1, 4096, 4096}, "after the failure");
    expect_pool_owns_every_live_block(pool, faults, "after the failure");
    self().expect_pattern(active.block(), 4096, 0xA11CEu);

    const PoolCounters unchanged = pool.counters();
    const FaultInjectionCounts second_before = faults.counts();
    EXPECT_THROW(pool.allocate(request), polydev::out_of_memory);
    pools_support::expect_counters(pool, unchanged, "a second failure with nothing held");
    EXPECT_EQ(faults.counts().calls, second_before.calls + 1) << "one try, nothing to retry after";
    EXPECT_EQ(faults.counts().frees, second_before.frees);
    EXPECT_EQ(faults.counts().live_bytes, second_before.live_bytes);
  }

  // (c) Only the chosen call fails; the pool frees one held block (the largest) and retries.
  void out_of_memory_on_a_chosen_call_frees_one_held_block_and_retries() {
    const Faulty faults = self().make_allocator();
    FaultyPool pool(faults);
    {
      auto small = pool.allocate(1024);   // call 1
      auto large = pool.allocate(16384);  // call 2
    }
    auto first = pool.allocate(4096);  // call 3
    ASSERT_EQ(faults.next_call(), 4u);
    faults.fail_with_out_of_memory_at(5);
    auto second = pool.allocate(8192);  // call 4
    EXPECT_TRUE(faults.freed_sizes().empty()) << "call 4 was not meant to fail";
    auto third = pool.allocate(8192);  // call 5 fails, the 16 KiB block goes, call 6 succeeds

    const FaultInjectionCounts counts = faults.counts();
    EXPECT_EQ(counts.calls, 6u);
    EXPECT_EQ(counts.injected_faults, 1u);
    EXPECT_EQ(counts.allocations, 5u);
    EXPECT_EQ(faults.freed_sizes(), (Sizes{16384}));
    EXPECT_EQ(faults.requests(), (Sizes{1024, 16384, 4096, 8192, 8192, 8192}));
    pools_support::expect_counters(pool, {1, 3, 1024 + 4096 + 2 * 8192, 4096 + 2 * 8192},
                                   "after the retry");
    expect_pool_owns_every_live_block(pool, faults, "after the retry");
    self().write_pattern(third.block(), 8192, 3u);
    self().expect_pattern(third.block(), 8192, 3u);

    auto fourth = pool.allocate(8192);  // call 7: the fault was for call 5 only
    EXPECT_EQ(faults.counts().calls, 7u);
    EXPECT_EQ(faults.freed_sizes(), (Sizes{16384})) << "call 7 freed a held block";
  }

  // (d) A backend error is not out of memory: it reaches the caller as it was thrown, with no
  // retry, and the held blocks stay held (and reusable).
  void backend_error_passes_through_and_keeps_held_blocks() {
    const Faulty faults = self().make_allocator();
    FaultyPool pool(faults);
    {
      auto small = pool.allocate(1024);
      auto large = pool.allocate(65536);
    }
    auto active = pool.allocate(4096);
    const PoolCounters pool_before = pool.counters();
    const FaultInjectionCounts before = faults.counts();
    const std::size_t call = faults.next_call();
    faults.fail_with_backend_error_at(call);
    const polydev::backend_error expected = Faulty::injected_backend_error(call, 131072);

    try {
      auto never = pool.allocate(131072);
      FAIL() << "the failing call succeeded";
    } catch (const polydev::out_of_memory& failure) {
      FAIL() << "a backend error became out_of_memory: " << failure.what();
    } catch (const polydev::backend_error& failure) {
      EXPECT_EQ(failure.backend(), expected.backend());
      EXPECT_EQ(failure.api(), expected.api());
      EXPECT_EQ(failure.code(), expected.code());
      EXPECT_EQ(failure.code_name(), expected.code_name());
      EXPECT_STREQ(failure.what(), expected.what());
    }
    EXPECT_EQ(faults.counts().frees, before.frees) << "a non-memory error freed held blocks";
    EXPECT_EQ(since(faults.requests(), before.calls), (Sizes{131072})) << "it was retried";
    pools_support::expect_counters(pool, pool_before, "after the backend error");
    expect_pool_owns_every_live_block(pool, faults, "after the backend error");

    auto reused = pool.allocate(65536);
    EXPECT_EQ(faults.counts().calls, before.calls + 1) << "the held 64 KiB block was not reused";
  }

  // (e) After every block is released and the held ones freed, the pool's counters are zero and
  // every upstream allocation was freed exactly once, fault paths included.
  void releasing_everything_leaves_nothing_live() {
    const Faulty faults = self().make_allocator();
    {
      FaultyPool pool(faults);
      {
        std::vector<polydev::pools::PooledAllocation<Faulty>> blocks;
        for (std::size_t size : Sizes{0, 1, 100, 4096, 5000, 65536, 65536}) {
          blocks.push_back(pool.allocate(size));
        }
        blocks.resize(3);  // some held, some active
        faults.set_byte_cap(faults.counts().live_bytes + 10000);
        blocks.push_back(pool.allocate(50000));  // fits after freeing held blocks
        EXPECT_THROW(pool.allocate(std::size_t{1} << 20), polydev::out_of_memory);
        faults.fail_with_backend_error_at(faults.next_call());
        EXPECT_THROW(pool.allocate(300000), polydev::backend_error);
        faults.remove_byte_cap();
        blocks.push_back(pool.allocate(4096));
      }
      EXPECT_GT(pool.held_blocks(), 0u);
      pool.free_held();
      pools_support::expect_counters(pool, {0, 0, 0, 0}, "every block released, free_held()");
      const FaultInjectionCounts counts = faults.counts();
      EXPECT_EQ(counts.live_bytes, 0u);
      EXPECT_EQ(counts.live_blocks, 0u);
      EXPECT_EQ(counts.frees, counts.allocations);
      EXPECT_EQ(counts.unknown_frees, 0u);
    }
    const FaultInjectionCounts after_pool = faults.counts();
    EXPECT_EQ(after_pool.frees, after_pool.allocations) << "destroying the pool freed more";
    EXPECT_EQ(after_pool.unknown_frees, 0u);
    self().expect_device_clean();
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace polydev::testing::fault_scenarios
