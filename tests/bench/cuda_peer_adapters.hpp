#pragma once

// One adapter per allocator of the peer benchmark (cuda_peer_bench.cpp), all with the same shape:
//   using Handle = ...;                                     // what an allocation gives back
//   static constexpr const char* name;                      // the last part of benchmark names
//   explicit Adapter(std::size_t pool_hint);                // pool_hint: bytes a pre-sized pool
//                                                          // needs for the workload
//   Handle allocate(std::size_t size, cudaStream_t stream); // throws on failure
//   void release(Handle& handle, cudaStream_t stream);      // never throws
//   static const void* pointer(const Handle& handle);
//   void begin_trace();                                     // before a memory measurement
//   std::optional<std::size_t> reserved() const;            // bytes held from the driver, if known
// The stream is a non-blocking stream of the benchmark thread; allocators that are not
// stream-ordered ignore it.
//
// Peers are optional at build time: POLYDEV_BENCH_WITH_RMM (librmm from the librmm-cu13 wheel)
// and POLYDEV_BENCH_WITH_TORCH (c10 from the torch wheel).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "polydev/cuda/compact_device_memory_pool.hpp"
#include "polydev/cuda/device_memory_pool.hpp"
#include "polydev/cuda/error.hpp"
#include "polydev/cuda/page_locked_memory_pool.hpp"

#if POLYDEV_BENCH_WITH_RMM
#include <cuda/stream_ref>
#include <rmm/aligned.hpp>
#include <rmm/mr/arena_memory_resource.hpp>
#include <rmm/mr/cuda_memory_resource.hpp>
#include <rmm/mr/pool_memory_resource.hpp>
#endif

