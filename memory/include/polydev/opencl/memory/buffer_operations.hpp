#pragma once

/// @file
/// The buffer operations of PyOpenCL's runtime chapter that the Khronos C++ bindings leave to the
/// driver's terse status codes: rectangular copies, fills, sub-regions and slices, on plain or
/// pooled buffers. Plain copies, reads and writes are `cl::CommandQueue`'s own.
///
/// Every operation checks its arguments against the bytes the caller owns (`BufferSpan`) before
/// calling OpenCL and throws `polydev::error` naming the operation, the value and the limit. For a
/// pooled buffer those are the bytes requested: its buffer is rounded up to a size class, and a
/// write past the request would land in bytes that no one owns without any driver noticing.
/// Failures of OpenCL itself throw `polydev::backend_error` (or `polydev::out_of_memory`).
///
/// Operations that move nothing (an empty box, a fill of 0 bytes) enqueue a marker instead, so
/// that the returned event still completes after `wait_for`.

#include <CL/opencl.hpp>
#include <array>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

#include "polydev/opencl/memory/detail/fill_pattern.hpp"

namespace polydev::opencl {
class PooledBuffer;  // polydev/opencl/memory_pool.hpp (polydev::pools)
}  // namespace polydev::opencl

namespace polydev::opencl::memory {

/// "Up to the end of the span", for sizes of fills and maps.
inline constexpr std::size_t to_end = std::numeric_limits<std::size_t>::max();

/// A buffer and the bytes of it that an operation may touch: all of a `cl::Buffer`
/// (`CL_MEM_SIZE`), the requested bytes of a `PooledBuffer`, or an explicit prefix. Holds a
/// retained `cl::Buffer`; cheap to copy.
class BufferSpan {
 public:
  /// All of `buffer`. @throws polydev::error for an empty `cl::Buffer`,
  /// polydev::backend_error when `CL_MEM_SIZE` cannot be read.
  BufferSpan(const cl::Buffer& buffer);  // NOLINT(google-explicit-constructor)

  /// The `size()` requested bytes of `pooled`. @throws polydev::error for a released handle.
  BufferSpan(const PooledBuffer& pooled);  // NOLINT(google-explicit-constructor)

  /// The first `bytes` bytes of `buffer`.
  /// @throws polydev::error when `buffer` is empty or has fewer than `bytes` bytes.
  BufferSpan(cl::Buffer buffer, std::size_t bytes);

  const cl::Buffer& buffer() const noexcept { return buffer_; }
  std::size_t size() const noexcept { return size_; }

