#pragma once

/// @file
/// Page-locked (pinned) host memory (`cudaHostAlloc` / `cudaFreeHost`), as an allocator for
/// `polydev::pools::Pool` (see `polydev/pools/pool.hpp` for the concept).

#include <cuda_runtime_api.h>

#include <cstddef>

namespace polydev::cuda {

/// Allocates page-locked host memory with fixed `cudaHostAlloc` flags. Copyable and thread-safe.
class PageLockedAllocator {
 public:
  /// A block is a host pointer; a zero-byte request gives a null pointer.
  using block_type = void*;

  /// `flags` are `cudaHostAlloc` flags (`cudaHostAllocPortable`, `cudaHostAllocMapped`,
  /// `cudaHostAllocWriteCombined`, or `cudaHostAllocDefault`); CUDA checks them at allocation.
  explicit PageLockedAllocator(unsigned flags = cudaHostAllocDefault) noexcept : flags_(flags) {}

  /// The `cudaHostAlloc` flags of every allocation.
  unsigned flags() const noexcept { return flags_; }

  /// `cudaHostAlloc` of `bytes`; null without a CUDA call for 0 bytes.
  /// @throws polydev::out_of_memory when the memory cannot be pinned; polydev::backend_error for
  /// other failures (bad flags, no driver).
  void* allocate(std::size_t bytes);

  /// `cudaFreeHost`. Never throws; a failure (the runtime unloading at process exit) is dropped.
  void free(void* block) noexcept;

 private:
  unsigned flags_;
};

}  // namespace polydev::cuda
