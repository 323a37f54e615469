#pragma once

/// @file
/// PyOpenCL's NumPy-style SVM allocation: `svm_empty`, `csvm_empty`, `fsvm_empty` and their
/// `*_empty_like` forms, which hand out an `SVMArray<T>`: an `SVMAllocation` (the memory, its queue
/// binding and its release) seen as a dense array of `T` with a shape and an element order.
///
/// Differences from PyOpenCL, where its behaviour is loose:
/// - the element type is the template argument, and the default alignment is `alignof(T)`
///   (PyOpenCL aligns to the item size, which need not be a power of two); an alignment below
///   `alignof(T)` is refused;
/// - a queue may be given, to which the memory is bound: its free is then enqueued there after the
///   queue's work (PyOpenCL's `svm_empty` has no queue, so it frees at once);
/// - `csvm_empty_like` and `fsvm_empty_like` pass the alignment on (PyOpenCL drops it);
/// - a released array owns nothing: using it is refused instead of reaching OpenCL with a null
///   pointer.

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/array_layout.hpp"
#include "polydev/opencl/memory/svm_operations.hpp"
#include "polydev/opencl/svm_allocator.hpp"

namespace polydev::opencl::memory {

namespace detail {

/// The allocation behind `svm_empty` and its kin: `bytes` bytes with `flags`, aligned to
/// `alignment` (0: `element_alignment`), bound to `queue` if given. Messages start "<who>: ".
/// @throws polydev::error for an alignment below `element_alignment` (or not a power of two),
/// SVM the context's devices lack (naming each device's SVM capabilities), a bad queue; what
/// `SVMAllocator::allocate` throws.
SVMAllocation allocate_svm_array(const cl::Context& context, cl_svm_mem_flags flags,
                                 std::size_t bytes, cl_uint alignment,
                                 std::size_t element_alignment,
                                 std::optional<cl::CommandQueue> queue, const char* who);

/// @throws polydev::error "<who>: the array to take the shape of was released ..." unless `valid`.
void require_live_model(bool valid, const char* who);

}  // namespace detail

/// A dense array of `T` in SVM, owning its memory: what PyOpenCL's `svm_empty` returns (a NumPy
/// array whose base is an `SVMAllocation`). Move-only. Coarse-grain memory needs a map
/// (`map_svm`) before the host touches it; fine-grain memory does not.
///
/// It has `SVMAllocation`'s release and queue binding. Once released (by `release()`,
/// `enqueue_release()` or a move) it is empty: no memory, no shape, `valid()` false; releasing,
/// binding or using it again throws.
/// `size()`, `ndim()`, `shape()`, `strides()`, `order()` and `layout()` come from `ShapedArray`.
template <typename T>
class SVMArray : public pools::detail::ShapedArray {
 public:
  using value_type = T;

  /// An empty array that owns nothing.
  SVMArray() = default;

  /// `allocation` seen as an array of `layout`.
  /// @throws std::invalid_argument when `layout.itemsize` is not `sizeof(T)`, or the allocation is
  /// released, smaller than `layout.bytes` or not aligned for `T`.
  SVMArray(SVMAllocation allocation, ArrayLayout layout)
      : ShapedArray(std::move(layout)), allocation_(std::move(allocation)) {
    if (layout_.itemsize != sizeof(T)) {
      throw std::invalid_argument("SVMArray: the layout's elements have " +
                                  std::to_string(layout_.itemsize) + " bytes, the type's " +
                                  std::to_string(sizeof(T)));
    }
    if (!allocation_.valid()) {
      throw std::invalid_argument("SVMArray: the allocation was released; it owns no memory");
    }
    if (allocation_.size() < layout_.bytes) {
      throw std::invalid_argument("SVMArray: an array of shape " + describe_shape(layout_.shape) +
                                  " needs " + std::to_string(layout_.bytes) +
                                  " bytes, the allocation has " +
                                  std::to_string(allocation_.size()));
    }
    if (reinterpret_cast<std::uintptr_t>(allocation_.ptr()) % alignof(T) != 0) {
      throw std::invalid_argument("SVMArray: the allocation is not aligned to the " +
                                  std::to_string(alignof(T)) + " bytes its elements need");
    }
  }

