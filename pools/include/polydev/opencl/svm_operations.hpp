#pragma once

/// @file
/// The SVM part of PyOpenCL's runtime chapter on pooled or plain SVM: allocation helpers
/// (`svm_empty`, `csvm_empty`, `fsvm_empty`), memfill, memcpy and migrate (the Khronos C++
/// bindings have no memfill or memcpy at all). Mapping is in `polydev/opencl/mapping.hpp`.
///
/// Every operation checks its range against the bytes the caller owns (`SVMSpan`) and throws
/// `polydev::error` naming the operation, the value and the limit. A `PooledSVM` bound to a queue
/// may only be used on that queue: its reuse is ordered after that queue alone, so a command on
/// another queue could still run when the block is handed to someone else. Such a use is an
/// error that says to call `bind_to_queue` first.

#include <CL/opencl.hpp>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydev/opencl/buffer_operations.hpp"
#include "polydev/opencl/detail/fill_pattern.hpp"
#include "polydev/opencl/svm_allocator.hpp"

namespace polydev::opencl {

class PooledSVM;

/// An SVM pointer and the bytes an operation may touch: the requested bytes of a `PooledSVM` (with
/// its queue binding), or any pointer and size (SVM or, where OpenCL allows it, host memory).
class SVMSpan {
 public:
  /// `bytes` bytes at `data`, bound to no queue.
  SVMSpan(void* data, std::size_t bytes) noexcept : data_(data), size_(bytes) {}

  /// The `size()` requested bytes of `pooled` and the queue it is bound to.
  /// @throws polydev::error for a released handle.
  SVMSpan(const PooledSVM& pooled);  // NOLINT(google-explicit-constructor)

  void* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

  /// The queue the pooled block is bound to (not retained); null for plain memory or an unbound
  /// block.
  cl_command_queue bound_queue() const noexcept { return bound_queue_; }

  /// The `bytes` bytes at `offset` of this span, with the same binding.
  /// @throws polydev::error when they reach past the span.
  SVMSpan subspan(std::size_t offset, std::size_t bytes = to_end) const;

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
  cl_command_queue bound_queue_ = nullptr;
};

/// Fills `bytes` bytes of `destination` from `offset` with copies of the `pattern_size` bytes at
/// `pattern` (`clEnqueueSVMMemFill`); `bytes == to_end` fills to the end of the span.
/// @throws polydev::error for a pattern size other than 1, 2, ..., 128, an offset, size or address
/// not a multiple of it, a range past the span, or a pooled block bound to another queue;
/// polydev::backend_error when OpenCL fails.
cl::Event enqueue_svm_memfill(const cl::CommandQueue& queue, const SVMSpan& destination,
                              const void* pattern, std::size_t pattern_size, std::size_t offset = 0,
                              std::size_t bytes = to_end,
                              const std::vector<cl::Event>& wait_for = {});

/// `enqueue_svm_memfill` with the bytes of `pattern` (not a pointer or an array, which take the
/// overload above).
template <typename T, typename = std::enable_if_t<detail::is_fill_pattern_v<T>>>
cl::Event enqueue_svm_memfill(const cl::CommandQueue& queue, const SVMSpan& destination,
                              const T& pattern, std::size_t offset = 0, std::size_t bytes = to_end,
                              const std::vector<cl::Event>& wait_for = {}) {
  return enqueue_svm_memfill(queue, destination, &pattern, sizeof(T), offset, bytes, wait_for);
}

/// Copies all of `source` to the start of `destination` (`clEnqueueSVMMemcpy`; either side may be
/// host memory).
/// @throws polydev::error when `destination` is smaller than `source`, when the two overlap
/// (OpenCL's `CL_MEM_COPY_OVERLAP`), or for a pooled block bound to another queue;
/// polydev::backend_error when OpenCL fails.
cl::Event enqueue_svm_memcpy(const cl::CommandQueue& queue, const SVMSpan& destination,
                             const SVMSpan& source, bool blocking = true,
                             const std::vector<cl::Event>& wait_for = {});

/// Migrates the spans to the queue's device, or to the host with `CL_MIGRATE_MEM_OBJECT_HOST` in
/// `flags` (`clEnqueueSVMMigrateMem`). Empty spans are left out; with none left, a marker.
/// @throws polydev::error when the queue's device is older than OpenCL 2.1 (which introduced
/// migration), or for a pooled block bound to another queue; polydev::backend_error when OpenCL
/// fails.
cl::Event enqueue_svm_migrate(const cl::CommandQueue& queue, const std::vector<SVMSpan>& spans,
                              cl_mem_migration_flags flags = 0,
                              const std::vector<cl::Event>& wait_for = {});

/// An SVM array of `T` owned by itself, not pooled: PyOpenCL's `svm_empty`. Freed when it goes: on
/// its queue after the queue's work (`clEnqueueSVMFree`), or at once without a queue. Move-only.
/// Coarse-grain memory needs a map (`map_svm`) before the host touches it; fine-grain memory does
/// not.
template <typename T>
class SVMArray {
 public:
  SVMArray() = default;

