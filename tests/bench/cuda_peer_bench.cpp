// polydev's CUDA pools against peer allocators, in one Google Benchmark run (the method and the
// goals are in docs/performance.md). Meant to be run with
// --benchmark_enable_random_interleaving=true and --benchmark_repetitions=N so that every
// allocator of a cell is measured in the same minutes, in random order; run/peer-bench.sh does
// that and prints medians and peer/polydev ratios.
//
// Allocators (cuda_peer_adapters.hpp): polydev's DeviceMemoryPool ("polydev") and
// CompactDeviceMemoryPool ("polydev_compact"); cudaMalloc/cudaFree;
// cudaMallocAsync/cudaFreeAsync (default pool, release threshold UINT64_MAX); with
// POLYDEV_BENCH_WITH_TORCH, PyTorch's caching allocator (c10 raw_alloc/raw_delete); with
// POLYDEV_BENCH_WITH_RMM, RMM's pool_memory_resource and arena_memory_resource. Pinned:
// PageLockedMemoryPool against cudaMallocHost/cudaFreeHost.
//
// Workloads, each registered as <workload>/<parameters>/<allocator>:
// - device_pair/<size>: allocate and free one block (256 B, 64 KiB, 1 MiB, 16 MiB); items = pairs.
// - batch_{same,reverse,shuffled}/N:1000: allocate 1000 blocks (log-uniform 256 B to 1 MiB, fixed
//   seed), then free them in allocation order, in reverse, or in a fixed shuffled order; items =
//   operations (allocations + frees).
// - random_allocations/allocs:<N>/max:<M>MiB: RMM's random_allocations benchmark
//   (cpp/benchmarks/random_allocations): 2N steps, each an allocation (probability 73%, sizes
//   uniform in [1 B, M MiB], at most N allocations, live bytes below max_usage) or the free of a
//   uniformly chosen live block; then every remaining block is freed. The script is generated once
//   with a fixed seed and replayed identically for every allocator; one iteration is one whole
//   script (after one untimed pass for the allocators that grow on demand: polydev's two,
//   cudaMallocAsync, PyTorch; RMM's resources are pre-sized); items = operations. Counters:
//   peak_live_blocks, peak_requested_MiB and, where the allocator tells, reserved_MiB and
//   reserved_per_peak_requested (polydev: managed_bytes(); polydev_compact: the peak of its
//   arena's segments; cudaMallocAsync: the pool's
//   ReservedMemHigh after a trim; PyTorch: reserved_bytes peak after emptyCache()).
// - threads_pair/64KiB: the hot pair on 1, 2, 4, 8, 16 threads sharing one allocator (each thread
//   its own stream); real time, so items_per_second is the aggregate throughput.
// - host_pair/<size>: the pinned hot pair.
// Without a CUDA device the binary says why and exits 0.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cuda_peer_adapters.hpp"
#include "polydev/cuda/context.hpp"
#include "polydev/cuda/inventory.hpp"
#include "random_allocations_script.hpp"

