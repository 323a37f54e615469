#include "polydev/opencl/memory/mapping.hpp"

#include <string>
#include <utility>

#include "operations_support.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory/detail/svm_operations.hpp"
#include "polydev/opencl/memory/image.hpp"

namespace polydev::opencl::memory {

MappedRegion::MappedRegion(MappedRegion&& other) noexcept
    : queue_(std::move(other.queue_)),
      memory_(std::move(other.memory_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      row_pitch_(std::exchange(other.row_pitch_, 0)),
      slice_pitch_(std::exchange(other.slice_pitch_, 0)),
      event_(std::move(other.event_)) {}

MappedRegion& MappedRegion::operator=(MappedRegion&& other) noexcept {
  if (this != &other) {
    MappedRegion old(std::move(*this));  // unmaps what this held, when it goes
    queue_ = std::move(other.queue_);
    memory_ = std::move(other.memory_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    row_pitch_ = std::exchange(other.row_pitch_, 0);
    slice_pitch_ = std::exchange(other.slice_pitch_, 0);
    event_ = std::move(other.event_);
  }
  return *this;
}

MappedRegion::~MappedRegion() {
  if (data_ == nullptr) return;
  // Nothing to report a failure to: the memory then stays mapped, as OpenCL left it.
  const cl_int status =
      memory_() != nullptr
          ? clEnqueueUnmapMemObject(queue_(), memory_(), data_, 0, nullptr, nullptr)
          : clEnqueueSVMUnmap(queue_(), data_, 0, nullptr, nullptr);
  // Without a flush, a queue that nobody waits on might never run the unmap.
  if (status == CL_SUCCESS) clFlush(queue_());
}

cl::Event MappedRegion::unmap(const std::vector<cl::Event>& wait_for) {
  if (data_ == nullptr) throw error("MappedRegion::unmap: nothing is mapped (unmapped or moved)");
  void* const data = std::exchange(data_, nullptr);
  size_ = row_pitch_ = slice_pitch_ = 0;
  const detail::WaitList waits(wait_for);
  cl::Event done;
  if (memory_() != nullptr) {
    check(clEnqueueUnmapMemObject(queue_(), memory_(), data, waits.size(), waits.data(), &done()),
          "clEnqueueUnmapMemObject");
  } else {
    check(clEnqueueSVMUnmap(queue_(), data, waits.size(), waits.data(), &done()),
          "clEnqueueSVMUnmap");
  }
  check(clFlush(queue_()), "clFlush", "after the unmap");
  return done;
}

MappedRegion map_buffer(const cl::CommandQueue& queue, const BufferSpan& buffer, cl_map_flags flags,
                        std::size_t offset, std::size_t bytes, bool blocking,
                        const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "map_buffer";
  detail::check_map_flags(flags, who);
  if (offset > buffer.size()) {
    throw error(std::string(who) + ": offset " + std::to_string(offset) + " is past the " +
                std::to_string(buffer.size()) + " bytes of the buffer");
  }
  if (bytes == to_end) bytes = buffer.size() - offset;
  if (bytes > buffer.size() - offset) {
    throw error(std::string(who) + ": " + std::to_string(bytes) + " bytes from offset " +
                std::to_string(offset) + " reach past the " + std::to_string(buffer.size()) +
                " bytes of the buffer");
  }
  if (bytes == 0) {
    throw error(std::string(who) + ": a map of 0 bytes; OpenCL maps at least one byte");
  }
  const detail::WaitList waits(wait_for);
  MappedRegion region;
  cl_int status = CL_SUCCESS;
  void* data =
      clEnqueueMapBuffer(queue(), buffer.buffer()(), blocking ? CL_TRUE : CL_FALSE, flags, offset,
                         bytes, waits.size(), waits.data(), &region.event_(), &status);
  check(status, "clEnqueueMapBuffer",
        std::to_string(bytes) + " bytes at offset " + std::to_string(offset));
  region.queue_ = queue;
  region.memory_ = buffer.buffer();
  region.data_ = data;
  region.size_ = bytes;
  return region;
}

MappedRegion map_image(const cl::CommandQueue& queue, const cl::Image& image, cl_map_flags flags,
                       const std::array<std::size_t, 3>& origin,
                       const std::optional<std::array<std::size_t, 3>>& region, bool blocking,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "map_image";
  detail::check_map_flags(flags, who);
  const std::array<std::size_t, 3> box = detail::image_box(image, origin, region, who);
  std::size_t pixel = 0;
  check(image.getImageInfo(CL_IMAGE_ELEMENT_SIZE, &pixel), "clGetImageInfo",
        "CL_IMAGE_ELEMENT_SIZE");
  const detail::WaitList waits(wait_for);
  MappedRegion mapped;
  cl_int status = CL_SUCCESS;
  void* data =
      clEnqueueMapImage(queue(), image(), blocking ? CL_TRUE : CL_FALSE, flags, origin.data(),
                        box.data(), &mapped.row_pitch_, &mapped.slice_pitch_, waits.size(),
                        waits.data(), &mapped.event_(), &status);
  check(status, "clEnqueueMapImage");
  mapped.queue_ = queue;
  mapped.memory_ = image;
  mapped.data_ = data;
  mapped.size_ =
      (box[2] - 1) * mapped.slice_pitch_ + (box[1] - 1) * mapped.row_pitch_ + box[0] * pixel;
  return mapped;
}

MappedRegion map_svm(const cl::CommandQueue& queue, const SVMSpan& span, cl_map_flags flags,
                     bool blocking, const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "map_svm";
  detail::check_map_flags(flags, who);
  detail::require_queue_binding(span, queue, who);
  if (span.size() == 0) throw error(std::string(who) + ": a map of 0 bytes; nothing to map");
  if (span.data() == nullptr) throw error(std::string(who) + ": the SVM pointer is null");
  const detail::WaitList waits(wait_for);
  MappedRegion region;
  check(clEnqueueSVMMap(queue(), blocking ? CL_TRUE : CL_FALSE, flags, span.data(), span.size(),
                        waits.size(), waits.data(), &region.event_()),
        "clEnqueueSVMMap", std::to_string(span.size()) + " bytes");
  region.queue_ = queue;
  region.data_ = span.data();
  region.size_ = span.size();
  return region;
}

}  // namespace polydev::opencl::memory
