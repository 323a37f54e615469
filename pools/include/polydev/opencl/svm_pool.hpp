#pragma once

/// @file
/// PyOpenCL's `SVMPool` and `PooledSVM`, on polydev's one pool algorithm
/// (`polydev/pools/pool.hpp`), with the queue binding of `SVMAllocator`.

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

#include "polydev/opencl/svm_allocator.hpp"
#include "polydev/pools/pool.hpp"

namespace polydev::opencl {

/// An SVM block from an `SVMPool`, returned to it by `release()` / `enqueue_release()` or the
/// destructor. Pass `ptr()` to kernels (`cl::Kernel::setArg(i, pooled.ptr())`, which calls
/// `clSetKernelArgSVMPointer`) and to SVM map, memfill, memcpy and migrate commands.
///
/// The block may be bound to an in-order queue, its last user: returning it does not wait, and
/// whoever reuses it next is ordered after that queue (see `SVMAllocator`), so a bound block must
/// be used on its queue only: the operations of `svm_operations.hpp` and `map_svm` refuse it on
/// another. A request of 0 bytes still gets a real (1-byte) block, so `ptr()` is never null while
/// the handle owns it.
///
/// It is an SVM pointer as PyOpenCL's `PooledSVM` is: two handles are equal when `ptr()` is the
/// same (so released handles, whose `ptr()` is null, are equal to each other), and `std::hash`
/// hashes `ptr()`.
class PooledSVM : public pools::PooledAllocation<AnySVMAllocator> {
 public:
  using pools::PooledAllocation<AnySVMAllocator>::PooledAllocation;

  /// The SVM pointer; null once released.
  void* ptr() const noexcept { return valid() ? block().ptr : nullptr; }

  /// Returns the block to its pool; a bound block stays bound, so its reuse or free is ordered
  /// after the work on its queue. The same as `release()` (PyOpenCL has both names).
  /// @throws polydev::error when already released.
  void enqueue_release() { release(); }

  /// Binds the block to `queue` (in order; of the pool's context when the allocator tells it),
  /// which from now on is its last user: if it was bound to another queue, `queue` first waits for
  /// the work enqueued there.
  /// @throws polydev::error for an out-of-order queue, a queue of another context or a released
  /// block, polydev::backend_error when the ordering commands fail.
  void bind_to_queue(const cl::CommandQueue& queue);

  /// Finishes the bound queue (so the host may use the memory) and unbinds the block.
  /// @throws polydev::error for a released block, polydev::backend_error when `clFinish` fails.
  void unbind_from_queue();

  /// The queue the block is bound to, not retained; null when unbound or released (diagnostics,
  /// PyOpenCL's `_queue`).
  cl_command_queue queue() const noexcept { return valid() ? block().queue() : nullptr; }

  /// Equal when `ptr()` is the same (see the class).
  friend bool operator==(const PooledSVM& a, const PooledSVM& b) noexcept {
    return a.ptr() == b.ptr();
  }
  /// Not the same `ptr()`.
  friend bool operator!=(const PooledSVM& a, const PooledSVM& b) noexcept { return !(a == b); }

 private:
  SVMBlock& owned_block(const char* who);
};

/// PyOpenCL's `SVMPool`, over any SVM allocator: an `SVMAllocator` or one of the user's
/// (`is_svm_allocator_v`: the pool's allocator concept with `SVMBlock` blocks), held as an
/// `AnySVMAllocator`. Counters, `free_held()`, `stop_holding()` and the size classes are
/// `pools::Pool`'s; `allocate(size)` and `pool(size)` return `PooledSVM`.
class SVMPool : public pools::Pool<AnySVMAllocator, PooledSVM> {
 public:
  /// @throws std::invalid_argument for a `leading_bits_in_bin_id` above
  /// `pools::BinScheme::max_leading_bits`.
  explicit SVMPool(AnySVMAllocator allocator, unsigned leading_bits_in_bin_id = 4)
      : Pool(std::move(allocator), leading_bits_in_bin_id) {}

  /// Any other type does not compile, with a message that names the requirement it misses.
  template <typename Allocator,
            typename = std::enable_if_t<!std::is_convertible_v<Allocator, AnySVMAllocator> &&
                                        !std::is_base_of_v<SVMPool, Allocator>>>
  explicit SVMPool(const Allocator& /*allocator*/, unsigned leading_bits_in_bin_id = 4)
      : SVMPool(detail::refuse_svm_allocator<Allocator>(), leading_bits_in_bin_id) {}
};

}  // namespace polydev::opencl

namespace std {

/// Hashes a `PooledSVM` by its pointer, as its equality compares.
template <>
struct hash<polydev::opencl::PooledSVM> {
  std::size_t operator()(const polydev::opencl::PooledSVM& pooled) const noexcept {
    return std::hash<void*>()(pooled.ptr());
  }
};

}  // namespace std

namespace cl::detail {

/// `cl::Kernel::setArg(i, pooled)` would pass the bytes of the handle with `clSetKernelArg`; an SVM
/// argument needs `clSetKernelArgSVMPointer`, which `setArg(i, pooled.ptr())` calls. Deleted so
/// that the mistake does not compile.
template <>
struct KernelArgumentHandler<polydev::opencl::PooledSVM, void> {
  static size_type size(const polydev::opencl::PooledSVM&) = delete;
  static const void* ptr(const polydev::opencl::PooledSVM&) = delete;
};

}  // namespace cl::detail
