#pragma once

/// @file
/// PyOpenCL's `enqueue_copy(queue, dest, src, ...)`: one family of overloads for every direction
/// it documents, picked by the kinds of `dest` and `src` as PyOpenCL picks by their Python types:
///
/// | dest | src | extra arguments |
/// |---|---|---|
/// | host | buffer | `src_offset` (linear) or buffer side, host side, region (rectangular) |
/// | buffer | host | `dst_offset` (linear) or buffer side, host side, region (rectangular) |
/// | buffer | buffer | `byte_count`, `src_offset`, `dst_offset`, or src side, dst side, region |
/// | host | image | `origin`, `region`, `pitches` (host side) |
/// | image | host | `origin`, `region`, `pitches` (host side) |
/// | buffer | image | `offset` (in the buffer), `origin`, `region` |
/// | image | buffer | `offset` (in the buffer), `origin`, `region` |
/// | image | image | `src_origin`, `dest_origin`, `region` |
/// | SVM | SVM | none: all of `src` |
/// | SVM | host | none: all of `src` |
/// | host | SVM | none: all of `src` |
///
/// A buffer is a `BufferSpan`: a `cl::Buffer` or a sub-buffer (all of its `CL_MEM_SIZE`) or a
/// `PooledBuffer` (the bytes it requested, not its size class). SVM is an `SVMSpan`: a
/// `PooledSVM` (its requested bytes), an `SVMArray`, or any pointer and size. Host memory is a
/// `HostSpan` (written) or `ConstHostSpan` (read). Images are `cl::Image` (`as_image` gives one
/// from polydev's `AnyImage`). A host-to-host copy has no overload, as PyOpenCL refuses it.
///
/// Every range is checked against what the caller owns before OpenCL sees it:
/// std::out_of_range when a range reaches past it (naming the argument, its value and the
/// limit), std::invalid_argument for an argument no copy accepts (a null host pointer, pitches
/// below the box, origins or regions in dimensions an image lacks, image formats that differ,
/// ranges that overlap). Failures of OpenCL itself throw polydev::backend_error (or
/// polydev::out_of_memory). A copy of nothing enqueues a marker, so the returned event still
/// completes after `wait_for`.
///
/// Copies that touch host memory block by default (PyOpenCL's `is_blocking=True`); with
/// `is_blocking` false the host memory must stay alive and untouched until the returned event
/// completes. Copies between device objects never block.

#include <CL/opencl.hpp>
#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "polydev/opencl/memory/buffer_operations.hpp"
#include "polydev/opencl/memory/svm_operations.hpp"

namespace polydev::opencl::memory {

namespace detail {

/// Element types whose bytes a host span may expose: trivially copyable, and not `bool`
/// (`std::vector<bool>` has no contiguous elements).
template <typename T>
inline constexpr bool is_host_element_v =
    std::is_trivially_copyable_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool>;

}  // namespace detail

/// Host memory that a copy writes: `size()` bytes at `data()`, not owned. Made from a pointer and
/// a byte count, or implicitly from all elements of a `std::vector` or `std::array`. As with
/// PyOpenCL's host buffers, the span's size is the size of the transfer.
class HostSpan {
 public:
  /// `bytes` bytes at `data`.
  HostSpan(void* data, std::size_t bytes) noexcept : data_(data), size_(bytes) {}

  /// All elements of `elements`.
  template <typename T, typename Allocator,
            typename = std::enable_if_t<detail::is_host_element_v<T>>>
  HostSpan(std::vector<T, Allocator>& elements) noexcept  // NOLINT(google-explicit-constructor)
      : data_(elements.data()), size_(elements.size() * sizeof(T)) {}

  /// All elements of `elements`.
  template <typename T, std::size_t N, typename = std::enable_if_t<detail::is_host_element_v<T>>>
  HostSpan(std::array<T, N>& elements) noexcept  // NOLINT(google-explicit-constructor)
      : data_(elements.data()), size_(N * sizeof(T)) {}

  /// The first byte.
  void* data() const noexcept { return data_; }
  /// The number of bytes.
  std::size_t size() const noexcept { return size_; }

 private:
  void* data_;
  std::size_t size_;
};

/// Host memory that a copy reads: `size()` bytes at `data()`, not owned. Made as `HostSpan` is,
/// from const memory too, or from a `HostSpan`.
class ConstHostSpan {
 public:
  /// `bytes` bytes at `data`.
  ConstHostSpan(const void* data, std::size_t bytes) noexcept : data_(data), size_(bytes) {}

  /// The bytes of `span`.
  ConstHostSpan(const HostSpan& span) noexcept  // NOLINT(google-explicit-constructor)
      : data_(span.data()), size_(span.size()) {}

