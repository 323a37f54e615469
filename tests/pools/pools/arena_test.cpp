// polydev::pools::Arena on host memory (no device): placement, alignment, merging of freed
// neighbours, growth of segments, the reserve-only path, out-of-memory recovery and errors; and a
// Pool in front of an arena (the design of cuda::CompactDeviceMemoryPool): held blocks of other
// classes serve a miss before the arena grows, free_held gives the segments back, threads, and the
// reserved memory on RMM's random_allocations traces.
#include "polydev/pools/arena.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/pools/pool.hpp"
#include "random_allocations_script.hpp"
#include "support/address_space_allocator.hpp"
#include "support/aligned_host_allocator.hpp"
#include "support/fault_injecting_allocator.hpp"

namespace {

using polydev::pools::Arena;
using polydev::pools::ArenaBlock;
using polydev::pools::ArenaOptions;
using polydev::testing::AlignedHostAllocator;
using polydev::testing::FaultInjectingAllocator;

constexpr std::size_t unit = 256;

using Upstream = FaultInjectingAllocator<AlignedHostAllocator>;
using HostArena = Arena<Upstream>;

// Small segments, no growth in proportion: every segment is exactly what a test asks for.
ArenaOptions small_segments(std::size_t granularity = 4096, std::size_t growth_divisor = 0) {
  ArenaOptions options;
  options.segment_granularity = granularity;
  options.growth_divisor = growth_divisor;
  return options;
}

std::uintptr_t address(const ArenaBlock& block) {
  return reinterpret_cast<std::uintptr_t>(block.ptr);
}

// -----------------------------------------------------------------------------------------------
// The arena alone

TEST(Arena, CarvesAlignedDisjointWritableBlocks) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments());
  const std::vector<std::size_t> sizes = {1, 255, 256, 257, 1000, 5000, 3, 4096};
  std::vector<ArenaBlock> blocks;
  std::size_t rounded_total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    blocks.push_back(arena.allocate(sizes[i]));
    EXPECT_EQ(address(blocks.back()) % unit, 0u) << sizes[i] << " bytes";
    std::memset(blocks.back().ptr, static_cast<int>(i + 1), sizes[i]);
    rounded_total += (sizes[i] + unit - 1) / unit * unit;
  }
  // A block written after another never reached into it.
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto* bytes = static_cast<const unsigned char*>(blocks[i].ptr);
    for (std::size_t j = 0; j < sizes[i]; ++j) {
      ASSERT_EQ(bytes[j], i + 1) << "byte " << j << " of block " << i;
    }
  }
  EXPECT_EQ(arena.counters().used_bytes, rounded_total);
  for (const ArenaBlock& block : blocks) arena.free(block);
  EXPECT_EQ(arena.counters().used_bytes, 0u);
}

TEST(Arena, ZeroBytesIsOneAlignedUnit) {
  HostArena arena(Upstream{AlignedHostAllocator{}}, small_segments());
  const ArenaBlock block = arena.allocate(0);
  EXPECT_NE(block.ptr, nullptr);
  EXPECT_EQ(arena.counters().used_bytes, unit);
  arena.free(block);
}

TEST(Arena, FreedNeighboursMergeIntoOneRange) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments());
  std::vector<ArenaBlock> quarters;
  for (int i = 0; i < 4; ++i) quarters.push_back(arena.allocate(1024));
  EXPECT_EQ(upstream.counts().allocations, 1u) << "four quarters fill one 4096-byte segment";
  EXPECT_EQ(arena.counters().free_ranges, 0u);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(address(quarters[i]), address(quarters[0]) + 1024u * i);

  arena.free(quarters[0]);
  arena.free(quarters[2]);
  EXPECT_EQ(arena.counters().free_ranges, 2u);
  EXPECT_EQ(arena.counters().largest_free_range, 1024u);
  arena.free(quarters[1]);  // joins both neighbours
  EXPECT_EQ(arena.counters().free_ranges, 1u);
  EXPECT_EQ(arena.counters().largest_free_range, 3072u);
  arena.free(quarters[3]);
  EXPECT_EQ(arena.counters().free_ranges, 1u);
  EXPECT_EQ(arena.counters().largest_free_range, 4096u);

  // The merged range serves a request that none of the quarters could.
  const ArenaBlock whole = arena.allocate(4096);
  EXPECT_EQ(address(whole), address(quarters[0]));
  EXPECT_EQ(upstream.counts().allocations, 1u);
  arena.free(whole);
}

TEST(Arena, ReusesAFreedRangeBeforeGrowing) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments());
  const ArenaBlock a = arena.allocate(1024);
  const ArenaBlock b = arena.allocate(1024);
  arena.free(a);
  const ArenaBlock again = arena.allocate(1000);
  EXPECT_EQ(again.ptr, a.ptr);
  EXPECT_EQ(upstream.counts().allocations, 1u);
  arena.free(again);
  arena.free(b);
}