namespace polydev_peer_bench {
namespace {

// Seconds per benchmark run; POLYDEV_PEER_MIN_TIME overrides.
double min_time_s() {
  static const double value = [] {
    const char* text = std::getenv("POLYDEV_PEER_MIN_TIME");
    const double parsed = text != nullptr ? std::atof(text) : 0.0;
    return parsed > 0.0 ? parsed : 0.05;
  }();
  return value;
}

const std::size_t pair_sizes[] = {256, 64 * kib, mib, 16 * mib};
constexpr std::size_t thread_pair_size = 64 * kib;
const int thread_counts[] = {1, 2, 4, 8, 16};
constexpr std::size_t batch_count = 1000;

// Live bytes of the random_allocations scripts stay below this (RMM's default is 16000 MiB; less
// here because PyTorch's cache and the cudaMallocAsync pool keep their memory for the whole run).
constexpr std::size_t max_usage = 8 * gib;
// What the pre-sized RMM resources get.
constexpr std::size_t small_pool_hint = 2 * gib;
constexpr std::size_t trace_pool_hint = max_usage + 2 * gib;
constexpr std::size_t trace_arena_hint = 2 * max_usage;

std::string size_name(std::size_t size) {
  if (size % mib == 0) return std::to_string(size / mib) + "MiB";
  if (size % kib == 0) return std::to_string(size / kib) + "KiB";
  return std::to_string(size) + "B";
}

template <typename Adapter>
void skip_with(benchmark::State& state, const std::exception& failure) {
  state.SkipWithError((std::string(Adapter::name) + ": " + failure.what()).c_str());
}

// ---------------------------------------------------------------------------------------------
// Hot pair

template <typename Adapter>
void pair(benchmark::State& state, std::size_t size) {
  try {
    Stream stream;
    Adapter adapter(std::max(small_pool_hint, 2 * size));
    {
      auto warm = adapter.allocate(size, stream.get());
      adapter.release(warm, stream.get());
    }
    for (auto _ : state) {
      auto block = adapter.allocate(size, stream.get());
      benchmark::DoNotOptimize(Adapter::pointer(block));
      adapter.release(block, stream.get());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  } catch (const std::exception& failure) {
    skip_with<Adapter>(state, failure);
  }
}

// ---------------------------------------------------------------------------------------------
// Batch: allocate N, then free in one of three orders

enum class Order { same, reverse, shuffled };

const char* order_name(Order order) {
  switch (order) {
    case Order::same:
      return "same";
    case Order::reverse:
      return "reverse";
    case Order::shuffled:
      return "shuffled";
  }
  return "?";
}

const std::vector<std::size_t>& batch_sizes() {
  static const std::vector<std::size_t> sizes = [] {
    std::mt19937_64 random(20261124u);
    std::uniform_real_distribution<double> log_size(8.0, 20.0);  // 256 B to 1 MiB
    std::vector<std::size_t> result(batch_count);
    for (auto& size : result) size = static_cast<std::size_t>(std::exp2(log_size(random)));
    return result;
  }();
  return sizes;
}

std::vector<std::size_t> free_order(Order order) {
  std::vector<std::size_t> indices(batch_count);
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  if (order == Order::reverse) std::reverse(indices.begin(), indices.end());
  if (order == Order::shuffled) std::shuffle(indices.begin(), indices.end(), std::mt19937_64(7u));
  return indices;
}

template <typename Adapter>
void batch(benchmark::State& state, Order order) {
  try {
    Stream stream;
    Adapter adapter(small_pool_hint);
    const std::vector<std::size_t>& sizes = batch_sizes();
    const std::vector<std::size_t> frees = free_order(order);
    std::vector<typename Adapter::Handle> live(batch_count);
    auto round = [&] {
      for (std::size_t i = 0; i < batch_count; ++i)
        live[i] = adapter.allocate(sizes[i], stream.get());
      for (std::size_t i : frees) adapter.release(live[i], stream.get());
    };
    round();  // warm-up
    for (auto _ : state) round();
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 2 * batch_count));
  } catch (const std::exception& failure) {
    skip_with<Adapter>(state, failure);
  }
}

// ---------------------------------------------------------------------------------------------
// RMM's random_allocations, as a fixed script

using polydev_bench::Script;
using polydev_bench::Step;

const Script& random_script(std::size_t allocations, std::size_t max_size) {
  return polydev_bench::random_script(allocations, max_size, max_usage);
}

// Allocators that cache what they get on demand: a random_allocations run starts with one untimed
// pass for them. cudaMalloc caches nothing, and RMM's resources are pre-sized (as in RMM's own
// benchmark, which times a fresh pool).
template <typename Adapter>
constexpr bool grows() {
  return std::is_same_v<Adapter, PolydevDevice> || std::is_same_v<Adapter, PolydevCompact> ||
         std::is_same_v<Adapter, CudaMallocAsync>
#if POLYDEV_BENCH_WITH_TORCH
         || std::is_same_v<Adapter, TorchCaching>
#endif
      ;
}

// What a pre-sized resource gets for a random_allocations script.
template <typename Adapter>
std::size_t trace_hint() {
#if POLYDEV_BENCH_WITH_RMM
  if constexpr (std::is_same_v<Adapter, RmmArena>) return trace_arena_hint;
#endif
  return trace_pool_hint;
}

template <typename Adapter>
void random_allocations(benchmark::State& state, std::size_t allocations, std::size_t max_size) {
  try {
    const Script& script = random_script(allocations, max_size);
    Stream stream;
    Adapter adapter(trace_hint<Adapter>());
    adapter.begin_trace();
    std::vector<typename Adapter::Handle> live;
    live.reserve(script.peak_live);
    auto run = [&] {
      for (const Step& step : script.steps) {
        if (step.size != 0) {
          live.push_back(adapter.allocate(step.size, stream.get()));
        } else {
          const std::size_t index = step.victim % live.size();
          adapter.release(live[index], stream.get());
          if (index + 1 != live.size()) std::swap(live[index], live.back());
          live.pop_back();
        }
      }
      for (auto& block : live) adapter.release(block, stream.get());
      live.clear();
    };
    if (grows<Adapter>()) run();  // warm-up: one untimed pass fills caches that grow on demand
    for (auto _ : state) run();
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 2 * script.allocations));
    state.counters["peak_live_blocks"] = static_cast<double>(script.peak_live);
    state.counters["peak_requested_MiB"] = static_cast<double>(script.peak_requested) / mib;
    if (const auto reserved = adapter.reserved()) {
      state.counters["reserved_MiB"] = static_cast<double>(*reserved) / mib;
      state.counters["reserved_per_peak_requested"] =
          static_cast<double>(*reserved) / static_cast<double>(script.peak_requested);
    }
  } catch (const std::exception& failure) {
    skip_with<Adapter>(state, failure);
  }
}

