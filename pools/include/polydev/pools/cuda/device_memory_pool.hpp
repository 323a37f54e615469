#pragma once

/// @file
/// PyCUDA's `DeviceMemoryPool`: pooled device memory of one CUDA device, on polydev's pool core.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "polydev/pools/cuda/device_allocator.hpp"
#include "polydev/pools/pool.hpp"

namespace polydev::cuda {

/// Device memory handed out by a `DeviceMemoryPool`: returned to the pool by `free()` or by the
/// destructor, and then freed on its own device whichever device is current. Move-only.
class PooledDeviceAllocation : public pools::PooledAllocation<DeviceAllocator> {
 public:
  /// An empty handle that owns nothing.
  PooledDeviceAllocation() = default;

  /// Used by the pool: `block` of `pool`, handed out for a request of `size` bytes.
  PooledDeviceAllocation(pools::PoolCore<DeviceAllocator>* pool, void* block, std::size_t size)
      : PooledAllocation(std::move(pool), block, size),
        device_(this->pool()->allocator().device()) {}

  /// The device pointer (valid for at least `size()` bytes; never null, even for 0 bytes).
  void* ptr() const noexcept { return block(); }

  /// The device pointer as `T*`, for kernel arguments.
  template <typename T>
  T* as() const noexcept {
    return static_cast<T*>(block());
  }

  /// The device pointer as an integer, the value of a driver-API `CUdeviceptr`.
  std::uint64_t address() const noexcept { return reinterpret_cast<std::uintptr_t>(block()); }

  /// The runtime ordinal of the device the memory is on (-1 for an empty handle).
  int device() const noexcept { return device_; }

  /// Returns the memory to the pool now. @throws polydev::error if it was already returned.
  void free() { release(); }

 private:
  int device_ = -1;
};

/// A pool of device memory on one device (PyCUDA's `DeviceMemoryPool`). Make one pool per device.
/// `allocate(size)` gives a `PooledDeviceAllocation`; the counters, `free_held()` and
/// `stop_holding()` are those of `polydev::pools::Pool`. Thread-safe.
class DeviceMemoryPool : public pools::Pool<DeviceAllocator, PooledDeviceAllocation> {
 public:
  /// A pool over `allocator`: by default the device current on the calling thread now.
  /// @throws what `DeviceAllocator` throws, std::invalid_argument for a bad
  /// `leading_bits_in_bin_id`.
  explicit DeviceMemoryPool(DeviceAllocator allocator = DeviceAllocator(),
                            unsigned leading_bits_in_bin_id = 4)
      : Pool(std::move(allocator), leading_bits_in_bin_id) {}

  /// A pool on the device with runtime ordinal `device`.
  explicit DeviceMemoryPool(int device, unsigned leading_bits_in_bin_id = 4)
      : DeviceMemoryPool(DeviceAllocator(device), leading_bits_in_bin_id) {}

  /// The runtime ordinal of the pool's device.
  int device() const noexcept { return allocator().device(); }
};

}  // namespace polydev::cuda
