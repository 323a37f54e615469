#pragma once

/// @file
/// Keeping one thread's data off the cache lines another thread writes.

#include <cstddef>
#include <cstdint>
#include <new>

namespace polydev::pools::detail {

// Two threads that write within this many bytes of each other slow each other down. 128, not the
// 64-byte line: Intel's spatial prefetcher fetches lines in aligned pairs, so a write to one line
// of a pair also takes the other away from a core that reads it.
inline constexpr std::size_t false_sharing_range = 128;

// An allocator whose every allocation starts on a `false_sharing_range` boundary and spans whole
// multiples of it. Containers of different pool shards get their memory from the heap, which packs
// small allocations of different threads next to each other; with this allocator no two of them
// share a line, so shards that never touch each other's data never slow each other down.
template <typename T>
struct CacheLineAllocator {
  using value_type = T;

  CacheLineAllocator() noexcept = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}  // NOLINT: rebinding is implicit

  T* allocate(std::size_t count) {
    return static_cast<T*>(::operator new (padded(count), std::align_val_t{false_sharing_range}));
  }
  void deallocate(T* pointer, std::size_t count) noexcept {
#if defined(__cpp_sized_deallocation)
    ::operator delete (pointer, padded(count), std::align_val_t{false_sharing_range});
#else
    // Clang before 19 declares no sized deallocation unless -fsized-deallocation is given.
    static_cast<void>(count);
    ::operator delete (pointer, std::align_val_t{false_sharing_range});
#endif
  }

  template <typename U>
  bool operator==(const CacheLineAllocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const CacheLineAllocator<U>&) const noexcept {
    return false;
  }

 private:
  static std::size_t padded(std::size_t count) {
    if (count > (SIZE_MAX - false_sharing_range) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = count * sizeof(T);
    return (bytes + false_sharing_range - 1) / false_sharing_range * false_sharing_range;
  }
};

}  // namespace polydev::pools::detail
