#include "polydev/opencl/memory/buffer_operations.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "operations_support.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory_pool.hpp"

namespace polydev::opencl::memory {

namespace {

std::size_t memory_size(const cl::Buffer& buffer, const char* who) {
  if (buffer() == nullptr) throw error(std::string(who) + ": the buffer is empty (no cl_mem)");
  std::size_t size = 0;
  check(buffer.getInfo(CL_MEM_SIZE, &size), "clGetMemObjectInfo", "CL_MEM_SIZE");
  return size;
}

// The shared box checks throw the standard types that `enqueue_copy` documents; the rectangular
// operations of this file document polydev::error, with the same messages.
detail::ResolvedRectSide resolve(const RectSide& side, const RectRegion& region,
                                 std::size_t available, const char* who, const char* name) {
  try {
    return detail::resolve_rect_side(side, region, available, who, name);
  } catch (const std::logic_error& wrong) {
    throw error(wrong.what());
  }
}

void check_host(const void* host, const char* who) {
  if (host == nullptr) throw error(std::string(who) + ": the host pointer is null");
}

}  // namespace

BufferSpan::BufferSpan(const cl::Buffer& buffer)
    : buffer_(buffer), size_(memory_size(buffer, "BufferSpan")) {}

BufferSpan::BufferSpan(const PooledBuffer& pooled) {
  if (!pooled.valid()) {
    throw error("BufferSpan: the PooledBuffer was released (or moved from); it owns no buffer");
  }
  buffer_ = pooled.buffer();
  size_ = pooled.size();
}

BufferSpan::BufferSpan(cl::Buffer buffer, std::size_t bytes)
    : buffer_(std::move(buffer)), size_(bytes) {
  const std::size_t available = memory_size(buffer_, "BufferSpan");
  if (bytes > available) {
    throw error("BufferSpan: " + std::to_string(bytes) + " bytes asked of a buffer of " +
                std::to_string(available));
  }
}

cl::Event enqueue_read_buffer_rect(const cl::CommandQueue& queue, void* destination,
                                   std::size_t destination_bytes, const RectSide& destination_side,
                                   const BufferSpan& source, const RectSide& source_side,
                                   const RectRegion& region, bool blocking,
                                   const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_read_buffer_rect";
  if (detail::empty_box(region)) return detail::enqueue_marker(queue, wait_for, blocking, who);
  check_host(destination, who);
  const detail::ResolvedRectSide host =
      resolve(destination_side, region, destination_bytes, who, "host");
  const detail::ResolvedRectSide buffer =
      resolve(source_side, region, source.size(), who, "buffer");
  return detail::enqueue_read_rect(queue, source.buffer(), buffer, destination, host, region,
                                   blocking, wait_for);
}

cl::Event enqueue_write_buffer_rect(const cl::CommandQueue& queue, const BufferSpan& destination,
                                    const RectSide& destination_side, const void* source,
                                    std::size_t source_bytes, const RectSide& source_side,
                                    const RectRegion& region, bool blocking,
                                    const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_write_buffer_rect";
  if (detail::empty_box(region)) return detail::enqueue_marker(queue, wait_for, blocking, who);
  check_host(source, who);
  const detail::ResolvedRectSide host = resolve(source_side, region, source_bytes, who, "host");
  const detail::ResolvedRectSide buffer =
      resolve(destination_side, region, destination.size(), who, "buffer");
  return detail::enqueue_write_rect(queue, destination.buffer(), buffer, source, host, region,
                                    blocking, wait_for);
}

cl::Event enqueue_copy_buffer_rect(const cl::CommandQueue& queue, const BufferSpan& destination,
                                   const RectSide& destination_side, const BufferSpan& source,
                                   const RectSide& source_side, const RectRegion& region,
                                   const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy_buffer_rect";
  if (detail::empty_box(region)) return detail::enqueue_marker(queue, wait_for, false, who);
  const detail::ResolvedRectSide to =
      resolve(destination_side, region, destination.size(), who, "destination");
  const detail::ResolvedRectSide from = resolve(source_side, region, source.size(), who, "source");
  return detail::enqueue_copy_rect(queue, source.buffer(), from, destination.buffer(), to, region,
                                   wait_for);
}

cl::Event enqueue_fill_buffer(const cl::CommandQueue& queue, const BufferSpan& destination,
                              const void* pattern, std::size_t pattern_size, std::size_t offset,
                              std::size_t bytes, const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_fill_buffer";
  detail::check_fill_pattern(pattern, pattern_size, who);
  if (offset > destination.size()) {
    throw error(std::string(who) + ": offset " + std::to_string(offset) + " is past the " +
                std::to_string(destination.size()) + " bytes of the buffer");
  }
  if (bytes == to_end) bytes = destination.size() - offset;
  if (offset % pattern_size != 0 || bytes % pattern_size != 0) {
    throw error(std::string(who) + ": offset " + std::to_string(offset) + " and size " +
                std::to_string(bytes) + " must be multiples of the pattern's " +
                std::to_string(pattern_size) + " bytes");
  }
  if (bytes > destination.size() - offset) {
    throw error(std::string(who) + ": " + std::to_string(bytes) + " bytes from offset " +
                std::to_string(offset) + " reach past the " + std::to_string(destination.size()) +
                " bytes of the buffer");
  }
  if (bytes == 0) return detail::enqueue_marker(queue, wait_for, false, who);
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueFillBuffer(queue(), destination.buffer()(), pattern, pattern_size, offset, bytes,
                            waits.size(), waits.data(), &done()),
        "clEnqueueFillBuffer");
  return done;
}

