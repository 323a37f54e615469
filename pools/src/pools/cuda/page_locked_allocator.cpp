#include "polydev/cuda/page_locked_allocator.hpp"

#include <string>

#include "polydev/cuda/error.hpp"

namespace polydev::cuda {

void* PageLockedAllocator::allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* block = nullptr;
  check(cudaHostAlloc(&block, bytes, flags_), "cudaHostAlloc",
        std::to_string(bytes) + " bytes with flags " + std::to_string(flags_));
  return block;
}

void PageLockedAllocator::free(void* block) noexcept {
  if (block == nullptr) return;
  const cudaError_t status = cudaFreeHost(block);
  if (status != cudaSuccess && status != cudaErrorCudartUnloading) (void)cudaGetLastError();
}

}  // namespace polydev::cuda
