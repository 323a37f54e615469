#pragma once

/// @file
/// The SVM operations of PyOpenCL's runtime chapter on pooled or plain SVM: memfill, memcpy and
/// migrate (the Khronos C++ bindings have no memfill or memcpy at all). Allocation helpers
/// (`svm_empty` and its kin) are in `polydev/opencl/memory/svm_empty.hpp`, mapping in
/// `polydev/opencl/memory/mapping.hpp`.
///
/// Every operation checks its range against the bytes the caller owns (`SVMSpan`) and throws
/// `polydev::error` naming the operation, the value and the limit. A `PooledSVM` or an
/// `SVMAllocation` bound to a queue may only be used on that queue: its reuse or free is ordered
/// after that queue alone, so a command on another queue could still run when the memory is
/// handed to someone else or freed. Such a use is an error that says to call `bind_to_queue`
/// first.

#include <CL/opencl.hpp>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "polydev/opencl/memory/buffer_operations.hpp"
#include "polydev/opencl/memory/detail/fill_pattern.hpp"
#include "polydev/opencl/svm_allocator.hpp"

namespace polydev::opencl {
class PooledSVM;  // polydev/opencl/svm_pool.hpp (polydev::pools)
}  // namespace polydev::opencl

namespace polydev::opencl::memory {

/// An SVM pointer and the bytes an operation may touch: the requested bytes of a `PooledSVM`, the
/// bytes of an `SVMAllocation` (each with its queue binding), or any pointer and size (SVM or,
/// where OpenCL allows it, host memory).
class SVMSpan {
 public:
  /// `bytes` bytes at `data`, bound to no queue.
  SVMSpan(void* data, std::size_t bytes) noexcept : data_(data), size_(bytes) {}

  /// The `size()` requested bytes of `pooled` and the queue it is bound to.
  /// @throws polydev::error for a released handle.
  SVMSpan(const PooledSVM& pooled);  // NOLINT(google-explicit-constructor)

  /// The `size()` bytes of `allocation` and the queue it is bound to.
  /// @throws polydev::error for a released allocation.
  SVMSpan(const SVMAllocation& allocation);  // NOLINT(google-explicit-constructor)

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

}  // namespace polydev::opencl::memory