// ---------------------------------------------------------------------------------------------
// Threads sharing one allocator

// One allocator of each kind for all thread runs, made by the first thread that asks (a static
// local: the other threads wait for it) and never destroyed (it may hold memory until exit).
template <typename Adapter>
Adapter& shared_adapter() {
  static Adapter* adapter = new Adapter(small_pool_hint);
  return *adapter;
}

template <typename Adapter>
void threads_pair(benchmark::State& state) {
  try {
    Stream stream;
    enter_thread<Adapter>();
    Adapter& adapter = shared_adapter<Adapter>();
    {
      auto warm = adapter.allocate(thread_pair_size, stream.get());
      adapter.release(warm, stream.get());
    }
    for (auto _ : state) {
      auto block = adapter.allocate(thread_pair_size, stream.get());
      benchmark::DoNotOptimize(Adapter::pointer(block));
      adapter.release(block, stream.get());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  } catch (const std::exception& failure) {
    skip_with<Adapter>(state, failure);
  }
}

// ---------------------------------------------------------------------------------------------
// Registration

template <typename... Adapters>
struct List {};

#if POLYDEV_BENCH_WITH_RMM && POLYDEV_BENCH_WITH_TORCH
using DeviceAdapters = List<PolydevDevice, PolydevCompact, CudaMalloc, CudaMallocAsync,
                            TorchCaching, RmmPool, RmmArena>;
#elif POLYDEV_BENCH_WITH_RMM
using DeviceAdapters =
    List<PolydevDevice, PolydevCompact, CudaMalloc, CudaMallocAsync, RmmPool, RmmArena>;
#elif POLYDEV_BENCH_WITH_TORCH
using DeviceAdapters =
    List<PolydevDevice, PolydevCompact, CudaMalloc, CudaMallocAsync, TorchCaching>;
#else
using DeviceAdapters = List<PolydevDevice, PolydevCompact, CudaMalloc, CudaMallocAsync>;
#endif
using HostAdapters = List<PolydevHost, CudaMallocHost>;

benchmark::internal::Benchmark* finish(benchmark::internal::Benchmark* b) {
  return b->MinTime(min_time_s())->UseRealTime();
}

std::string named(const std::string& workload, const char* adapter) {
  return workload + "/" + adapter;
}

// Every cell's allocators next to each other (the order of a run without random interleaving).
template <typename... Device, typename... Host>
void register_all(List<Device...>, List<Host...>) {
  for (std::size_t size : pair_sizes) {
    const std::string cell = "device_pair/" + size_name(size);
    (finish(benchmark::RegisterBenchmark(named(cell, Device::name).c_str(), pair<Device>, size)),
     ...);
  }
  for (Order order : {Order::same, Order::reverse, Order::shuffled}) {
    const std::string cell =
        std::string("batch_") + order_name(order) + "/N:" + std::to_string(batch_count);
    (finish(benchmark::RegisterBenchmark(named(cell, Device::name).c_str(), batch<Device>, order)),
     ...);
  }
  for (std::size_t allocations : {1000, 10000, 100000}) {
    for (std::size_t max_mib : {1, 4}) {
      const std::string cell = "random_allocations/allocs:" + std::to_string(allocations) +
                               "/max:" + std::to_string(max_mib) + "MiB";
      (finish(benchmark::RegisterBenchmark(named(cell, Device::name).c_str(),
                                           random_allocations<Device>, allocations, max_mib * mib)),
       ...);
    }
  }
  for (int threads : thread_counts) {
    const std::string cell = "threads_pair/" + size_name(thread_pair_size);
    (finish(benchmark::RegisterBenchmark(named(cell, Device::name).c_str(), threads_pair<Device>))
         ->Threads(threads),
     ...);
  }
  for (std::size_t size : pair_sizes) {
    const std::string cell = "host_pair/" + size_name(size);
    (finish(benchmark::RegisterBenchmark(named(cell, Host::name).c_str(), pair<Host>, size)), ...);
  }
}

}  // namespace
}  // namespace polydev_peer_bench

