#pragma once

// AlignedHostAllocator: the allocator concept of polydev/pools/pool.hpp over host memory aligned
// as cudaMalloc's (256 bytes), so that an arena can carve it as it carves device memory and the
// blocks can be written and read back on the host. Sizes are rounded up to the alignment, as
// std::aligned_alloc requires.

#include <cstddef>
#include <cstdlib>
#include <string>

#include "polydev/error.hpp"

namespace polydev::testing {

struct AlignedHostAllocator {
  static constexpr std::size_t alignment = 256;

  using block_type = void*;

  void* allocate(std::size_t bytes) {
    const std::size_t rounded =
        bytes == 0 ? alignment : (bytes + alignment - 1) / alignment * alignment;
    void* block = rounded < bytes ? nullptr : std::aligned_alloc(alignment, rounded);
    if (block == nullptr) {
      throw polydev::out_of_memory("aligned_alloc of " + std::to_string(bytes) + " bytes");
    }
    return block;
  }

  void free(void* block) noexcept { std::free(block); }
};

}  // namespace polydev::testing