  /// `count` elements aligned to `alignment` bytes (0: `alignof(T)`, PyOpenCL aligns to the item
  /// size), with `flags` (`CL_MEM_READ_WRITE`, plus `CL_MEM_SVM_FINE_GRAIN_BUFFER` for fine
  /// grain), freed on `queue` if given.
  /// @throws std::length_error when `count * sizeof(T)` overflows; what `SVMAllocator` throws
  /// (polydev::error when the context's devices lack the SVM `flags` ask for,
  /// polydev::out_of_memory).
  SVMArray(cl::Context context, std::size_t count, cl_svm_mem_flags flags,
           std::optional<cl::CommandQueue> queue = {}, cl_uint alignment = 0)
      : allocator_(std::in_place, std::move(context),
                   alignment == 0 ? static_cast<cl_uint>(alignof(T)) : alignment, flags,
                   std::move(queue)),
        count_(count) {
    if (count != 0 && sizeof(T) > std::numeric_limits<std::size_t>::max() / count) {
      throw std::length_error("SVMArray: " + std::to_string(count) + " elements of " +
                              std::to_string(sizeof(T)) + " bytes overflow size_t");
    }
    block_ = allocator_->allocate(count * sizeof(T));
  }

  SVMArray(SVMArray&& other) noexcept
      : allocator_(std::move(other.allocator_)),
        block_(std::exchange(other.block_, SVMBlock{})),
        count_(std::exchange(other.count_, 0)) {}

  SVMArray& operator=(SVMArray&& other) noexcept {
    if (this != &other) {
      reset();
      allocator_ = std::move(other.allocator_);
      block_ = std::exchange(other.block_, SVMBlock{});
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  SVMArray(const SVMArray&) = delete;
  SVMArray& operator=(const SVMArray&) = delete;
  ~SVMArray() { reset(); }

  /// The elements; null for an empty array.
  T* data() const noexcept { return static_cast<T*>(block_.ptr); }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

  /// The queue its free is enqueued on (not retained); null when freed at once.
  cl_command_queue queue() const noexcept { return block_.queue(); }

  /// The whole array, for the operations of this header and `map_svm`.
  operator SVMSpan() const noexcept { return SVMSpan(block_.ptr, bytes()); }  // NOLINT

  /// Frees the memory now (ordered after the queue's work); the array is empty afterwards.
  void reset() noexcept {
    if (allocator_ && block_.ptr != nullptr) allocator_->free(std::move(block_));
    block_ = SVMBlock{};
    count_ = 0;
  }

 private:
  std::optional<SVMAllocator> allocator_;
  SVMBlock block_;
  std::size_t count_ = 0;
};

/// PyOpenCL's `csvm_empty`: `count` elements of coarse-grain SVM (`CL_MEM_READ_WRITE`).
template <typename T>
SVMArray<T> csvm_empty(const cl::Context& context, std::size_t count,
                       std::optional<cl::CommandQueue> queue = {}, cl_uint alignment = 0) {
  return SVMArray<T>(context, count, CL_MEM_READ_WRITE, std::move(queue), alignment);
}

/// PyOpenCL's `fsvm_empty`: `count` elements of fine-grain SVM
/// (`CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER`), which the host may use without a map.
/// @throws polydev::error naming the device when a device of the context has coarse-grain SVM
/// only.
template <typename T>
SVMArray<T> fsvm_empty(const cl::Context& context, std::size_t count,
                       std::optional<cl::CommandQueue> queue = {}, cl_uint alignment = 0) {
  return SVMArray<T>(context, count, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                     std::move(queue), alignment);
}

}  // namespace polydev::opencl
