// What polydev's pool keeps on RMM's random_allocations traces, for each `leading_bits_in_bin_id`:
// the same scripts as the peer benchmark's random_allocations (random_allocations_script.hpp),
// replayed through the real `polydev::pools::Pool` as many times as the benchmark's warm-up and
// timed passes do, printing `managed_bytes()` over the script's peak of requested bytes. This is
// what the peer benchmark reports as reserved_per_peak_requested, without a GPU: the pool's
// counters do not depend on the allocator, so the blocks here are address space only (mmap'd
// PROT_NONE and never touched), which lets a 2-core machine replay 8 GiB of live blocks.
//
// Also printed: the bound that rounding alone sets (the peak of the live blocks' rounded sizes).
// The rest of the ratio is blocks held in one size class while requests come for another: a pool
// that gives every allocation a whole block of its class cannot lend them across classes.
//
// The last column is the same pool in front of an arena, as `cuda::CompactDeviceMemoryPool` is:
// the arena's peak of reserved bytes over the peak requested. There, held blocks of every class go
// back to the arena and merge before it grows.
//
// Each column also gives the wall time per operation (an allocation or a free) of the passes after
// the first, on this machine's CPU. The blocks cost no device calls once the pool holds them, so
// this is the pools' own cost; the peer benchmark measures it on the GPU machine, where it has
// been about 2 to 3 times what a development machine measures here. A change to the miss path can
// be compared here first.
//   polydev_pool_trace_replay [leading bits ...]   (default: 2 3 4 5 6 8)
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/pools/arena.hpp"
#include "polydev/pools/pool.hpp"
#include "random_allocations_script.hpp"
#include "support/address_space_allocator.hpp"

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t max_usage = std::size_t{8} << 30;  // as the peer benchmark

using polydev::testing::AddressSpaceAllocator;
using Arena = polydev::pools::Arena<AddressSpaceAllocator>;
// What `cuda::CompactDeviceMemoryPool` uses (its header needs CUDA; this tool does not).
constexpr unsigned compact_leading_bits = 6;

struct Replay {
  double reserved_per_peak = 0;
  double rounded_per_peak = 0;
  double ns_per_operation = 0;  // wall time of the passes after the first
};

template <typename Allocator>
Replay replay(const polydev_bench::Script& script, Allocator allocator, unsigned leading_bits) {
  using Pool = polydev::pools::Pool<Allocator>;
  Pool pool(allocator, leading_bits);
  std::vector<polydev::pools::PooledAllocation<Allocator>> live;
  live.reserve(script.peak_live);
  std::size_t rounded = 0;
  std::size_t peak_rounded = 0;
  const auto rounded_size = [&](std::size_t size) {
    return pool.alloc_size(pool.bin_number(size));
  };
  const std::size_t passes = polydev_bench::passes_in_one_run(script);
  using clock = std::chrono::steady_clock;
  clock::time_point after_first_pass;
  for (std::size_t pass = 0; pass < passes; ++pass) {
    if (pass == 1) after_first_pass = clock::now();
    for (const polydev_bench::Step& step : script.steps) {
      if (step.size != 0) {
        live.push_back(pool.allocate(step.size));
        rounded += rounded_size(step.size);
        peak_rounded = std::max(peak_rounded, rounded);
      } else {
        const std::size_t index = step.victim % live.size();
        rounded -= rounded_size(live[index].size());
        live[index].release();
        if (index + 1 != live.size()) std::swap(live[index], live.back());
        live.pop_back();
      }
    }
    for (auto& block : live) rounded -= rounded_size(block.size());
    live.clear();
  }
  const std::chrono::duration<double, std::nano> timed = clock::now() - after_first_pass;
  const double operations =
      2.0 * static_cast<double>(script.allocations) * static_cast<double>(passes - 1);
  const double peak = static_cast<double>(script.peak_requested);
  std::size_t reserved = pool.managed_bytes();
  if constexpr (!std::is_same_v<Allocator, AddressSpaceAllocator>) {
    reserved = pool.allocator().counters().peak_reserved_bytes;
  }
  return {static_cast<double>(reserved) / peak, static_cast<double>(peak_rounded) / peak,
          timed.count() / operations};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> leading_bits;
  for (int i = 1; i < argc; ++i) {
    char* end = nullptr;
    const unsigned long value = std::strtoul(argv[i], &end, 10);
    if (*argv[i] == '\0' || *end != '\0' || value > polydev::pools::BinScheme::max_leading_bits) {
      std::fprintf(stderr,
                   "polydev_pool_trace_replay: '%s' is not a leading-bits value (0 to %u)\n",
                   argv[i], polydev::pools::BinScheme::max_leading_bits);
      return 2;
    }
    leading_bits.push_back(static_cast<unsigned>(value));
  }
  if (leading_bits.empty()) leading_bits = {2, 3, 4, 5, 6, 8};

  std::printf("%-34s %11s %11s", "trace", "peak live", "peak MiB");
  for (unsigned bits : leading_bits) std::printf("   B=%-2u (rounding)  ns/op", bits);
  std::printf("   compact (B=%u, arena)  ns/op", compact_leading_bits);
  std::printf("\n");
  for (const std::size_t allocations : {1000, 10000, 100000}) {
    for (const std::size_t max_mib : {1, 4}) {
      const auto& script = polydev_bench::random_script(allocations, max_mib * mib, max_usage);
      std::printf("allocs:%-7zu max:%zuMiB %14s %11zu %11.0f", allocations, max_mib, "",
                  script.peak_live, static_cast<double>(script.peak_requested) / mib);
      for (unsigned bits : leading_bits) {
        const Replay result = replay(script, AddressSpaceAllocator{}, bits);
        std::printf("   %5.3f (%5.3f) %6.1f", result.reserved_per_peak, result.rounded_per_peak,
                    result.ns_per_operation);
      }
      const Replay compact = replay(script, Arena(AddressSpaceAllocator{}), compact_leading_bits);
      std::printf("   %5.3f %22.1f", compact.reserved_per_peak, compact.ns_per_operation);
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  return 0;
}
