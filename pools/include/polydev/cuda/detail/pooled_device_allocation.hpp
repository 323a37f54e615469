#pragma once

/// @file
/// The device pointer and device of a block, whether it came from the driver or an arena.

#include "polydev/cuda/device_allocator.hpp"
#include "polydev/pools/arena.hpp"

namespace polydev::cuda::detail {

inline void* device_pointer(void* block) noexcept { return block; }
inline void* device_pointer(const pools::ArenaBlock& block) noexcept { return block.ptr; }

inline int device_of(const DeviceAllocator& allocator) noexcept { return allocator.device(); }
inline int device_of(const pools::Arena<DeviceAllocator>& arena) noexcept {
  return arena.upstream().device();
}

}  // namespace polydev::cuda::detail