TEST(Arena, TakesTheSmallestFreeRangeThatFits) {
  HostArena arena(Upstream{AlignedHostAllocator{}}, small_segments(8192));
  // Free ranges of 512, 2048 and 1024 bytes, kept apart by blocks in use.
  std::vector<ArenaBlock> blocks;
  for (std::size_t size : {512, 256, 2048, 256, 1024, 256}) blocks.push_back(arena.allocate(size));
  arena.free(blocks[0]);
  arena.free(blocks[2]);
  arena.free(blocks[4]);
  const ArenaBlock fit = arena.allocate(1000);
  EXPECT_EQ(fit.ptr, blocks[4].ptr) << "1000 bytes fit best in the 1024-byte range";
  const ArenaBlock small = arena.allocate(300);
  EXPECT_EQ(small.ptr, blocks[0].ptr) << "300 bytes fit best in the 512-byte range";
  for (std::size_t i : {1, 3, 5}) arena.free(blocks[i]);
  arena.free(fit);
  arena.free(small);
}

TEST(Arena, AllocateFromReserveNeverAsksTheUpstream) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments());
  EXPECT_FALSE(arena.allocate_from_reserve(256).has_value());
  EXPECT_EQ(upstream.counts().calls, 0u);
  const ArenaBlock block = arena.allocate(256);
  const auto from_reserve = arena.allocate_from_reserve(1024);
  ASSERT_TRUE(from_reserve.has_value());
  EXPECT_FALSE(arena.allocate_from_reserve(4096).has_value()) << "only 2816 bytes are left";
  EXPECT_EQ(upstream.counts().calls, 1u);
  arena.free(*from_reserve);
  arena.free(block);
}

TEST(Arena, SegmentsGrowInProportionToTheReserve) {
  Upstream upstream{AlignedHostAllocator{}};
  ArenaOptions options = small_segments(4096, /*growth_divisor=*/2);
  options.max_growth_bytes = 16384;
  HostArena arena(upstream, options);
  // Nothing reserved yet: the request's own size.
  const ArenaBlock first = arena.allocate(16384);
  // Half of the 16384 reserved.
  const ArenaBlock second = arena.allocate(256);
  // 8192 does not fit the 7936 left: half of 24576.
  const ArenaBlock third = arena.allocate(8192);
  // Half of 36864 is capped at 16384, below the request rounded to the granularity.
  const ArenaBlock fourth = arena.allocate(40000);
  EXPECT_EQ(upstream.requests(), (std::vector<std::size_t>{16384, 8192, 12288, 40960}));
  EXPECT_EQ(arena.counters().segments, 4u);
  EXPECT_EQ(arena.counters().reserved_bytes, 16384u + 8192 + 12288 + 40960);
  for (const ArenaBlock& block : {first, second, third, fourth}) arena.free(block);
}

TEST(Arena, ReleaseEmptySegmentsKeepsThoseInUse) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments());
  const ArenaBlock kept = arena.allocate(4096);
  const ArenaBlock dropped = arena.allocate(4096);
  arena.free(dropped);
  EXPECT_EQ(arena.release_empty_segments(), 4096u);
  EXPECT_EQ(upstream.counts().live_blocks, 1u);
  EXPECT_EQ(arena.counters().reserved_bytes, 4096u);
  EXPECT_EQ(arena.counters().peak_reserved_bytes, 8192u);
  EXPECT_EQ(arena.counters().free_ranges, 0u);
  EXPECT_EQ(arena.release_empty_segments(), 0u);
  arena.free(kept);
}

TEST(Arena, OutOfMemoryReturnsEmptySegmentsAndRetriesWithWhatIsNeeded) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments(4096, /*growth_divisor=*/1));
  const ArenaBlock active = arena.allocate(8192);
  const ArenaBlock idle = arena.allocate(4096);  // a second segment of 8192 (growth in proportion)
  arena.free(idle);                              // ... now wholly free
  upstream.set_byte_cap(8192 + 12288);
  // 12288 fits no free range. The arena wants 16384 (all it reserves), and gets the 12288 it needs
  // once the free segment went back.
  const ArenaBlock needed = arena.allocate(12288);
  EXPECT_EQ(upstream.requests(), (std::vector<std::size_t>{8192, 8192, 16384, 12288}));
  EXPECT_EQ(upstream.freed_sizes(), (std::vector<std::size_t>{8192}));
  EXPECT_EQ(arena.counters().reserved_bytes, 8192u + 12288);
  arena.free(needed);
  arena.free(active);
}