cl::Buffer sub_region(const BufferSpan& parent, std::size_t origin, std::size_t bytes,
                      cl_mem_flags flags) {
  constexpr const char* who = "sub_region";
  if (bytes == 0) {
    throw error(std::string(who) + ": a region of 0 bytes; OpenCL sub-buffers hold at least one");
  }
  if (origin > parent.size() || bytes > parent.size() - origin) {
    throw error(std::string(who) + ": " + std::to_string(bytes) + " bytes at origin " +
                std::to_string(origin) + " reach past the " + std::to_string(parent.size()) +
                " bytes of the buffer");
  }
  auto [base, root] = detail::root_of(parent.buffer());
  const std::size_t absolute = base + origin;
  cl::Context context;
  check(root.getInfo(CL_MEM_CONTEXT, &context), "clGetMemObjectInfo", "CL_MEM_CONTEXT");
  for (const cl::Device& device : detail::context_devices(context)) {
    cl_uint align_bits = 0;
    check(device.getInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN, &align_bits), "clGetDeviceInfo",
          "CL_DEVICE_MEM_BASE_ADDR_ALIGN");
    const std::size_t align = align_bits / 8;
    if (align != 0 && absolute % align != 0) {
      throw error(std::string(who) + ": origin " + std::to_string(absolute) +
                  " (from the start of the memory object) is not a multiple of " +
                  std::to_string(align) + " bytes, CL_DEVICE_MEM_BASE_ADDR_ALIGN of device '" +
                  detail::device_name(device) + "'; sub-buffers must start on it");
    }
  }
  const cl_buffer_region region{absolute, bytes};
  cl_int status = CL_SUCCESS;
  cl::Buffer sub = root.createSubBuffer(flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  check(status, "clCreateSubBuffer",
        std::to_string(bytes) + " bytes at " + std::to_string(absolute));
  return sub;
}

cl::Buffer slice(const BufferSpan& parent, std::size_t begin, std::size_t end, cl_mem_flags flags) {
  if (begin > end) {
    throw error("slice: begin " + std::to_string(begin) + " is after end " + std::to_string(end) +
                "; a slice is [begin, end) with begin <= end");
  }
  return sub_region(parent, begin, end - begin, flags);
}

}  // namespace polydev::opencl::memory
