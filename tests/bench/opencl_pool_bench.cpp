// Allocation cost of polydev's OpenCL pools against the raw calls they save, on the first device
// that PYOPENCL_TEST selects (every benchmark of one run on the same device).
#include <benchmark/benchmark.h>

#include <iostream>
#include <random>
#include <vector>

#include "polydev/opencl/memory_pool.hpp"
#include "polydev/opencl/svm_pool.hpp"
#include "polydev/opencl/system.hpp"
#include "polydev/overview.hpp"

namespace {

using polydev::opencl::BufferAllocator;
using polydev::opencl::DeferredAllocator;
using polydev::opencl::ImmediateAllocator;
using polydev::opencl::MemoryPool;

struct Device {
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  bool coarse_svm = false;
};

const Device& bench_device() {
  static const Device chosen = [] {
    const polydev::Overview& overview = polydev::system_overview();
    const auto& position = overview.opencl_selection->devices.front();
    Device d;
    d.device = polydev::opencl::System::get().device(position);
    d.context = polydev::opencl::create_context(d.device);
    d.queue = cl::CommandQueue(d.context, d.device);
    const auto& info = overview.opencl.platforms[position.platform].devices[position.device];
    d.coarse_svm = (info.svm_capabilities & polydev::opencl::svm_coarse_grain_buffer) != 0;
    return d;
  }();
  return chosen;
}

void pooled_pair(benchmark::State& state, BufferAllocator allocator) {
  const auto size = static_cast<std::size_t>(state.range(0));
  MemoryPool pool(std::move(allocator));
  pool.allocate(size).release();
  for (auto _ : state) {
    auto block = pool.allocate(size);
    benchmark::DoNotOptimize(block.get());
  }
}

void raw_pair(benchmark::State& state, BufferAllocator allocator) {
  const auto size = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    cl::Buffer block = allocator.allocate(size);
    benchmark::DoNotOptimize(block());
  }
}

// Random sizes from 256 B to 16 MiB with up to 1000 live blocks; the same seed for every variant.
template <typename Allocate>
void churn(benchmark::State& state, Allocate allocate) {
  std::mt19937 random(42);
  std::uniform_int_distribution<int> exponent(8, 24);
  using Block = decltype(allocate(std::size_t{1}));
  std::vector<Block> live;
  live.reserve(1000);
  for (auto _ : state) {
    if (live.size() == 1000 || (!live.empty() && (random() & 1))) {
      live[random() % live.size()] = std::move(live.back());
      live.pop_back();
    } else {
      const auto size = std::size_t{1} << exponent(random);
      live.push_back(allocate(size + random() % size));
    }
  }
}

void svm_pooled_pair(benchmark::State& state) {
  if (!bench_device().coarse_svm) return state.SkipWithError("device without coarse-grain SVM");
  polydev::opencl::SVMPool pool{polydev::opencl::SVMAllocator(bench_device().context)};
  const auto size = static_cast<std::size_t>(state.range(0));
  pool(size).release();
  for (auto _ : state) {
    auto block = pool(size);
    benchmark::DoNotOptimize(block.ptr());
  }
}

void svm_raw_pair(benchmark::State& state) {
  if (!bench_device().coarse_svm) return state.SkipWithError("device without coarse-grain SVM");
  const auto size = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    void* block = clSVMAlloc(bench_device().context(), CL_MEM_READ_WRITE, size, 0);
    benchmark::DoNotOptimize(block);
    clSVMFree(bench_device().context(), block);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const polydev::Overview& overview = polydev::system_overview();
  if (!overview.opencl_error.empty() || !overview.opencl_selection ||
      overview.opencl_selection->devices.empty()) {
    std::cout << "no OpenCL device to measure: "
              << (overview.opencl_error.empty() ? overview.opencl.reason : overview.opencl_error)
              << '\n';
    return 0;
  }
  const auto& device = bench_device();
  std::cout << "device: " << device.device.getInfo<CL_DEVICE_NAME>() << '\n';
  const auto deferred = [] { return BufferAllocator(DeferredAllocator(bench_device().context)); };
  const auto immediate = [] { return BufferAllocator(ImmediateAllocator(bench_device().queue)); };
  for (long size : {256L, 65536L, 1L << 20}) {
    benchmark::RegisterBenchmark("pair/MemoryPool(deferred)", pooled_pair, deferred())->Arg(size);
    benchmark::RegisterBenchmark("pair/clCreateBuffer+release", raw_pair, deferred())->Arg(size);
    benchmark::RegisterBenchmark("pair/MemoryPool(immediate)", pooled_pair, immediate())->Arg(size);
    benchmark::RegisterBenchmark("pair/ImmediateAllocator(raw)", raw_pair, immediate())->Arg(size);
    benchmark::RegisterBenchmark("pair/SVMPool", svm_pooled_pair)->Arg(size);
    benchmark::RegisterBenchmark("pair/clSVMAlloc+clSVMFree", svm_raw_pair)->Arg(size);
  }
  benchmark::RegisterBenchmark("churn/MemoryPool(deferred)", [](benchmark::State& state) {
    MemoryPool pool(BufferAllocator(DeferredAllocator(bench_device().context)));
    churn(state, [&](std::size_t size) { return pool.allocate(size); });
  });
  benchmark::RegisterBenchmark("churn/clCreateBuffer+release", [](benchmark::State& state) {
    BufferAllocator raw(DeferredAllocator(bench_device().context));
    churn(state, [&](std::size_t size) { return raw.allocate(size); });
  });
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
