#pragma once

// AddressSpaceAllocator: the allocator concept of polydev/pools/pool.hpp over blocks of address
// space only (mmap'd PROT_NONE with MAP_NORESERVE, never touched). The blocks are real, distinct
// and freed, but cost no memory, so a 2-core machine can replay RMM's traces with 8 GiB of live
// blocks through a pool or an arena and read what they would reserve. Not thread-safe.

#include <sys/mman.h>

#include <cstddef>
#include <string>
#include <unordered_map>

#include "polydev/error.hpp"

namespace polydev::testing {

class AddressSpaceAllocator {
 public:
  using block_type = void*;

  void* allocate(std::size_t bytes) {
    void* block =
        ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (block == MAP_FAILED) {
      throw polydev::out_of_memory("mmap of " + std::to_string(bytes) + " bytes of address space");
    }
    lengths_[block] = bytes;
    return block;
  }

  void free(void* block) noexcept {
    const auto found = lengths_.find(block);
    if (found == lengths_.end()) return;
    ::munmap(block, found->second);
    lengths_.erase(found);
  }

 private:
  std::unordered_map<void*, std::size_t> lengths_;  // munmap needs the length
};

}  // namespace polydev::testing