  SVMArray(SVMArray&& other) noexcept
      : ShapedArray(std::exchange(other.layout_, ArrayLayout{})),
        allocation_(std::move(other.allocation_)) {}
  SVMArray& operator=(SVMArray&& other) noexcept {
    if (this != &other) {
      allocation_ = std::move(other.allocation_);
      layout_ = std::exchange(other.layout_, ArrayLayout{});
    }
    return *this;
  }
  SVMArray(const SVMArray&) = delete;
  SVMArray& operator=(const SVMArray&) = delete;
  ~SVMArray() = default;

  /// The elements; null for an array of no elements and once released.
  T* data() const noexcept { return static_cast<T*>(allocation_.ptr()); }
  /// The bytes of the elements; 0 once released.
  std::size_t bytes() const noexcept { return layout_.bytes; }

  /// True until released (or moved from).
  bool valid() const noexcept { return allocation_.valid(); }
  /// The queue the memory is bound to (not retained); null when unbound or released.
  cl_command_queue queue() const noexcept { return allocation_.queue(); }
  /// The memory (PyOpenCL's `ary.base`).
  const SVMAllocation& allocation() const noexcept { return allocation_; }

  /// `SVMAllocation::release`: frees the memory now (on the bound queue after its work, or at
  /// once); the array is empty afterwards.
  /// @throws polydev::error when released.
  void release() {
    require_owned("release");
    allocation_.release();
    layout_ = ArrayLayout{};
  }

  /// `SVMAllocation::enqueue_release`: enqueues the free on the bound queue after `wait_for` and
  /// returns its event; the array is empty afterwards.
  /// @throws polydev::error when released or unbound; polydev::backend_error when OpenCL refuses
  /// the command (the array then still owns the memory).
  cl::Event enqueue_release(const std::vector<cl::Event>& wait_for = {}) {
    require_owned("enqueue_release");
    cl::Event done = allocation_.enqueue_release(wait_for);
    layout_ = ArrayLayout{};
    return done;
  }

  /// `SVMAllocation::enqueue_release(queue, wait_for)`: the free on `queue` (which first waits
  /// for the bound queue, if another), after `wait_for`; the array is empty afterwards.
  /// @throws polydev::error when released or for a queue of another context;
  /// polydev::backend_error when OpenCL refuses the commands (the array then still owns the
  /// memory).
  cl::Event enqueue_release(const cl::CommandQueue& queue,
                            const std::vector<cl::Event>& wait_for = {}) {
    require_owned("enqueue_release");
    cl::Event done = allocation_.enqueue_release(queue, wait_for);
    layout_ = ArrayLayout{};
    return done;
  }

  /// `SVMAllocation::bind_to_queue`.
  /// @throws polydev::error when released, for an out-of-order queue or one of another context;
  /// polydev::backend_error when the ordering commands fail.
  void bind_to_queue(const cl::CommandQueue& queue) {
    require_owned("bind_to_queue");
    allocation_.bind_to_queue(queue);
  }

  /// `SVMAllocation::unbind_from_queue`: finishes the bound queue and unbinds.
  /// @throws polydev::error when released, polydev::backend_error when `clFinish` fails.
  void unbind_from_queue() {
    require_owned("unbind_from_queue");
    allocation_.unbind_from_queue();
  }

  /// The whole array with its queue binding, for the operations of `svm_operations.hpp` and
  /// `map_svm`.
  /// @throws polydev::error when released.
  operator SVMSpan() const {  // NOLINT(google-explicit-constructor)
    require_owned("the conversion to SVMSpan");
    return SVMSpan(allocation_).subspan(0, layout_.bytes);
  }

 private:
  void require_owned(const char* who) const {
    if (!allocation_.valid()) {
      throw error(std::string("SVMArray: ") + who +
                  " of an array that was released (or moved from); it owns no memory");
    }
  }

