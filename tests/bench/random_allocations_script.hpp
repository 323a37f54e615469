#pragma once

// RMM's random_allocations benchmark (cpp/benchmarks/random_allocations) as a fixed script, shared
// by the peer benchmark (which times it on the GPU) and the trace replay (which counts what the
// pool keeps): 2N steps, each an allocation (probability 73%, while fewer than N were made and the
// live bytes stay below `max_usage`, sizes uniform in [1, max_size]) or the free of a live block
// chosen at random. The seed depends on N and max_size only, so every allocator and every run gets
// the same script.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace polydev_bench {

struct Step {
  std::uint32_t size;    // bytes to allocate, or 0: free live block `victim % live`
  std::uint32_t victim;  // for a free: where in the live list (swap-with-last removal)
};

struct Script {
  std::vector<Step> steps;
  std::size_t allocations = 0;  // the remaining blocks are freed after the steps
  std::size_t peak_live = 0;
  std::size_t peak_requested = 0;
};

/// How many times the peer benchmark replays `script` in one run (a warm-up pass and the timed
/// iterations of at least 0.05 s, at about 25 ns an operation), 3 at least. Replays on the host
/// that stand for the benchmark's (pool_trace_replay.cpp, the arena tests) make as many: the
/// pool's reserve stops growing after the first pass, an arena's can creep up over many.
inline std::size_t passes_in_one_run(const Script& script) {
  return std::max<std::size_t>(3, 2'000'000 / script.steps.size());
}

/// The script for `allocations` allocations of at most `max_size` bytes, made once per process.
inline const Script& random_script(std::size_t allocations, std::size_t max_size,
                                   std::size_t max_usage) {
  static std::map<std::pair<std::size_t, std::size_t>, Script> scripts;
  auto found = scripts.find({allocations, max_size});
  if (found != scripts.end()) return found->second;
  Script script;
  std::mt19937_64 random(allocations * 31 + max_size);
  std::uniform_int_distribution<std::size_t> size_distribution(1, max_size);
  std::uniform_int_distribution<int> op_distribution(0, 99);
  std::uniform_int_distribution<std::size_t> index_distribution(0, allocations - 1);
  std::vector<std::size_t> live;
  std::size_t live_bytes = 0;
  for (std::size_t i = 0; i < 2 * allocations; ++i) {
    const std::size_t size = size_distribution(random);
    bool allocate = true;
    if (!live.empty()) {
      allocate = op_distribution(random) < 73 && script.allocations < allocations &&
                 live_bytes + size < max_usage;
    }
    if (allocate) {
      script.steps.push_back({static_cast<std::uint32_t>(size), 0});
      live.push_back(size);
      live_bytes += size;
      ++script.allocations;
      script.peak_live = std::max(script.peak_live, live.size());
      script.peak_requested = std::max(script.peak_requested, live_bytes);
    } else {
      const std::size_t victim = index_distribution(random);
      script.steps.push_back({0, static_cast<std::uint32_t>(victim)});
      const std::size_t index = victim % live.size();
      live_bytes -= live[index];
      live[index] = live.back();
      live.pop_back();
    }
  }
  return scripts.emplace(std::make_pair(allocations, max_size), std::move(script)).first->second;
}

}  // namespace polydev_bench
