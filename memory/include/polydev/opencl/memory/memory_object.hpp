#pragma once

/// @file
/// What PyOpenCL's `MemoryObject` offers beyond the Khronos bindings: its `hostbuf`, its
/// `get_host_array(shape, dtype, order)`, and `enqueue_migrate_mem_objects`. They take any
/// `cl::Memory` (a buffer, sub-buffer or image); a `PooledBuffer` gives one with `buffer()`.
///
/// Host memory of an object made with `CL_MEM_USE_HOST_PTR` belongs to whoever made the object,
/// and OpenCL may cache it on the device: its contents agree with the object's only while the
/// object is mapped (`map_buffer`, `map_image`) and after a blocking read, as OpenCL specifies.

#include <CL/opencl.hpp>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydev/opencl/array_layout.hpp"
#include "polydev/opencl/memory/copy.hpp"

namespace polydev::opencl::memory {

/// The host memory `memory` was made over with `CL_MEM_USE_HOST_PTR` (PyOpenCL's
/// `MemoryObject.hostbuf`): its `CL_MEM_HOST_PTR`, and the bytes the object spans there (a buffer's
/// or sub-buffer's `CL_MEM_SIZE`; an image's row or slice pitch times its rows or slices).
/// `nullopt` for an object made without it (PyOpenCL's `None`), which a pooled buffer always is.
/// @throws std::invalid_argument for an empty handle; polydev::backend_error when a query fails.
std::optional<HostSpan> hostbuf(const cl::Memory& memory);

/// A typed, shaped view of host memory that it does not own: what PyOpenCL's `get_host_array`
/// gives as a NumPy array. Valid while that memory lives.
/// `size()`, `ndim()`, `shape()`, `strides()`, `order()` and `layout()` come from `ShapedArray`.
template <typename T>
class HostArrayRef : public pools::detail::ShapedArray {
 public:
  /// The array of `layout` at `data` (no check: `get_host_array` makes checked ones).
  HostArrayRef(T* data, ArrayLayout layout) : ShapedArray(std::move(layout)), data_(data) {}

  /// The first element.
  T* data() const noexcept { return data_; }
  /// Bytes of the elements.
  std::size_t nbytes() const noexcept { return layout_.bytes; }
  /// The elements in memory order.
  T* begin() const noexcept { return data_; }
  /// One past the last element in memory order.
  T* end() const noexcept { return data_ + layout_.elements; }

  /// The element at `index...` (one index per dimension).
  /// @throws std::out_of_range for a wrong number of indices or an index beyond its extent.
  template <typename... Index>
  T& at(Index... index) const {
    const std::size_t offset = offset_of("HostArrayRef::at", index...);
    return *reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(data_) + offset);
  }

 private:
  T* data_;
};

namespace detail {

/// The checked start of `get_host_array`'s view: `hostbuf(memory)`, holding `layout.bytes` bytes
/// aligned to `alignment`. @throws as `get_host_array`.
void* host_array_start(const cl::Memory& memory, const ArrayLayout& layout, std::size_t alignment);

}  // namespace detail

/// The host memory of `memory` as an array of `T` of `shape` in `order` (PyOpenCL's
/// `MemoryObject.get_host_array(shape, dtype, order)`); shape `{}` is one element.
/// @throws std::invalid_argument when `memory` was made without `CL_MEM_USE_HOST_PTR` (it has no
/// host memory of its own), or its host memory is not aligned for `T`; std::out_of_range when
/// the array needs more bytes than the object spans there; std::length_error when their count
/// overflows `size_t`.
template <typename T>
HostArrayRef<T> get_host_array(const cl::Memory& memory, std::vector<std::size_t> shape,
                               Order order = Order::c) {
  static_assert(detail::is_host_element_v<T>, "host arrays hold trivially copyable elements");
  ArrayLayout layout = make_layout(std::move(shape), sizeof(T), order);
  void* start = detail::host_array_start(memory, layout, alignof(T));
  return HostArrayRef<T>(static_cast<T*>(start), std::move(layout));
}

/// Migrates `mem_objects` to the device of `queue`, or to the host with
/// `CL_MIGRATE_MEM_OBJECT_HOST` in `flags`; with `CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED` their
/// contents need not be kept (`clEnqueueMigrateMemObjects`, PyOpenCL's
/// `enqueue_migrate_mem_objects`). No objects: a marker.
/// @throws std::invalid_argument for other bits in `flags` or an empty handle in the list
/// (naming its index); polydev::error when the queue's device is older than OpenCL 1.2 (which
/// introduced migration); polydev::backend_error when OpenCL fails.
cl::Event enqueue_migrate_mem_objects(const cl::CommandQueue& queue,
                                      const std::vector<cl::Memory>& mem_objects,
                                      cl_mem_migration_flags flags = 0,
                                      const std::vector<cl::Event>& wait_for = {});

}  // namespace polydev::opencl::memory