  /// All elements of `elements`. A temporary vector lives only until the call returns: copy from
  /// one only with a blocking copy.
  template <typename T, typename Allocator,
            typename = std::enable_if_t<detail::is_host_element_v<T>>>
  ConstHostSpan(const std::vector<T, Allocator>& elements) noexcept  // NOLINT
      : data_(elements.data()), size_(elements.size() * sizeof(T)) {}

  /// All elements of `elements`.
  template <typename T, std::size_t N, typename = std::enable_if_t<detail::is_host_element_v<T>>>
  ConstHostSpan(const std::array<T, N>& elements) noexcept  // NOLINT(google-explicit-constructor)
      : data_(elements.data()), size_(N * sizeof(T)) {}

  /// The first byte.
  const void* data() const noexcept { return data_; }
  /// The number of bytes.
  std::size_t size() const noexcept { return size_; }

 private:
  const void* data_;
  std::size_t size_;
};

/// A pixel position or a box's extent in an image: x, y, z. The dimensions an image lacks take
/// origin 0 and region 1; for an array of 1D images y is the index in the array, for an array of
/// 2D images z is.
using ImageBox = std::array<std::size_t, 3>;

/// Host-side pitches of an image transfer, in bytes: between rows, then between slices (or
/// between the images of an array). 0 means packed. A 1D or 2D image takes slice pitch 0; another
/// slice pitch is a multiple of the row pitch.
using ImagePitches = std::array<std::size_t, 2>;

// -- buffer and host ------------------------------------------------------------------------------

/// Reads `dest.size()` bytes of `src` from `src_offset` into host memory
/// (`clEnqueueReadBuffer`).
/// @throws std::out_of_range when `src_offset + dest.size()` exceeds the bytes of `src`;
/// std::invalid_argument for a null `dest` with bytes to copy.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const HostSpan& dest, const BufferSpan& src,
                       std::size_t src_offset = 0, bool is_blocking = true,
                       const std::vector<cl::Event>& wait_for = {});

/// Writes all bytes of host memory `src` into `dest` from `dst_offset` (`clEnqueueWriteBuffer`).
/// @throws std::out_of_range when `dst_offset + src.size()` exceeds the bytes of `dest` (for a
/// `PooledBuffer` its request: 1024 bytes into a 1000-byte request are refused although its
/// buffer holds 1024); std::invalid_argument for a null `src` with bytes to copy.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest,
                       const ConstHostSpan& src, std::size_t dst_offset = 0,
                       bool is_blocking = true, const std::vector<cl::Event>& wait_for = {});

/// Reads the box `region` at `buffer_side` of `src` into host memory at `host_side`
/// (`clEnqueueReadBufferRect`; PyOpenCL's `buffer_origin`, `host_origin`, `region`,
/// `buffer_pitches`, `host_pitches`). All in bytes; pitches 0 mean packed.
/// @throws std::invalid_argument for a pitch below the box's row (or slice), a slice pitch that
/// is not a multiple of the row pitch, or a null `dest`; std::out_of_range for a box that ends
/// past its side's bytes.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const HostSpan& dest, const BufferSpan& src,
                       const RectSide& buffer_side, const RectSide& host_side,
                       const RectRegion& region, bool is_blocking = true,
                       const std::vector<cl::Event>& wait_for = {});

/// Writes the box `region` at `host_side` of host memory `src` into `dest` at `buffer_side`
/// (`clEnqueueWriteBufferRect`). Errors as the rectangular read.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest,
                       const ConstHostSpan& src, const RectSide& buffer_side,
                       const RectSide& host_side, const RectRegion& region, bool is_blocking = true,
                       const std::vector<cl::Event>& wait_for = {});

// -- buffer and buffer ----------------------------------------------------------------------------

/// Copies `byte_count` bytes from `src_offset` of `src` to `dst_offset` of `dest`
/// (`clEnqueueCopyBuffer`). `byte_count == to_end`: as many as both hold from their offsets
/// (PyOpenCL's default, the smaller size, with the offsets taken off).
/// @throws std::out_of_range for an offset past its buffer or a range that reaches past it;
/// std::invalid_argument for ranges that overlap in one memory object (the same buffer, or
/// sub-buffers of one).
cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest, const BufferSpan& src,
                       std::size_t byte_count = to_end, std::size_t src_offset = 0,
                       std::size_t dst_offset = 0, const std::vector<cl::Event>& wait_for = {});