TEST(Arena, OutOfMemoryPropagatesAndLosesNothing) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments());
  const ArenaBlock kept = arena.allocate(4096);
  std::memset(kept.ptr, 0x5A, 4096);
  upstream.set_byte_cap(4096);
  const polydev::pools::ArenaCounters before = arena.counters();
  EXPECT_THROW(arena.allocate(1), polydev::out_of_memory);
  const polydev::pools::ArenaCounters after = arena.counters();
  EXPECT_EQ(after.reserved_bytes, before.reserved_bytes);
  EXPECT_EQ(after.used_bytes, before.used_bytes);
  EXPECT_EQ(after.free_ranges, before.free_ranges);
  EXPECT_EQ(static_cast<const unsigned char*>(kept.ptr)[4095], 0x5A);
  upstream.remove_byte_cap();
  const ArenaBlock later = arena.allocate(1);
  arena.free(later);
  arena.free(kept);
}

TEST(Arena, OtherUpstreamErrorsPassThroughUnchanged) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments());
  upstream.fail_with_backend_error_at(upstream.next_call());
  try {
    arena.allocate(100);
    FAIL() << "the injected error did not reach the caller";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.code(), Upstream::injected_error_code);
  }
  EXPECT_EQ(arena.counters().reserved_bytes, 0u);
  EXPECT_EQ(upstream.freed_sizes().size(), 0u) << "nothing to release was there";
}

TEST(Arena, RejectsBadOptionsWithWhatWouldBeRight) {
  ArenaOptions odd;
  odd.alignment = 96;
  try {
    HostArena arena(Upstream{AlignedHostAllocator{}}, odd);
    FAIL() << "alignment 96 was accepted";
  } catch (const std::invalid_argument& failure) {
    EXPECT_NE(std::string(failure.what()).find("alignment 96 is not a power of two"),
              std::string::npos)
        << failure.what();
  }
  ArenaOptions coarse;
  coarse.segment_granularity = 1000;
  try {
    HostArena arena(Upstream{AlignedHostAllocator{}}, coarse);
    FAIL() << "granularity 1000 was accepted";
  } catch (const std::invalid_argument& failure) {
    EXPECT_NE(std::string(failure.what())
                  .find("segment_granularity 1000 must be a non-zero "
                        "multiple of the alignment (256)"),
              std::string::npos)
        << failure.what();
  }
}

TEST(Arena, RejectsSizesThatCannotBeRounded) {
  Upstream upstream{AlignedHostAllocator{}};
  HostArena arena(upstream, small_segments());
  EXPECT_THROW(arena.allocate(std::numeric_limits<std::size_t>::max()), std::length_error);
  EXPECT_EQ(upstream.counts().calls, 0u);
}

TEST(Arena, TheLastCopyReturnsEverySegment) {
  Upstream upstream{AlignedHostAllocator{}};
  {
    HostArena arena(upstream, small_segments());
    HostArena copy = arena;
    const ArenaBlock freed = copy.allocate(5000);  // a segment of 8192
    (void)arena.allocate(4096);  // 3072 are left: a second segment, whose block is never freed
    arena.free(freed);
    EXPECT_EQ(upstream.counts().live_blocks, 2u);
  }
  EXPECT_EQ(upstream.counts().live_blocks, 0u);
  EXPECT_EQ(upstream.counts().unknown_frees, 0u);
}

// -----------------------------------------------------------------------------------------------
// A pool in front of an arena

using ArenaPool = polydev::pools::Pool<HostArena>;

TEST(PoolOverArena, HeldBlocksOfOtherClassesServeAMissBeforeTheArenaGrows) {
  Upstream upstream{AlignedHostAllocator{}};
  ArenaPool pool(HostArena(upstream, small_segments()));
  {
    std::vector<polydev::pools::PooledAllocation<HostArena>> quarters;
    for (int i = 0; i < 4; ++i) quarters.push_back(pool.allocate(1024));
  }
  EXPECT_EQ(pool.held_blocks(), 4u);
  auto half = pool.allocate(2048);  // no 2048 block held, no free range: the quarters go back
  EXPECT_EQ(upstream.counts().allocations, 1u) << "the arena grew instead of merging";
  EXPECT_EQ(pool.held_blocks(), 0u);
  EXPECT_EQ(pool.managed_bytes(), 2048u);
  std::memset(half.block().ptr, 0x11, 2048);
}

TEST(PoolOverArena, ReuseWithinAClassIsStillLastInFirstOut) {
  ArenaPool pool(HostArena(Upstream{AlignedHostAllocator{}}, small_segments()));
  auto a = pool.allocate(1000);
  auto b = pool.allocate(1000);
  void* const b_ptr = b.block().ptr;
  a.release();
  b.release();
  EXPECT_EQ(pool.allocate(1000).block().ptr, b_ptr);
}

