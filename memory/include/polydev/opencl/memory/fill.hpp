#pragma once

/// @file
/// PyOpenCL's `enqueue_fill(queue, dest, pattern, size=None, offset=0, wait_for=None)`: one name
/// for filling a buffer (`enqueue_fill_buffer`) or SVM (`enqueue_svm_memfill`), picked by the kind
/// of `dest` as PyOpenCL picks by its Python type. A buffer is a `BufferSpan` (a `cl::Buffer` or a
/// `PooledBuffer`, whose requested bytes are the limit); SVM is an `SVMSpan` (a `PooledSVM`, an
/// `SVMAllocation`, an `SVMArray` or any pointer and size).
///
/// The arguments come in PyOpenCL's order for `enqueue_fill`, `size` before `offset`, which is the
/// reverse of `enqueue_fill_buffer` and `enqueue_svm_memfill` (whose order is that of their own
/// PyOpenCL namesakes): a call ported line by line keeps its meaning. `size == to_end` (PyOpenCL's
/// `size=None`) fills to the end of `dest`. Unlike PyOpenCL, an offset into SVM is accepted.
///
/// Checks and errors are those of the operation it dispatches to: polydev::error for a pattern
/// size other than 1, 2, 4, ..., 128, an offset or size that is not a multiple of it, or a range
/// past `dest` (and, for SVM, a pooled block bound to another queue); polydev::backend_error when
/// OpenCL fails. A fill of 0 bytes enqueues a marker, so the returned event still completes after
/// `wait_for`.

#include <CL/opencl.hpp>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "polydev/opencl/memory/buffer_operations.hpp"
#include "polydev/opencl/memory/detail/fill_pattern.hpp"
#include "polydev/opencl/memory/svm_operations.hpp"

namespace polydev::opencl::memory {

/// Fills `size` bytes of the buffer `dest` from `offset` with copies of the `pattern_size` bytes
/// at `pattern`: `enqueue_fill_buffer(queue, dest, pattern, pattern_size, offset, size,
/// wait_for)`. Errors as that function.
inline cl::Event enqueue_fill(const cl::CommandQueue& queue, const BufferSpan& dest,
                              const void* pattern, std::size_t pattern_size,
                              std::size_t size = to_end, std::size_t offset = 0,
                              const std::vector<cl::Event>& wait_for = {}) {
  return enqueue_fill_buffer(queue, dest, pattern, pattern_size, offset, size, wait_for);
}

/// Fills `size` bytes of the buffer `dest` from `offset` with the bytes of `pattern` (a scalar or
/// an OpenCL vector such as `cl_float4`; not a pointer or an array, which take the overload
/// above). Errors as `enqueue_fill_buffer`.
template <typename T, typename = std::enable_if_t<detail::is_fill_pattern_v<T>>>
cl::Event enqueue_fill(const cl::CommandQueue& queue, const BufferSpan& dest, const T& pattern,
                       std::size_t size = to_end, std::size_t offset = 0,
                       const std::vector<cl::Event>& wait_for = {}) {
  return enqueue_fill_buffer(queue, dest, &pattern, sizeof(T), offset, size, wait_for);
}

/// Fills `size` bytes of the SVM `dest` from `offset` with copies of the `pattern_size` bytes at
/// `pattern`: `enqueue_svm_memfill(queue, dest, pattern, pattern_size, offset, size, wait_for)`.
/// Errors as that function.
inline cl::Event enqueue_fill(const cl::CommandQueue& queue, const SVMSpan& dest,
                              const void* pattern, std::size_t pattern_size,
                              std::size_t size = to_end, std::size_t offset = 0,
                              const std::vector<cl::Event>& wait_for = {}) {
  return enqueue_svm_memfill(queue, dest, pattern, pattern_size, offset, size, wait_for);
}

/// Fills `size` bytes of the SVM `dest` from `offset` with the bytes of `pattern` (not a pointer
/// or an array, which take the overload above). Errors as `enqueue_svm_memfill`.
template <typename T, typename = std::enable_if_t<detail::is_fill_pattern_v<T>>>
cl::Event enqueue_fill(const cl::CommandQueue& queue, const SVMSpan& dest, const T& pattern,
                       std::size_t size = to_end, std::size_t offset = 0,
                       const std::vector<cl::Event>& wait_for = {}) {
  return enqueue_svm_memfill(queue, dest, &pattern, sizeof(T), offset, size, wait_for);
}

}  // namespace polydev::opencl::memory
