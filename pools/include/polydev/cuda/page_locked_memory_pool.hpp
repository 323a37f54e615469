#pragma once

/// @file
/// PyCUDA's `PageLockedMemoryPool`: pooled page-locked host memory, handed out as raw blocks or as
/// typed, shaped arrays (`allocate(shape, dtype, order)`) that own their memory.

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydev/cuda/array_layout.hpp"
#include "polydev/cuda/page_locked_allocator.hpp"
#include "polydev/pools/pool.hpp"

namespace polydev::cuda {

/// Page-locked memory handed out by a `PageLockedMemoryPool`: returned to the pool by `free()` or
/// by the destructor. Move-only.
class PooledHostAllocation : public pools::PooledAllocation<PageLockedAllocator> {
 public:
  using PooledAllocation::PooledAllocation;

  /// The host pointer (valid for at least `size()` bytes; never null, even for 0 bytes).
  void* ptr() const noexcept { return block(); }

  /// Returns the memory to the pool now. @throws polydev::error if it was already returned.
  void free() { release(); }
};

/// Names an element type for `PageLockedMemoryPool::allocate`, like a NumPy dtype: `dtype<float>`.
template <typename T>
struct DType {
  using type = T;
};

/// The element type tag for `T`.
template <typename T>
inline constexpr DType<T> dtype{};

/// A typed, shaped view of page-locked memory that owns it (as NumPy's array owns its `.base`):
/// the memory goes back to its pool when the array is destroyed or `free()`d. Move-only.
/// `size()`, `ndim()`, `shape()`, `strides()`, `order()` and `layout()` come from `ShapedArray`.
template <typename T>
class HostArray : public pools::detail::ShapedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "HostArray elements must be trivially copyable (they are uninitialized bytes)");

 public:
  /// The view of `allocation` with `layout` (which must fit in it, with `layout.itemsize` equal to
  /// `sizeof(T)`). Normally made by `PageLockedMemoryPool::allocate`.
  HostArray(PooledHostAllocation allocation, ArrayLayout layout)
      : ShapedArray(std::move(layout)), allocation_(std::move(allocation)) {}

  /// The first element. The memory is uninitialized when the array is made.
  T* data() const noexcept { return static_cast<T*>(allocation_.ptr()); }

  /// Bytes of the elements (the block may be larger).
  std::size_t nbytes() const noexcept { return layout_.bytes; }

  /// The element at `index...` (one index per dimension, none for 0-d).
  /// @throws std::out_of_range for a wrong number of indices or an index beyond its extent.
  template <typename... Index>
  T& at(Index... index) const {
    const std::size_t offset = offset_of("HostArray::at", index...);
    return *reinterpret_cast<T*>(static_cast<unsigned char*>(allocation_.ptr()) + offset);
  }

  /// The pooled memory the array lives in (NumPy's `.base`).
  const PooledHostAllocation& base() const noexcept { return allocation_; }

  /// Returns the memory to the pool now; the array must not be used afterwards.
  /// @throws polydev::error if it was already returned.
  void free() { allocation_.free(); }

 private:
  PooledHostAllocation allocation_;
};

/// A pool of page-locked host memory (PyCUDA's `PageLockedMemoryPool`). `allocate(size)` gives a
/// `PooledHostAllocation`; `allocate(shape, dtype<T>, order)` a `HostArray<T>`. The counters,
/// `free_held()` and `stop_holding()` are those of `polydev::pools::Pool`. Thread-safe.
class PageLockedMemoryPool : public pools::Pool<PageLockedAllocator, PooledHostAllocation> {
 public:
  /// A pool over `allocator` (copied). @throws std::invalid_argument for a bad
  /// `leading_bits_in_bin_id`.
  explicit PageLockedMemoryPool(PageLockedAllocator allocator = PageLockedAllocator(),
                                unsigned leading_bits_in_bin_id = 4)
      : Pool(allocator, leading_bits_in_bin_id) {}

  using Pool::allocate;

  /// An uninitialized array of `shape` (empty for 0-d, one element) with elements of type `T`, in
  /// `order`, owning a block of `sizeof(T) * product(shape)` bytes.
  /// @throws what `make_layout` throws for a bad shape or order, and what `allocate(size)` throws.
  template <typename T>
  HostArray<T> allocate(std::vector<std::size_t> shape, DType<T>, Order order = Order::c) {
    ArrayLayout layout = make_layout(std::move(shape), sizeof(T), order);
    PooledHostAllocation allocation = allocate(layout.bytes);
    return HostArray<T>(std::move(allocation), std::move(layout));
  }

  /// As above with the order given as "C" or "F". @throws std::invalid_argument for another order.
  template <typename T>
  HostArray<T> allocate(std::vector<std::size_t> shape, DType<T> type, std::string_view order) {
    return allocate(std::move(shape), type, parse_order(order));
  }
};

}  // namespace polydev::cuda
