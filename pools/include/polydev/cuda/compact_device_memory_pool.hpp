#pragma once

/// @file
/// A device memory pool that keeps less in reserve: polydev's pool in front of an arena that
/// carves blocks out of large `cudaMalloc` segments and merges freed neighbours (see
/// `polydev/pools/arena.hpp`). On RMM's random_allocations traces it reserves at most 1.09× the
/// peak of requested bytes, where `DeviceMemoryPool` reserves up to 1.37× (docs/pools.md).

#include <cstddef>
#include <utility>

#include "polydev/cuda/device_allocator.hpp"
#include "polydev/cuda/pooled_device_allocation.hpp"
#include "polydev/pools/arena.hpp"
#include "polydev/pools/pool.hpp"

namespace polydev::cuda {

/// The allocator behind a `CompactDeviceMemoryPool`.
using DeviceArena = pools::Arena<DeviceAllocator>;

/// Device memory handed out by a `CompactDeviceMemoryPool` (see `BasicPooledDeviceAllocation`).
using CompactPooledDeviceAllocation = BasicPooledDeviceAllocation<DeviceArena>;

/// Pooled device memory of one device, like `DeviceMemoryPool`, for workloads whose sizes drift:
/// a returned block is kept for its size class, as in `DeviceMemoryPool`, but when a request
/// finds no block of its class and no free range in the arena, every held block goes back to the
/// arena before it asks CUDA for more. Memory then moves between classes instead of each class
/// keeping its own peak. Blocks are 256-byte aligned, as `cudaMalloc`'s.
///
/// Costs against `DeviceMemoryPool`: a reuse of a held block costs the same; a miss costs an
/// arena operation under one mutex instead of a `cudaMalloc`; the default classes are finer
/// (`leading_bits_in_bin_id` 6, at most 1/64 rounding) because the arena, not the classes, now
/// bounds what is reserved. `free_held()` also returns every wholly free segment to CUDA.
/// Thread-safe.
class CompactDeviceMemoryPool : public pools::Pool<DeviceArena, CompactPooledDeviceAllocation> {
 public:
  static constexpr unsigned default_leading_bits = 6;

  /// A pool over `allocator` (by default the device current on the calling thread now).
  /// @throws what `DeviceAllocator` throws; std::invalid_argument for a bad
  /// `leading_bits_in_bin_id` or bad `options`.
  explicit CompactDeviceMemoryPool(DeviceAllocator allocator = DeviceAllocator(),
                                   unsigned leading_bits_in_bin_id = default_leading_bits,
                                   pools::ArenaOptions options = {})
      : Pool(DeviceArena(std::move(allocator), options), leading_bits_in_bin_id) {}

  /// A pool on the device with runtime ordinal `device`.
  explicit CompactDeviceMemoryPool(int device,
                                   unsigned leading_bits_in_bin_id = default_leading_bits,
                                   pools::ArenaOptions options = {})
      : CompactDeviceMemoryPool(DeviceAllocator(device), leading_bits_in_bin_id, options) {}

  /// The runtime ordinal of the pool's device.
  int device() const noexcept { return detail::device_of(allocator()); }

  /// Device memory taken from CUDA and not yet returned: what this pool costs the device.
  std::size_t reserved_bytes() const { return allocator().counters().reserved_bytes; }

  /// The arena's counters (segments, reserved and peak reserved bytes, free ranges).
  pools::ArenaCounters arena_counters() const { return allocator().counters(); }
};

}  // namespace polydev::cuda