 private:
  cl::Buffer buffer_;
  std::size_t size_ = 0;
};

/// One side of a rectangular transfer (`clEnqueueReadBufferRect` and its relatives): where the
/// box starts and how rows and slices are laid out, all in bytes.
struct RectSide {
  /// Bytes along a row, then rows, then slices.
  std::array<std::size_t, 3> origin{};
  /// Bytes from the start of one row to the next; 0: the box's width, `region[0]`.
  std::size_t row_pitch = 0;
  /// Bytes from the start of one slice to the next; 0: `row_pitch * region[1]`. Otherwise at least
  /// that, and a multiple of `row_pitch`.
  std::size_t slice_pitch = 0;
};

/// The box of a rectangular transfer: bytes per row, rows, slices (OpenCL's `region`).
using RectRegion = std::array<std::size_t, 3>;

/// Reads the box `region` at `source_side` of `source` into `destination` (`destination_bytes`
/// bytes of host memory) at `destination_side`: `clEnqueueReadBufferRect`.
/// @throws polydev::error when a pitch is too small or a box reaches past its side's bytes;
/// polydev::backend_error when OpenCL fails.
cl::Event enqueue_read_buffer_rect(const cl::CommandQueue& queue, void* destination,
                                   std::size_t destination_bytes, const RectSide& destination_side,
                                   const BufferSpan& source, const RectSide& source_side,
                                   const RectRegion& region, bool blocking = true,
                                   const std::vector<cl::Event>& wait_for = {});

/// Writes the box `region` at `source_side` of host memory `source` (`source_bytes` bytes) into
/// `destination` at `destination_side`: `clEnqueueWriteBufferRect`. Errors as
/// `enqueue_read_buffer_rect`.
cl::Event enqueue_write_buffer_rect(const cl::CommandQueue& queue, const BufferSpan& destination,
                                    const RectSide& destination_side, const void* source,
                                    std::size_t source_bytes, const RectSide& source_side,
                                    const RectRegion& region, bool blocking = true,
                                    const std::vector<cl::Event>& wait_for = {});

/// Copies the box `region` between two buffers: `clEnqueueCopyBufferRect`. Errors as
/// `enqueue_read_buffer_rect`; OpenCL's `CL_MEM_COPY_OVERLAP` (boxes that overlap in one buffer)
/// comes through as a `polydev::backend_error`.
cl::Event enqueue_copy_buffer_rect(const cl::CommandQueue& queue, const BufferSpan& destination,
                                   const RectSide& destination_side, const BufferSpan& source,
                                   const RectSide& source_side, const RectRegion& region,
                                   const std::vector<cl::Event>& wait_for = {});

/// Fills `bytes` bytes of `destination` from `offset` with copies of the `pattern_size` bytes at
/// `pattern` (PyOpenCL's `enqueue_fill_buffer`); `bytes == to_end` fills to the end of the span.
/// @throws polydev::error when `pattern_size` is not a power of two up to 128 (what OpenCL
/// accepts), when `offset` or `bytes` is not a multiple of it, or when the range leaves the span.
cl::Event enqueue_fill_buffer(const cl::CommandQueue& queue, const BufferSpan& destination,
                              const void* pattern, std::size_t pattern_size, std::size_t offset = 0,
                              std::size_t bytes = to_end,
                              const std::vector<cl::Event>& wait_for = {});

/// `enqueue_fill_buffer` with the bytes of `pattern` (a scalar or an OpenCL vector such as
/// `cl_float4`; not a pointer or an array, which take the overload above).
template <typename T, typename = std::enable_if_t<detail::is_fill_pattern_v<T>>>
cl::Event enqueue_fill_buffer(const cl::CommandQueue& queue, const BufferSpan& destination,
                              const T& pattern, std::size_t offset = 0, std::size_t bytes = to_end,
                              const std::vector<cl::Event>& wait_for = {}) {
  return enqueue_fill_buffer(queue, destination, &pattern, sizeof(T), offset, bytes, wait_for);
}

/// A sub-buffer of `bytes` bytes at `origin` of `parent` (PyOpenCL's `get_sub_region`); `flags`
/// 0 inherits the parent's access flags. A span of a sub-buffer yields a sub-buffer of its parent
/// (OpenCL forbids sub-buffers of sub-buffers), so regions of regions work.
///
/// The sub-buffer keeps the memory object alive but not a pooled buffer's place in its pool: once
/// the `PooledBuffer` is released, the pool may hand the memory to someone else.
/// @throws polydev::error for 0 bytes, a region past the span, or an origin (counted from the
/// parent memory object) that is not a multiple of `CL_DEVICE_MEM_BASE_ADDR_ALIGN` of every device
/// of the context (the sub-buffer could not be used on that device); polydev::backend_error when
/// OpenCL fails (e.g. access flags the parent forbids).
cl::Buffer sub_region(const BufferSpan& parent, std::size_t origin, std::size_t bytes,
                      cl_mem_flags flags = 0);

/// The bytes `[begin, end)` of `parent` as a sub-buffer (PyOpenCL's `buffer[begin:end]`).
/// @throws polydev::error when `begin > end`, and as `sub_region`.
cl::Buffer slice(const BufferSpan& parent, std::size_t begin, std::size_t end,
                 cl_mem_flags flags = 0);

}  // namespace polydev::opencl::memory
