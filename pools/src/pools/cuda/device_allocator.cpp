#include "polydev/cuda/device_allocator.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "polydev/cuda/error.hpp"
#include "scoped_device.hpp"

namespace polydev::cuda {

namespace {

int resolve_device(int device) {
  if (device == DeviceAllocator::current_device) {
    int current = -1;
    check(cudaGetDevice(&current), "cudaGetDevice", "DeviceAllocator for the current device");
    return current;
  }
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount",
        "DeviceAllocator for device " + std::to_string(device));
  if (device < 0 || device >= count) {
    throw std::invalid_argument("DeviceAllocator: CUDA device " + std::to_string(device) +
                                " does not exist; this machine has " + std::to_string(count) +
                                " (ordinals 0 to " + std::to_string(count - 1) +
                                "), or use DeviceAllocator::current_device");
  }
  return device;
}

}  // namespace

DeviceAllocator::DeviceAllocator(int device) : device_(resolve_device(device)) {}

void* DeviceAllocator::allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  const std::string where = std::to_string(bytes) + " bytes on device " + std::to_string(device_);
  const detail::ScopedDevice scope(device_);
  check(scope.status(), "cudaSetDevice", where);
  void* block = nullptr;
  check(cudaMalloc(&block, bytes), "cudaMalloc", where);
  return block;
}

void DeviceAllocator::free(void* block) noexcept {
  if (block == nullptr) return;
  const detail::ScopedDevice scope(device_);
  cudaError_t status = scope.status();
  if (status == cudaSuccess) status = cudaFree(block);
  // Nothing can be done about a failed free from here; keep it from being reported by the next,
  // unrelated call. While the runtime unloads, make no further call at all.
  if (status != cudaSuccess && status != cudaErrorCudartUnloading) (void)cudaGetLastError();
}

}  // namespace polydev::cuda
