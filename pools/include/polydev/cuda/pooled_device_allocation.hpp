#pragma once

/// @file
/// The handle to device memory handed out by polydev's CUDA device pools (`DeviceMemoryPool`,
/// `CompactDeviceMemoryPool`): the same calls whichever allocator is behind the pool.

#include <cstddef>
#include <cstdint>
#include <utility>

#include "polydev/cuda/detail/pooled_device_allocation.hpp"
#include "polydev/cuda/device_allocator.hpp"
#include "polydev/pools/arena.hpp"
#include "polydev/pools/pool.hpp"

namespace polydev::cuda {

/// Device memory handed out by a pool over `Allocator` (`DeviceAllocator`, or an arena of it):
/// returned to the pool by `free()` or by the destructor, and then freed on its own device
/// whichever device is current. Move-only.
template <typename Allocator>
class BasicPooledDeviceAllocation : public pools::PooledAllocation<Allocator> {
  using Base = pools::PooledAllocation<Allocator>;

 public:
  /// An empty handle that owns nothing.
  BasicPooledDeviceAllocation() = default;

  /// Used by the pool: `block` of `pool`, handed out for a request of `size` bytes in `bin`.
  BasicPooledDeviceAllocation(pools::PoolCore<Allocator>* pool, typename Base::block_type block,
                              std::size_t size, std::uint32_t bin)
      : Base(pool, std::move(block), size, bin) {}

  /// The device pointer (valid for at least `size()` bytes; never null, even for 0 bytes).
  void* ptr() const noexcept { return detail::device_pointer(this->block()); }

  /// The device pointer as `T*`, for kernel arguments.
  template <typename T>
  T* as() const noexcept {
    return static_cast<T*>(ptr());
  }

  /// The device pointer as an integer, the value of a driver-API `CUdeviceptr`.
  std::uint64_t address() const noexcept { return reinterpret_cast<std::uintptr_t>(ptr()); }

  /// The runtime ordinal of the device the memory is on; -1 for a handle that holds no memory
  /// (empty, moved from, or freed). Read from the pool on each call rather than kept in the
  /// handle: handing out a block is the hot path, and asking for the device is rare.
  int device() const noexcept {
    return this->valid() ? detail::device_of(this->pool()->allocator()) : -1;
  }

  /// Returns the memory to the pool now. @throws polydev::error if it was already returned.
  void free() { this->release(); }
};

}  // namespace polydev::cuda