int main(int argc, char** argv) {
  using namespace polydev_peer_bench;
  // --benchmark_list_tests works without a device (the names are checked on CPU-only machines).
  bool listing = false;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--benchmark_list_tests", 0) == 0 &&
        argument.find("=false") == std::string::npos) {
      listing = true;
    }
  }
  const auto& inventory = polydev::cuda::system_inventory();
  const bool have_device = inventory.available && !inventory.devices.empty();
  if (!have_device && !listing) {
    std::printf("polydev_cuda_peer_bench: no CUDA device, nothing measured: %s\n",
                inventory.reason.c_str());
    return 0;
  }
  std::string device_name = "none";
  if (have_device) {
    try {
      bench_device() = polydev::cuda::autoinit().ordinal;
      for (const auto& device : inventory.devices) {
        if (device.ordinal == bench_device()) device_name = device.name;
      }
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "polydev_cuda_peer_bench: %s\n", failure.what());
      return 1;
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("cuda_device", device_name);
  benchmark::AddCustomContext("cuda_ordinal", std::to_string(bench_device()));
  benchmark::AddCustomContext("random_allocations_max_usage_MiB", std::to_string(max_usage / mib));
  benchmark::AddCustomContext("async_release_threshold", "UINT64_MAX");
#if POLYDEV_BENCH_WITH_RMM
  benchmark::AddCustomContext("rmm", "pool_memory_resource, arena_memory_resource");
#else
  benchmark::AddCustomContext("rmm", "not built (POLYDEV_BENCH_WITH_RMM off)");
#endif
#if POLYDEV_BENCH_WITH_TORCH
  if (have_device) {
    try {
      torch_init();
      benchmark::AddCustomContext("torch_allocator", c10::cuda::CUDACachingAllocator::name());
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "polydev_cuda_peer_bench: c10 caching allocator: %s\n", failure.what());
      return 1;
    }
  }
#else
  benchmark::AddCustomContext("torch_allocator", "not built (POLYDEV_BENCH_WITH_TORCH off)");
#endif
  register_all(DeviceAdapters{}, HostAdapters{});
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