  SVMAllocation allocation_;
};

namespace detail {

// What tells the members of the svm_empty family apart: the SVM flags they allocate with, and the
// names their messages start with.
struct SVMArrayKind {
  cl_svm_mem_flags flags;
  const char* empty;
  const char* empty_like;
};

constexpr SVMArrayKind any_grain(cl_svm_mem_flags flags) {
  return {flags, "svm_empty", "svm_empty_like"};
}
inline constexpr SVMArrayKind coarse_grain{CL_MEM_READ_WRITE, "csvm_empty", "csvm_empty_like"};
inline constexpr SVMArrayKind fine_grain{CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                                         "fsvm_empty", "fsvm_empty_like"};

template <typename T>
SVMArray<T> make_svm_array(const cl::Context& context, cl_svm_mem_flags flags,
                           std::vector<std::size_t> shape, Order order, cl_uint alignment,
                           std::optional<cl::CommandQueue> queue, const char* who) {
  ArrayLayout layout = make_layout(std::move(shape), sizeof(T), order);
  SVMAllocation allocation = allocate_svm_array(context, flags, layout.bytes, alignment, alignof(T),
                                                std::move(queue), who);
  return SVMArray<T>(std::move(allocation), std::move(layout));
}

template <typename T>
SVMArray<T> make_empty(const SVMArrayKind& kind, const cl::Context& context,
                       std::vector<std::size_t> shape, Order order, cl_uint alignment,
                       std::optional<cl::CommandQueue> queue) {
  return make_svm_array<T>(context, kind.flags, std::move(shape), order, alignment,
                           std::move(queue), kind.empty);
}

template <typename T>
SVMArray<T> make_empty_like(const SVMArrayKind& kind, const cl::Context& context,
                            const SVMArray<T>& like, cl_uint alignment,
                            std::optional<cl::CommandQueue> queue) {
  require_live_model(like.valid(), kind.empty_like);
  return make_svm_array<T>(context, kind.flags, like.shape(), like.order(), alignment,
                           std::move(queue), kind.empty_like);
}

// A host vector is one-dimensional, so that its order is C's.
template <typename T, typename Allocator>
SVMArray<T> make_empty_like(const SVMArrayKind& kind, const cl::Context& context,
                            const std::vector<T, Allocator>& like, cl_uint alignment,
                            std::optional<cl::CommandQueue> queue) {
  return make_svm_array<T>(context, kind.flags, {like.size()}, Order::c, alignment,
                           std::move(queue), kind.empty_like);
}

}  // namespace detail

/// PyOpenCL's `svm_empty(ctx, flags, shape, dtype, order, alignment)`: an uninitialized array of
/// `T` of `shape` in `order`, in SVM of `context` allocated with `flags` (`CL_MEM_READ_WRITE`,
/// plus `CL_MEM_SVM_FINE_GRAIN_BUFFER` for fine grain, ...), aligned to `alignment` bytes (0:
/// `alignof(T)`), bound to `queue` if given.
/// @throws std::length_error when the bytes overflow `size_t`; std::invalid_argument for an order
/// that is not an `Order`; polydev::error for an alignment below `alignof(T)` or not a power of
/// two, for SVM the context's devices lack (the message gives each device's SVM capabilities), for
/// an out-of-order queue or one of another context; polydev::out_of_memory;
/// polydev::backend_error.
template <typename T>
SVMArray<T> svm_empty(const cl::Context& context, cl_svm_mem_flags flags,
                      std::vector<std::size_t> shape, Order order = Order::c, cl_uint alignment = 0,
                      std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty<T>(detail::any_grain(flags), context, std::move(shape), order,
                               alignment, std::move(queue));
}

/// `svm_empty` of a one-dimensional array of `count` elements (PyOpenCL takes an integer shape).
template <typename T>
SVMArray<T> svm_empty(const cl::Context& context, cl_svm_mem_flags flags, std::size_t count,
                      Order order = Order::c, cl_uint alignment = 0,
                      std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty<T>(detail::any_grain(flags), context, {count}, order, alignment,
                               std::move(queue));
}

/// PyOpenCL's `csvm_empty`: `svm_empty` of coarse-grain SVM (`CL_MEM_READ_WRITE`).
template <typename T>
SVMArray<T> csvm_empty(const cl::Context& context, std::vector<std::size_t> shape,
                       Order order = Order::c, cl_uint alignment = 0,
                       std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty<T>(detail::coarse_grain, context, std::move(shape), order, alignment,
                               std::move(queue));
}

/// `csvm_empty` of a one-dimensional array of `count` elements.
template <typename T>
SVMArray<T> csvm_empty(const cl::Context& context, std::size_t count, Order order = Order::c,
                       cl_uint alignment = 0, std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty<T>(detail::coarse_grain, context, {count}, order, alignment,
                               std::move(queue));
}

/// PyOpenCL's `fsvm_empty`: `svm_empty` of fine-grain SVM
/// (`CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER`), which the host uses without a map.
/// @throws polydev::error naming the device and its SVM capabilities when a device of the
/// context has no fine-grain SVM buffers; otherwise what `svm_empty` throws.
template <typename T>
SVMArray<T> fsvm_empty(const cl::Context& context, std::vector<std::size_t> shape,
                       Order order = Order::c, cl_uint alignment = 0,
                       std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty<T>(detail::fine_grain, context, std::move(shape), order, alignment,
                               std::move(queue));
}

/// `fsvm_empty` of a one-dimensional array of `count` elements.
template <typename T>
SVMArray<T> fsvm_empty(const cl::Context& context, std::size_t count, Order order = Order::c,
                       cl_uint alignment = 0, std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty<T>(detail::fine_grain, context, {count}, order, alignment,
                               std::move(queue));
}

/// PyOpenCL's `svm_empty_like(ctx, flags, ary, alignment)`: `svm_empty` of the shape and order of
/// `like`.
/// @throws polydev::error when `like` was released; otherwise what `svm_empty` throws.
template <typename T>
SVMArray<T> svm_empty_like(const cl::Context& context, cl_svm_mem_flags flags,
                           const SVMArray<T>& like, cl_uint alignment = 0,
                           std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty_like(detail::any_grain(flags), context, like, alignment,
                                 std::move(queue));
}

/// `svm_empty_like` of a host array: one dimension of `like.size()` elements.
template <typename T, typename Allocator>
SVMArray<T> svm_empty_like(const cl::Context& context, cl_svm_mem_flags flags,
                           const std::vector<T, Allocator>& like, cl_uint alignment = 0,
                           std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty_like(detail::any_grain(flags), context, like, alignment,
                                 std::move(queue));
}

/// PyOpenCL's `csvm_empty_like`: `svm_empty_like` of coarse-grain SVM.
template <typename T>
SVMArray<T> csvm_empty_like(const cl::Context& context, const SVMArray<T>& like,
                            cl_uint alignment = 0, std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty_like(detail::coarse_grain, context, like, alignment, std::move(queue));
}

/// `csvm_empty_like` of a host array: one dimension of `like.size()` elements.
template <typename T, typename Allocator>
SVMArray<T> csvm_empty_like(const cl::Context& context, const std::vector<T, Allocator>& like,
                            cl_uint alignment = 0, std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty_like(detail::coarse_grain, context, like, alignment, std::move(queue));
}

/// PyOpenCL's `fsvm_empty_like`: `svm_empty_like` of fine-grain SVM.
/// @throws polydev::error naming the device and its SVM capabilities when a device of the
/// context has no fine-grain SVM buffers; otherwise what `svm_empty_like` throws.
template <typename T>
SVMArray<T> fsvm_empty_like(const cl::Context& context, const SVMArray<T>& like,
                            cl_uint alignment = 0, std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty_like(detail::fine_grain, context, like, alignment, std::move(queue));
}

/// `fsvm_empty_like` of a host array: one dimension of `like.size()` elements.
template <typename T, typename Allocator>
SVMArray<T> fsvm_empty_like(const cl::Context& context, const std::vector<T, Allocator>& like,
                            cl_uint alignment = 0, std::optional<cl::CommandQueue> queue = {}) {
  return detail::make_empty_like(detail::fine_grain, context, like, alignment, std::move(queue));
}

}  // namespace polydev::opencl::memory