/// Copies the box `region` at `src_side` of `src` to `dst_side` of `dest`
/// (`clEnqueueCopyBufferRect`; PyOpenCL's `src_origin`, `dst_origin`, `region`, `src_pitches`,
/// `dst_pitches`). Errors as the rectangular read; boxes that overlap in one buffer are OpenCL's
/// `CL_MEM_COPY_OVERLAP` (polydev::backend_error).
cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest, const BufferSpan& src,
                       const RectSide& src_side, const RectSide& dst_side, const RectRegion& region,
                       const std::vector<cl::Event>& wait_for = {});

// -- images ---------------------------------------------------------------------------------------

/// Reads the box `region` at `origin` of image `src` (pixels) into host memory laid out with
/// `pitches` (`clEnqueueReadImage`).
/// @throws std::out_of_range when the box reaches past the image's extent
/// (`CL_IMAGE_WIDTH`/`HEIGHT`/`DEPTH`/`ARRAY_SIZE`) or the host box past `dest.size()`;
/// std::invalid_argument for an origin other than 0 or a region other than 1 in a dimension the
/// image lacks, a row pitch below `region[0]` pixels, a slice pitch on a 1D or 2D image, below
/// the rows it spans or not a multiple of the row pitch, or a null `dest`.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const HostSpan& dest, const cl::Image& src,
                       const ImageBox& origin, const ImageBox& region,
                       const ImagePitches& pitches = {0, 0}, bool is_blocking = true,
                       const std::vector<cl::Event>& wait_for = {});

/// Writes host memory laid out with `pitches` into the box `region` at `origin` of image `dest`
/// (`clEnqueueWriteImage`). Errors as the image read.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const cl::Image& dest,
                       const ConstHostSpan& src, const ImageBox& origin, const ImageBox& region,
                       const ImagePitches& pitches = {0, 0}, bool is_blocking = true,
                       const std::vector<cl::Event>& wait_for = {});

/// Copies the box `region` at `origin` of image `src` into `dest` from byte `offset`, pixels
/// packed (`clEnqueueCopyImageToBuffer`).
/// @throws std::out_of_range when the box reaches past the image, or its bytes from `offset`
/// past the bytes of `dest`; std::invalid_argument as for the image read.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest, const cl::Image& src,
                       std::size_t offset, const ImageBox& origin, const ImageBox& region,
                       const std::vector<cl::Event>& wait_for = {});

/// Copies packed pixels from byte `offset` of `src` into the box `region` at `origin` of image
/// `dest` (`clEnqueueCopyBufferToImage`). Errors as the image-to-buffer copy.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const cl::Image& dest, const BufferSpan& src,
                       std::size_t offset, const ImageBox& origin, const ImageBox& region,
                       const std::vector<cl::Event>& wait_for = {});

/// Copies the box `region` at `src_origin` of `src` to `dest_origin` of `dest`
/// (`clEnqueueCopyImage`; the images may differ in dimensions, not in format).
/// @throws std::out_of_range when a box reaches past its image; std::invalid_argument for images
/// of different formats, or as for the image read. Boxes that overlap in one image are OpenCL's
/// `CL_MEM_COPY_OVERLAP` (polydev::backend_error).
cl::Event enqueue_copy(const cl::CommandQueue& queue, const cl::Image& dest, const cl::Image& src,
                       const ImageBox& src_origin, const ImageBox& dest_origin,
                       const ImageBox& region, const std::vector<cl::Event>& wait_for = {});

// -- SVM ------------------------------------------------------------------------------------------

/// Copies all of `src` to the start of `dest` (`clEnqueueSVMMemcpy`); `SVMSpan::subspan` copies
/// less or elsewhere.
/// @throws std::out_of_range when `dest` holds fewer bytes than `src`; std::invalid_argument for
/// a null pointer with bytes to copy or ranges that overlap; polydev::error for a `PooledSVM`
/// bound to another queue than `queue` (bind it first, as `enqueue_svm_memcpy` requires).
cl::Event enqueue_copy(const cl::CommandQueue& queue, const SVMSpan& dest, const SVMSpan& src,
                       bool is_blocking = true, const std::vector<cl::Event>& wait_for = {});

/// Copies all of host memory `src` to the start of SVM `dest`. Errors as the SVM copy.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const SVMSpan& dest, const ConstHostSpan& src,
                       bool is_blocking = true, const std::vector<cl::Event>& wait_for = {});

/// Copies all of SVM `src` to the start of host memory `dest`. Errors as the SVM copy.
cl::Event enqueue_copy(const cl::CommandQueue& queue, const HostSpan& dest, const SVMSpan& src,
                       bool is_blocking = true, const std::vector<cl::Event>& wait_for = {});

}  // namespace polydev::opencl::memory
