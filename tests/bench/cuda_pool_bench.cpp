// Google Benchmark of the CUDA pools against the raw CUDA allocators, on the default CUDA device
// (CUDA_DEVICE and ~/.cuda_device are honoured):
// - hot pair: allocate and free one block of one size, through DeviceMemoryPool, cudaMalloc +
//   cudaFree, and cudaMallocAsync + cudaFreeAsync on one stream (default memory pool, release
//   threshold UINT64_MAX);
// - churn: a fixed-seed script of allocations (256 B to 16 MiB, log-uniform) and frees of random
//   live blocks, at most 1000 live, one operation per iteration, for the same three;
// - page-locked hot pair: PageLockedMemoryPool against cudaHostAlloc + cudaFreeHost.
// Sizes of one workload are registered next to each other so that their figures come from the same
// minutes of one run. Without a CUDA device the binary says why and exits 0.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "polydev/cuda/context.hpp"
#include "polydev/cuda/device_memory_pool.hpp"
#include "polydev/cuda/error.hpp"
#include "polydev/cuda/inventory.hpp"
#include "polydev/cuda/page_locked_memory_pool.hpp"

namespace {

constexpr std::size_t kib = 1024;
constexpr std::size_t mib = 1024 * kib;
constexpr double min_time_s = 0.1;
const std::size_t hot_sizes[] = {256, 64 * kib, mib, 16 * mib};

// Stops the benchmark with the CUDA error; true when `status` is a failure.
bool failed(benchmark::State& state, cudaError_t status, const char* api) {
  if (status == cudaSuccess) return false;
  state.SkipWithError((std::string(api) + ": " + polydev::cuda::describe(status)).c_str());
  return true;
}

// The device's default memory pool keeps what is freed (a threshold of 0 would give memory back to
// the driver at every synchronization, which is not a fair comparison).
bool keep_async_memory(benchmark::State& state) {
  int device = 0;
  if (failed(state, cudaGetDevice(&device), "cudaGetDevice")) return false;
  cudaMemPool_t pool = nullptr;
  if (failed(state, cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool")) {
    return false;
  }
  std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
  return !failed(state, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold),
                 "cudaMemPoolSetAttribute");
}

// ---------------------------------------------------------------------------------------------
// Hot pair

void pooled_device_pair(benchmark::State& state, std::size_t size) {
  polydev::cuda::DeviceMemoryPool pool;
  { auto warm = pool.allocate(size); }
  for (auto _ : state) {
    auto block = pool.allocate(size);
    benchmark::DoNotOptimize(block.ptr());
  }
}

void raw_device_pair(benchmark::State& state, std::size_t size) {
  for (auto _ : state) {
    void* block = nullptr;
    if (failed(state, cudaMalloc(&block, size), "cudaMalloc")) break;
    benchmark::DoNotOptimize(block);
    if (failed(state, cudaFree(block), "cudaFree")) break;
  }
}

void async_device_pair(benchmark::State& state, std::size_t size) {
  if (!keep_async_memory(state)) return;
  cudaStream_t stream = nullptr;
  if (failed(state, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
             "cudaStreamCreate")) {
    return;
  }
  void* warm = nullptr;
  if (!failed(state, cudaMallocAsync(&warm, size, stream), "cudaMallocAsync") &&
      !failed(state, cudaFreeAsync(warm, stream), "cudaFreeAsync")) {
    for (auto _ : state) {
      void* block = nullptr;
      if (failed(state, cudaMallocAsync(&block, size, stream), "cudaMallocAsync")) break;
      benchmark::DoNotOptimize(block);
      if (failed(state, cudaFreeAsync(block, stream), "cudaFreeAsync")) break;
    }
  }
  (void)cudaStreamSynchronize(stream);
  (void)cudaStreamDestroy(stream);
}

void pooled_host_pair(benchmark::State& state, std::size_t size) {
  polydev::cuda::PageLockedMemoryPool pool;
  { auto warm = pool.allocate(size); }
  for (auto _ : state) {
    auto block = pool.allocate(size);
    benchmark::DoNotOptimize(block.ptr());
  }
}

void raw_host_pair(benchmark::State& state, std::size_t size) {
  for (auto _ : state) {
    void* block = nullptr;
    if (failed(state, cudaHostAlloc(&block, size, cudaHostAllocDefault), "cudaHostAlloc")) break;
    benchmark::DoNotOptimize(block);
    if (failed(state, cudaFreeHost(block), "cudaFreeHost")) break;
  }
}

// ---------------------------------------------------------------------------------------------
// Churn

// One step of the churn script: allocate `size` bytes, or (size 0) free live block `victim` modulo
// the number of live blocks.
struct Step {
  std::size_t size;
  std::size_t victim;
};

constexpr std::size_t max_live = 1000;
constexpr std::size_t start_live = 500;

// A cyclic script: it starts and ends with `start_live` blocks live and never exceeds `max_live`.
const std::vector<Step>& churn_script() {
  static const std::vector<Step> script = [] {
    std::mt19937_64 random(20261122u);
    std::uniform_real_distribution<double> log_size(8.0, 24.0);  // 256 B to 16 MiB
    auto next_size = [&] { return static_cast<std::size_t>(std::exp2(log_size(random))); };
    std::vector<Step> steps;
    std::size_t live = start_live;
    for (int i = 0; i < 20000; ++i) {
      const bool allocate = live == 0 || (live < max_live && random() % 2 == 0);
      if (allocate) {
        steps.push_back({next_size(), 0});
        ++live;
      } else {
        steps.push_back({0, static_cast<std::size_t>(random())});
        --live;
      }
    }
    for (; live < start_live; ++live) steps.push_back({next_size(), 0});
    for (; live > start_live; --live) steps.push_back({0, static_cast<std::size_t>(random())});
    return steps;
  }();
  return script;
}

// The first `start_live` allocations (made before timing).
std::vector<std::size_t> churn_prefill() {
  std::mt19937_64 random(42u);
  std::uniform_real_distribution<double> log_size(8.0, 24.0);
  std::vector<std::size_t> sizes(start_live);
  for (auto& size : sizes) size = static_cast<std::size_t>(std::exp2(log_size(random)));
  return sizes;
}

// Runs the churn script with `allocate(size) -> Block` and `release(Block&)`, one step per
// iteration, after the prefill and (with `warm_up`) one untimed pass over the whole script. A
// failure stops the benchmark with its message.
template <typename Block, typename Allocate, typename Release>
void churn(benchmark::State& state, Allocate allocate, Release release, bool warm_up) {
  const std::vector<Step>& script = churn_script();
  std::vector<Block> live;
  live.reserve(max_live);
  auto step = [&](const Step& s) {
    if (s.size != 0) {
      live.push_back(allocate(s.size));
    } else {
      const std::size_t victim = s.victim % live.size();
      release(live[victim]);
      live[victim] = std::move(live.back());
      live.pop_back();
    }
  };
  try {
    for (std::size_t size : churn_prefill()) live.push_back(allocate(size));
    if (warm_up) {
      for (const Step& s : script) step(s);
    }
    std::size_t next = 0;
    for (auto _ : state) {
      step(script[next]);
      if (++next == script.size()) next = 0;
    }
  } catch (const std::exception& failure) {
    state.SkipWithError(failure.what());
  }
  for (Block& block : live) release(block);
}

void pooled_churn(benchmark::State& state) {
  polydev::cuda::DeviceMemoryPool pool;
  churn<polydev::cuda::PooledDeviceAllocation>(
      state, [&](std::size_t size) { return pool.allocate(size); },
      [](polydev::cuda::PooledDeviceAllocation& block) {
        if (block.valid()) block.free();
      },
      true);
  state.counters["managed_MiB"] = static_cast<double>(pool.managed_bytes()) / mib;
}

void raw_churn(benchmark::State& state) {
  churn<void*>(
      state,
      [](std::size_t size) {
        void* block = nullptr;
        polydev::cuda::check(cudaMalloc(&block, size), "cudaMalloc");
        return block;
      },
      [](void*& block) {
        (void)cudaFree(block);
        block = nullptr;
      },
      false);
}

void async_churn(benchmark::State& state) {
  if (!keep_async_memory(state)) return;
  cudaStream_t stream = nullptr;
  if (failed(state, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
             "cudaStreamCreate")) {
    return;
  }
  churn<void*>(
      state,
      [&](std::size_t size) {
        void* block = nullptr;
        polydev::cuda::check(cudaMallocAsync(&block, size, stream), "cudaMallocAsync");
        return block;
      },
      [&](void*& block) {
        (void)cudaFreeAsync(block, stream);
        block = nullptr;
      },
      true);
  (void)cudaStreamSynchronize(stream);
  (void)cudaStreamDestroy(stream);
}

std::string size_name(std::size_t size) {
  if (size % mib == 0) return std::to_string(size / mib) + "MiB";
  if (size % kib == 0) return std::to_string(size / kib) + "KiB";
  return std::to_string(size) + "B";
}

void register_benchmarks() {
  using Pair = void (*)(benchmark::State&, std::size_t);
  struct Named {
    const char* name;
    Pair run;
  };
  const Named device_pairs[] = {{"device_pair/DeviceMemoryPool", pooled_device_pair},
                                {"device_pair/cudaMalloc+cudaFree", raw_device_pair},
                                {"device_pair/cudaMallocAsync+cudaFreeAsync", async_device_pair}};
  const Named host_pairs[] = {{"host_pair/PageLockedMemoryPool", pooled_host_pair},
                              {"host_pair/cudaHostAlloc+cudaFreeHost", raw_host_pair}};
  for (std::size_t size : hot_sizes) {
    for (const Named& pair : device_pairs) {
      benchmark::RegisterBenchmark((std::string(pair.name) + "/" + size_name(size)).c_str(),
                                   pair.run, size)
          ->MinTime(min_time_s);
    }
  }
  benchmark::RegisterBenchmark("churn/DeviceMemoryPool", pooled_churn)->MinTime(min_time_s);
  benchmark::RegisterBenchmark("churn/cudaMalloc+cudaFree", raw_churn)->MinTime(min_time_s);
  benchmark::RegisterBenchmark("churn/cudaMallocAsync+cudaFreeAsync", async_churn)
      ->MinTime(min_time_s);
  for (std::size_t size : hot_sizes) {
    for (const Named& pair : host_pairs) {
      benchmark::RegisterBenchmark((std::string(pair.name) + "/" + size_name(size)).c_str(),
                                   pair.run, size)
          ->MinTime(min_time_s);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (!inventory.available || inventory.devices.empty()) {
    std::printf("polydev_cuda_pool_bench: no CUDA device, nothing measured: %s\n",
                inventory.reason.c_str());
    return 0;
  }
  std::string device_name;
  try {
    const int ordinal = polydev::cuda::autoinit().ordinal;
    for (const auto& device : inventory.devices) {
      if (device.ordinal == ordinal) device_name = device.name;
    }
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "polydev_cuda_pool_bench: %s\n", failure.what());
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("cuda_device", device_name);
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
