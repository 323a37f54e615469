#pragma once

/// @file
/// PyCUDA's `DeviceMemoryPool`: pooled device memory of one CUDA device, on polydev's pool core.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "polydev/cuda/device_allocator.hpp"
#include "polydev/cuda/pooled_device_allocation.hpp"
#include "polydev/pools/pool.hpp"

namespace polydev::cuda {

/// Device memory handed out by a `DeviceMemoryPool` (see `BasicPooledDeviceAllocation`).
using PooledDeviceAllocation = BasicPooledDeviceAllocation<DeviceAllocator>;

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