#if POLYDEV_BENCH_WITH_TORCH
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace polydev_peer_bench {

inline constexpr std::size_t kib = 1024;
inline constexpr std::size_t mib = 1024 * kib;
inline constexpr std::size_t gib = 1024 * mib;

// A raw allocation: pointer and requested size (the sized frees of RMM need the size).
struct Raw {
  void* ptr = nullptr;
  std::size_t size = 0;
};

// The runtime ordinal the benchmark runs on (set once in main, before any benchmark).
inline int& bench_device() {
  static int device = 0;
  return device;
}

// A non-blocking stream owned by one benchmark thread; also makes the benchmark device current on
// that thread (Google Benchmark's worker threads start with device 0 current).
class Stream {
 public:
  Stream() {
    polydev::cuda::check(cudaSetDevice(bench_device()), "cudaSetDevice");
    polydev::cuda::check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                         "cudaStreamCreateWithFlags");
  }
  ~Stream() {
    (void)cudaStreamSynchronize(stream_);
    (void)cudaStreamDestroy(stream_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const noexcept { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// polydev

// polydev's device pool and page-locked pool: one adapter, which differs only in the pool type and
// how the pool is made (the device pool needs the benchmark's device).
inline constexpr char kPolydevName[] = "polydev";
inline constexpr char kPolydevCompactName[] = "polydev_compact";

template <typename PoolType, typename HandleType, const char* Name = kPolydevName>
class PolydevPool {
 public:
  using Handle = HandleType;
  static constexpr const char* name = Name;
  explicit PolydevPool(std::size_t /*pool_hint*/) : pool_(make_pool()) {}
  Handle allocate(std::size_t size, cudaStream_t) { return pool_.allocate(size); }
  void release(Handle& handle, cudaStream_t) noexcept {
    if (handle.valid()) {
      try {
        handle.free();
      } catch (...) {
      }
    }
  }
  static const void* pointer(const Handle& handle) { return handle.ptr(); }
  void begin_trace() {}
  // DeviceMemoryPool: every block the pool owns, held or handed out; the pool gives nothing back
  // unless out of memory, so after a trace this is its high-water mark. CompactDeviceMemoryPool:
  // the high-water mark of the arena's cudaMalloc segments.
  std::optional<std::size_t> reserved() const {
    if constexpr (std::is_same_v<PoolType, polydev::cuda::CompactDeviceMemoryPool>) {
      return pool_.arena_counters().peak_reserved_bytes;
    } else {
      return pool_.managed_bytes();
    }
  }

 private:
  static PoolType make_pool() {
    if constexpr (std::is_same_v<PoolType, polydev::cuda::DeviceMemoryPool> ||
                  std::is_same_v<PoolType, polydev::cuda::CompactDeviceMemoryPool>) {
      return PoolType(bench_device());
    } else {
      return PoolType();
    }
  }

  PoolType pool_;
};

using PolydevDevice =
    PolydevPool<polydev::cuda::DeviceMemoryPool, polydev::cuda::PooledDeviceAllocation>;
using PolydevCompact =
    PolydevPool<polydev::cuda::CompactDeviceMemoryPool,
                polydev::cuda::CompactPooledDeviceAllocation, kPolydevCompactName>;
using PolydevHost =
    PolydevPool<polydev::cuda::PageLockedMemoryPool, polydev::cuda::PooledHostAllocation>;

// ---------------------------------------------------------------------------------------------
// CUDA runtime

// cudaMalloc/cudaFree and cudaMallocHost/cudaFreeHost: synchronous runtime calls that cache
// nothing, one adapter over the call pair.
inline constexpr char kCudaMallocName[] = "cudaMalloc";
inline constexpr char kCudaMallocHostName[] = "cudaMallocHost";

template <cudaError_t (*Allocate)(void**, std::size_t), cudaError_t (*Free)(void*),
          const char* Name>
class CudaRuntimePair {
 public:
  using Handle = Raw;
  static constexpr const char* name = Name;
  explicit CudaRuntimePair(std::size_t) {}
  Handle allocate(std::size_t size, cudaStream_t) {
    void* ptr = nullptr;
    polydev::cuda::check(Allocate(&ptr, size), Name);
    return {ptr, size};
  }
  void release(Handle& handle, cudaStream_t) noexcept {
    (void)Free(handle.ptr);
    handle.ptr = nullptr;
  }
  static const void* pointer(const Handle& handle) { return handle.ptr; }
  void begin_trace() {}
  std::optional<std::size_t> reserved() const { return std::nullopt; }
};

using CudaMalloc = CudaRuntimePair<cudaMalloc, cudaFree, kCudaMallocName>;
using CudaMallocHost = CudaRuntimePair<cudaMallocHost, cudaFreeHost, kCudaMallocHostName>;

// cudaMallocAsync / cudaFreeAsync on the device's default memory pool, release threshold
// UINT64_MAX (the default 0 gives memory back at every synchronization).
class CudaMallocAsync {
 public:
  using Handle = Raw;
  static constexpr const char* name = "cudaMallocAsync";
  explicit CudaMallocAsync(std::size_t) {
    polydev::cuda::check(cudaDeviceGetDefaultMemPool(&pool_, bench_device()),
                         "cudaDeviceGetDefaultMemPool");
    std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
    polydev::cuda::check(
        cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold),
        "cudaMemPoolSetAttribute(ReleaseThreshold)");
  }
  Handle allocate(std::size_t size, cudaStream_t stream) {
    void* ptr = nullptr;
    polydev::cuda::check(cudaMallocAsync(&ptr, size, stream), "cudaMallocAsync");
    return {ptr, size};
  }
  void release(Handle& handle, cudaStream_t stream) noexcept {
    (void)cudaFreeAsync(handle.ptr, stream);
    handle.ptr = nullptr;
  }
  static const void* pointer(const Handle& handle) { return handle.ptr; }
  // The default pool is shared by the whole run: give back what earlier benchmarks left and reset
  // the high-water mark, so that reserved() is this trace's.
  void begin_trace() {
    polydev::cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    polydev::cuda::check(cudaMemPoolTrimTo(pool_, 0), "cudaMemPoolTrimTo");
    std::uint64_t zero = 0;
    polydev::cuda::check(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReservedMemHigh, &zero),
                         "cudaMemPoolSetAttribute(ReservedMemHigh)");
  }
  std::optional<std::size_t> reserved() const {
    std::uint64_t high = 0;
    if (cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemHigh, &high) != cudaSuccess) {
      return std::nullopt;
    }
    return static_cast<std::size_t>(high);
  }

 private:
  cudaMemPool_t pool_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// RMM (librmm 26.x: CCCL resources, stream-ordered allocate(stream, bytes, alignment) and sized
// deallocate(stream, ptr, bytes, alignment); both resources over cuda_memory_resource).

#if POLYDEV_BENCH_WITH_RMM
// Rounds up to RMM's 256-byte alignment, which its pool requires of the initial size.
inline std::size_t rmm_aligned(std::size_t bytes) {
  return (bytes + rmm::CUDA_ALLOCATION_ALIGNMENT - 1) / rmm::CUDA_ALLOCATION_ALIGNMENT *
         rmm::CUDA_ALLOCATION_ALIGNMENT;
}

// pool_memory_resource, pre-sized to pool_hint (RMM's own benchmarks pre-size it to half the free
// memory), growing without a maximum.
class RmmPool {
 public:
  using Handle = Raw;
  static constexpr const char* name = "rmm_pool";
  explicit RmmPool(std::size_t pool_hint)
      : resource_(rmm::mr::cuda_memory_resource{}, rmm_aligned(pool_hint)) {}
  Handle allocate(std::size_t size, cudaStream_t stream) {
    return {resource_.allocate(cuda::stream_ref{stream}, size, rmm::CUDA_ALLOCATION_ALIGNMENT),
            size};
  }
  void release(Handle& handle, cudaStream_t stream) noexcept {
    resource_.deallocate(cuda::stream_ref{stream}, handle.ptr, handle.size,
                         rmm::CUDA_ALLOCATION_ALIGNMENT);
    handle.ptr = nullptr;
  }
  static const void* pointer(const Handle& handle) { return handle.ptr; }
  void begin_trace() {}
  std::optional<std::size_t> reserved() const { return std::nullopt; }  // pre-sized: not telling

 private:
  rmm::mr::pool_memory_resource resource_;
};

// arena_memory_resource with a global arena of pool_hint bytes (its default is half the free
// memory, which would leave too little to the other allocators of the run).
class RmmArena {
 public:
  using Handle = Raw;
  static constexpr const char* name = "rmm_arena";
  explicit RmmArena(std::size_t pool_hint)
      : resource_(rmm::mr::cuda_memory_resource{}, rmm_aligned(pool_hint)) {}
  Handle allocate(std::size_t size, cudaStream_t stream) {
    return {resource_.allocate(cuda::stream_ref{stream}, size, rmm::CUDA_ALLOCATION_ALIGNMENT),
            size};
  }
  void release(Handle& handle, cudaStream_t stream) noexcept {
    resource_.deallocate(cuda::stream_ref{stream}, handle.ptr, handle.size,
                         rmm::CUDA_ALLOCATION_ALIGNMENT);
    handle.ptr = nullptr;
  }
  static const void* pointer(const Handle& handle) { return handle.ptr; }
  void begin_trace() {}
  std::optional<std::size_t> reserved() const { return std::nullopt; }

 private:
  rmm::mr::arena_memory_resource resource_;
};
#endif

// ---------------------------------------------------------------------------------------------
// PyTorch's CUDA caching allocator through c10 alone (libc10.so, libc10_cuda.so), no Python.
// Without Python nothing initialises it: init(device_count) creates its per-device state (raw_alloc
// otherwise fails "Allocator not initialized for device ..."). It allocates on the calling thread's
// current c10 stream (the default stream) and its device is the one current in c10's own CUDA
// runtime (libcudart.so of the torch wheel, separate from the static runtime of this binary), so
// each benchmark thread sets it.

#if POLYDEV_BENCH_WITH_TORCH
inline void torch_init() {
  static const bool done = [] {
    int count = 0;
    polydev::cuda::check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    auto* allocator = c10::cuda::CUDACachingAllocator::get();
    if (allocator == nullptr) throw std::runtime_error("c10: no CUDA caching allocator registered");
    c10::cuda::CUDACachingAllocator::init(count);  // idempotent: grows to `count` devices
    return true;
  }();
  (void)done;
}

class TorchCaching {
 public:
  using Handle = Raw;
  static constexpr const char* name = "torch_caching";
  explicit TorchCaching(std::size_t) {
    torch_init();
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(bench_device()));
  }
  Handle allocate(std::size_t size, cudaStream_t) {
    return {c10::cuda::CUDACachingAllocator::raw_alloc(size), size};
  }
  void release(Handle& handle, cudaStream_t) noexcept {
    try {
      c10::cuda::CUDACachingAllocator::raw_delete(handle.ptr);
    } catch (...) {
    }
    handle.ptr = nullptr;
  }
  static const void* pointer(const Handle& handle) { return handle.ptr; }
  // The caching allocator is process-wide: free its cache and reset its peaks so that reserved()
  // is this trace's.
  void begin_trace() {
    c10::cuda::CUDACachingAllocator::emptyCache();
    c10::cuda::CUDACachingAllocator::resetPeakStats(static_cast<c10::DeviceIndex>(bench_device()));
  }
  std::optional<std::size_t> reserved() const {
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(
        static_cast<c10::DeviceIndex>(bench_device()));
    return static_cast<std::size_t>(stats.reserved_bytes[0].peak);  // [0]: aggregate
  }

  // Per benchmark thread: c10's current device.
  static void enter_thread() {
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(bench_device()));
  }
};
#endif

// Per-thread set-up an adapter may need (c10 keeps its own current device per thread).
template <typename Adapter>
void enter_thread() {
#if POLYDEV_BENCH_WITH_TORCH
  if constexpr (std::is_same_v<Adapter, TorchCaching>) TorchCaching::enter_thread();
#endif
}

}  // namespace polydev_peer_bench