TEST(PoolOverArena, FreeHeldReturnsEmptySegmentsToTheUpstream) {
  Upstream upstream{AlignedHostAllocator{}};
  ArenaPool pool(HostArena(upstream, small_segments()));
  auto kept = pool.allocate(4096);
  pool.allocate(4096).release();
  pool.allocate(100000).release();
  EXPECT_EQ(upstream.counts().live_blocks, 3u);
  pool.free_held();
  EXPECT_EQ(upstream.counts().live_blocks, 1u) << "the segment in use stays";
  EXPECT_EQ(pool.allocator().counters().reserved_bytes, 4096u);
  kept.release();
  pool.free_held();
  EXPECT_EQ(upstream.counts().live_blocks, 0u);
}

TEST(PoolOverArena, OutOfMemoryAfterEverythingWentBackSaysSo) {
  Upstream upstream{AlignedHostAllocator{}};
  ArenaPool pool(HostArena(upstream, small_segments()));
  auto kept = pool.allocate(4096);
  pool.allocate(2048).release();
  upstream.set_byte_cap(upstream.counts().live_bytes);
  try {
    pool.allocate(8192);
    FAIL() << "8192 bytes fit under a cap of " << upstream.counts().live_bytes;
  } catch (const polydev::out_of_memory& failure) {
    EXPECT_NE(std::string(failure.what()).find("pool allocation of 8192 bytes"), std::string::npos)
        << failure.what();
  }
  EXPECT_EQ(pool.active_blocks(), 1u);
  EXPECT_EQ(pool.held_blocks(), 0u) << "the held 2048 went back to the arena";
  EXPECT_EQ(upstream.counts().live_blocks, 1u) << "... and its empty segment to the upstream";
}

TEST(PoolOverArena, ThreadsChurnWithoutSharingBytes) {
  Upstream upstream{AlignedHostAllocator{}};
  ArenaPool pool(HostArena(upstream, small_segments(1 << 16, 8)));
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 8; ++t) {
    threads.emplace_back([&pool, t] {
      std::mt19937 random(t);
      std::uniform_int_distribution<std::size_t> size(1, 20000);
      std::vector<polydev::pools::PooledAllocation<HostArena>> live;
      for (int step = 0; step < 3000; ++step) {
        if (live.size() < 16 && random() % 3 != 0) {
          live.push_back(pool.allocate(size(random)));
          std::memset(live.back().block().ptr, static_cast<int>(t), live.back().size());
        } else if (!live.empty()) {
          auto& victim = live[random() % live.size()];
          const auto* bytes = static_cast<const unsigned char*>(victim.block().ptr);
          for (std::size_t i = 0; i < victim.size(); ++i) {
            if (bytes[i] != t) {
              ADD_FAILURE() << "thread " << t << " found byte " << i << " overwritten";
              return;
            }
          }
          victim = std::move(live.back());
          live.pop_back();
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(pool.active_blocks(), 0u);
  pool.free_held();
  EXPECT_EQ(pool.allocator().counters().used_bytes, 0u);
  EXPECT_EQ(upstream.counts().live_blocks, 0u);
}

// The goal for reserved memory (docs/performance.md), on the traces of the peer benchmark: the pool
// in front of an arena, as cuda::CompactDeviceMemoryPool builds it (leading bits 6, default
// options), reserves at most 1.10× the peak of requested bytes. Blocks are address space only (8
// GiB live at the peak).
TEST(PoolOverArena, RmmRandomAllocationsTracesReserveAtMostOnePointOneTimesThePeak) {
  using SpaceArena = Arena<polydev::testing::AddressSpaceAllocator>;
  for (const std::size_t allocations : {1000, 10000, 100000}) {
    for (const std::size_t max_mib : {1, 4}) {
      const auto& script =
          polydev_bench::random_script(allocations, max_mib << 20, std::size_t{8} << 30);
      polydev::pools::Pool<SpaceArena> pool(SpaceArena(polydev::testing::AddressSpaceAllocator{}),
                                            6);
      std::vector<polydev::pools::PooledAllocation<SpaceArena>> live;
      const std::size_t passes = polydev_bench::passes_in_one_run(script);
      for (std::size_t pass = 0; pass < passes; ++pass) {
        for (const polydev_bench::Step& step : script.steps) {
          if (step.size != 0) {
            live.push_back(pool.allocate(step.size));
          } else {
            const std::size_t index = step.victim % live.size();
            live[index] = std::move(live.back());
            live.pop_back();
          }
        }
        live.clear();
      }
      const double ratio = static_cast<double>(pool.allocator().counters().peak_reserved_bytes) /
                           static_cast<double>(script.peak_requested);
      EXPECT_LE(ratio, 1.10) << allocations << " allocations of at most " << max_mib << " MiB";
      EXPECT_GE(ratio, 1.0) << "reserved less than the peak of live requests: bookkeeping is off";
    }
  }
}

}  // namespace
