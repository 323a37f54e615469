#pragma once

/// @file
/// Mapping buffers, images and SVM into host memory with an owner object that unmaps when it goes
/// (PyOpenCL's `MemoryMap` and `SVMMap`, whose `release()` the destructor plays here).

#include <CL/opencl.hpp>
#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "polydev/opencl/memory/buffer_operations.hpp"
#include "polydev/opencl/memory/svm_operations.hpp"

namespace polydev::opencl::memory {

/// A mapped region of a buffer, an image or SVM memory. Move-only. It keeps its queue and its
/// memory object alive (not a pooled buffer's place in its pool: release the `PooledBuffer` only
/// after the map is gone, as with any command that uses it) and unmaps when destroyed: it enqueues
/// the unmap on the mapping queue and flushes, never throws and ignores a failure it could not
/// report. Call `unmap()` to see failures or to get the unmap's event.
///
/// A non-blocking map is usable once `event()` completes.
class MappedRegion {
 public:
  MappedRegion() = default;
  MappedRegion(MappedRegion&& other) noexcept;
  MappedRegion& operator=(MappedRegion&& other) noexcept;
  MappedRegion(const MappedRegion&) = delete;
  MappedRegion& operator=(const MappedRegion&) = delete;
  ~MappedRegion();

  /// The host address of the region's first byte; null once unmapped.
  void* data() const noexcept { return data_; }

  /// `data()` as `T*` (the caller vouches for the type and its alignment).
  template <typename T>
  T* as() const noexcept {
    return static_cast<T*>(data_);
  }

  /// Bytes mapped: for an image, from the first byte to the end of the last pixel.
  std::size_t size() const noexcept { return size_; }

  /// Bytes between rows and between slices of a mapped image (0 for buffers and SVM, and for the
  /// slices of a 2-D image).
  std::size_t row_pitch() const noexcept { return row_pitch_; }
  std::size_t slice_pitch() const noexcept { return slice_pitch_; }

  /// True while mapped.
  bool mapped() const noexcept { return data_ != nullptr; }

  /// The map command's event.
  const cl::Event& event() const noexcept { return event_; }

  /// Enqueues the unmap after `wait_for` and returns its event; the region is empty afterwards.
  /// @throws polydev::error when not mapped, polydev::backend_error when OpenCL fails (the region
  /// is then empty and the memory still mapped, as OpenCL left it).
  cl::Event unmap(const std::vector<cl::Event>& wait_for = {});

 private:
  friend MappedRegion map_buffer(const cl::CommandQueue&, const BufferSpan&, cl_map_flags,
                                 std::size_t, std::size_t, bool, const std::vector<cl::Event>&);
  friend MappedRegion map_image(const cl::CommandQueue&, const cl::Image&, cl_map_flags,
                                const std::array<std::size_t, 3>&,
                                const std::optional<std::array<std::size_t, 3>>&, bool,
                                const std::vector<cl::Event>&);
  friend MappedRegion map_svm(const cl::CommandQueue&, const SVMSpan&, cl_map_flags, bool,
                              const std::vector<cl::Event>&);

  cl::CommandQueue queue_;
  cl::Memory memory_;  // null for SVM
  void* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t row_pitch_ = 0;
  std::size_t slice_pitch_ = 0;
  cl::Event event_;
};

/// Maps `bytes` bytes of `buffer` from `offset` (`to_end`: to the end of the span) with `flags`
/// (`CL_MAP_READ`, `CL_MAP_WRITE`, `CL_MAP_WRITE_INVALIDATE_REGION`): `clEnqueueMapBuffer`.
/// @throws polydev::error for 0 bytes, a range past the span, or flags OpenCL forbids (unknown
/// bits, `CL_MAP_WRITE_INVALIDATE_REGION` with another flag); polydev::backend_error when OpenCL
/// fails.
MappedRegion map_buffer(const cl::CommandQueue& queue, const BufferSpan& buffer, cl_map_flags flags,
                        std::size_t offset = 0, std::size_t bytes = to_end, bool blocking = true,
                        const std::vector<cl::Event>& wait_for = {});

/// Maps the box `region` at `origin` of `image` (in pixels, x first; unused dimensions 0 and 1)
/// with `flags`: `clEnqueueMapImage`. No `region`: from `origin` to the image's end.
/// @throws polydev::error for an empty image handle, an empty box or one past the image, or flags
/// as `map_buffer`; polydev::backend_error when OpenCL fails.
MappedRegion map_image(const cl::CommandQueue& queue, const cl::Image& image, cl_map_flags flags,
                       const std::array<std::size_t, 3>& origin = {0, 0, 0},
                       const std::optional<std::array<std::size_t, 3>>& region = {},
                       bool blocking = true, const std::vector<cl::Event>& wait_for = {});

/// Maps the span's bytes of coarse-grain SVM for the host (`clEnqueueSVMMap`; harmless on
/// fine-grain memory).
/// @throws polydev::error for an empty span, a null pointer, a pooled block bound to another queue,
/// or flags as `map_buffer`; polydev::backend_error when OpenCL fails.
MappedRegion map_svm(const cl::CommandQueue& queue, const SVMSpan& span, cl_map_flags flags,
                     bool blocking = true, const std::vector<cl::Event>& wait_for = {});

}  // namespace polydev::opencl::memory
