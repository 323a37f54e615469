#pragma once

/// @file
/// Device memory of one CUDA device (`cudaMalloc` / `cudaFree`), as an allocator for
/// `polydev::pools::Pool` (see `polydev/pools/pool.hpp` for the concept).

#include <cstddef>

namespace polydev::cuda {

/// Allocates device memory on one device, whichever device is current on the calling thread: each
/// call makes the allocator's device current and restores the previous one afterwards.
/// Copyable and thread-safe.
class DeviceAllocator {
 public:
  /// A block is a device pointer; a zero-byte request gives a null pointer.
  using block_type = void*;

  /// Stands for "the device current on the calling thread when the allocator is made".
  static constexpr int current_device = -1;

  /// An allocator for `device` (a CUDA runtime ordinal), or for the current device.
  /// @throws std::invalid_argument for an ordinal the machine does not have;
  /// polydev::backend_error when CUDA cannot be queried (no driver, no device).
  explicit DeviceAllocator(int device = current_device);

  /// The runtime ordinal of the device the memory lives on.
  int device() const noexcept { return device_; }

  /// `cudaMalloc` of `bytes` on the allocator's device; null without a CUDA call for 0 bytes.
  /// @throws polydev::out_of_memory (with the size and device in the message) when the device is
  /// out of memory; polydev::backend_error for any other failure.
  void* allocate(std::size_t bytes);

  /// `cudaFree` on the allocator's device. Never throws: a failure is dropped (and cleared from the
  /// runtime's last error), which is what happens when memory is returned during process exit
  /// (`cudaErrorCudartUnloading`) or after its context was destroyed (`cudaDeviceReset`).
  void free(void* block) noexcept;

 private:
  int device_;
};

}  // namespace polydev::cuda
