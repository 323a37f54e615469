#include "operations_support.hpp"

#include <limits>
#include <stdexcept>

#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory/detail/svm_operations.hpp"

namespace polydev::opencl::memory::detail {

namespace {

// a + b and a * b for the end of a box: one that overflows size_t reaches past any memory.
std::size_t box_add(std::size_t a, std::size_t b, const char* who, const char* what) {
  if (a > std::numeric_limits<std::size_t>::max() - b) {
    throw std::out_of_range(std::string(who) + ": " + what + " overflows size_t");
  }
  return a + b;
}

std::size_t box_mul(std::size_t a, std::size_t b, const char* who, const char* what) {
  if (a != 0 && b > std::numeric_limits<std::size_t>::max() / a) {
    throw std::out_of_range(std::string(who) + ": " + what + " overflows size_t");
  }
  return a * b;
}

}  // namespace

WaitList::WaitList(const std::vector<cl::Event>& events) {
  raw_.reserve(events.size());
  for (const cl::Event& event : events) raw_.push_back(event());
}

cl::Event enqueue_marker(const cl::CommandQueue& queue, const std::vector<cl::Event>& wait_for,
                         bool blocking, const char* who) {
  const WaitList waits(wait_for);
  cl::Event marker;
  check(clEnqueueMarkerWithWaitList(queue(), waits.size(), waits.data(), &marker()),
        "clEnqueueMarkerWithWaitList", who);
  if (blocking) check(marker.wait(), "clWaitForEvents", who);
  return marker;
}

std::size_t checked_add(std::size_t a, std::size_t b, const char* who, const char* what) {
  if (a > std::numeric_limits<std::size_t>::max() - b) {
    throw error(std::string(who) + ": " + what + " overflows size_t");
  }
  return a + b;
}

std::size_t checked_mul(std::size_t a, std::size_t b, const char* who, const char* what) {
  if (a != 0 && b > std::numeric_limits<std::size_t>::max() / a) {
    throw error(std::string(who) + ": " + what + " overflows size_t");
  }
  return a * b;
}

std::string device_name(const cl::Device& device) {
  std::string name;
  if (device.getInfo(CL_DEVICE_NAME, &name) != CL_SUCCESS) return "(unnamed)";
  while (!name.empty() && name.back() == '\0') name.pop_back();
  return name;
}

void require_queue_opencl_version(const cl::CommandQueue& queue, int major, int minor,
                                  const char* who) {
  cl::Device device;
  check(queue.getInfo(CL_QUEUE_DEVICE, &device), "clGetCommandQueueInfo", "CL_QUEUE_DEVICE");
  std::string version;
  check(device.getInfo(CL_DEVICE_VERSION, &version), "clGetDeviceInfo", "CL_DEVICE_VERSION");
  require_opencl_version(version, device_name(device), major, minor, who);
}

std::vector<cl::Device> context_devices(const cl::Context& context) {
  std::vector<cl::Device> devices;
  check(context.getInfo(CL_CONTEXT_DEVICES, &devices), "clGetContextInfo", "CL_CONTEXT_DEVICES");
  return devices;
}

ResolvedRectSide resolve_rect_side(const RectSide& side, const RectRegion& region,
                                   std::size_t available, const char* who, const char* name) {
  const std::string prefix = std::string(who) + ": " + name + " ";
  ResolvedRectSide resolved{side.origin, side.row_pitch, side.slice_pitch, 0};
  if (resolved.row_pitch == 0) resolved.row_pitch = region[0];
  if (resolved.row_pitch < region[0]) {
    throw std::invalid_argument(prefix + "row_pitch " + std::to_string(side.row_pitch) +
                                " is less than the box's row of " + std::to_string(region[0]) +
                                " bytes (region[0]); use 0 for rows packed one after the other");
  }
  const std::size_t rows_bytes =
      box_mul(resolved.row_pitch, region[1], who, "row_pitch * region[1]");
  if (resolved.slice_pitch == 0) resolved.slice_pitch = rows_bytes;
  if (resolved.slice_pitch < rows_bytes || resolved.slice_pitch % resolved.row_pitch != 0) {
    throw std::invalid_argument(
        prefix + "slice_pitch " + std::to_string(side.slice_pitch) +
        " must be a multiple of the row pitch " + std::to_string(resolved.row_pitch) +
        " and at least row_pitch * region[1] = " + std::to_string(rows_bytes) +
        "; use 0 for slices packed one after the other");
  }
  // Offset of the box's first byte, then of the byte after its last row.
  std::size_t offset = resolved.origin[0];
  offset = box_add(offset, box_mul(resolved.origin[1], resolved.row_pitch, who, "origin"), who,
                   "origin");
  offset = box_add(offset, box_mul(resolved.origin[2], resolved.slice_pitch, who, "origin"), who,
                   "origin");
  std::size_t end =
      box_add(offset, box_mul(region[2] - 1, resolved.slice_pitch, who, "the box"), who, "the box");
  end = box_add(end, box_mul(region[1] - 1, resolved.row_pitch, who, "the box"), who, "the box");
  end = box_add(end, region[0], who, "the box");
  if (end > available) {
    throw std::out_of_range(
        prefix + "box (origin {" + std::to_string(side.origin[0]) + ", " +
        std::to_string(side.origin[1]) + ", " + std::to_string(side.origin[2]) + "}, region {" +
        std::to_string(region[0]) + ", " + std::to_string(region[1]) + ", " +
        std::to_string(region[2]) + "}, row pitch " + std::to_string(resolved.row_pitch) +
        ", slice pitch " + std::to_string(resolved.slice_pitch) + ") ends at byte " +
        std::to_string(end) + ", past its " + std::to_string(available) + " bytes");
  }
  resolved.end = end;
  return resolved;
}

void require_range(std::size_t offset, std::size_t bytes, std::size_t available, const char* who,
                   const char* offset_name, const char* what, const char* target) {
  if (offset <= available && bytes <= available - offset) return;
  throw std::out_of_range(std::string(who) + ": " + offset_name + " " + std::to_string(offset) +
                          " + " + std::to_string(bytes) + " bytes (" + what + ") reach past the " +
                          std::to_string(available) + " bytes of " + target + "; " + offset_name +
                          " + bytes must be at most " + std::to_string(available));
}

bool empty_box(const RectRegion& region) noexcept {
  return region[0] == 0 || region[1] == 0 || region[2] == 0;
}

cl::Event enqueue_read_rect(const cl::CommandQueue& queue, const cl::Buffer& buffer,
                            const ResolvedRectSide& buffer_side, void* host,
                            const ResolvedRectSide& host_side, const RectRegion& region,
                            bool blocking, const std::vector<cl::Event>& wait_for) {
  const WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueReadBufferRect(queue(), buffer(), blocking ? CL_TRUE : CL_FALSE,
                                buffer_side.origin.data(), host_side.origin.data(), region.data(),
                                buffer_side.row_pitch, buffer_side.slice_pitch, host_side.row_pitch,
                                host_side.slice_pitch, host, waits.size(), waits.data(), &done()),
        "clEnqueueReadBufferRect");
  return done;
}

cl::Event enqueue_write_rect(const cl::CommandQueue& queue, const cl::Buffer& buffer,
                             const ResolvedRectSide& buffer_side, const void* host,
                             const ResolvedRectSide& host_side, const RectRegion& region,
                             bool blocking, const std::vector<cl::Event>& wait_for) {
  const WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueWriteBufferRect(
            queue(), buffer(), blocking ? CL_TRUE : CL_FALSE, buffer_side.origin.data(),
            host_side.origin.data(), region.data(), buffer_side.row_pitch, buffer_side.slice_pitch,
            host_side.row_pitch, host_side.slice_pitch, host, waits.size(), waits.data(), &done()),
        "clEnqueueWriteBufferRect");
  return done;
}

cl::Event enqueue_copy_rect(const cl::CommandQueue& queue, const cl::Buffer& source,
                            const ResolvedRectSide& from, const cl::Buffer& destination,
                            const ResolvedRectSide& to, const RectRegion& region,
                            const std::vector<cl::Event>& wait_for) {
  const WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueCopyBufferRect(queue(), source(), destination(), from.origin.data(),
                                to.origin.data(), region.data(), from.row_pitch, from.slice_pitch,
                                to.row_pitch, to.slice_pitch, waits.size(), waits.data(), &done()),
        "clEnqueueCopyBufferRect");
  return done;
}

void require_pointer(const void* data, std::size_t bytes, const char* who, const char* name) {
  if (data == nullptr && bytes != 0) {
    throw std::invalid_argument(std::string(who) + ": " + name + " is a null pointer with " +
                                std::to_string(bytes) + " bytes to copy");
  }
}

std::pair<std::size_t, cl::Buffer> root_of(const cl::Buffer& buffer) {
  cl_mem parent = nullptr;
  check(buffer.getInfo(CL_MEM_ASSOCIATED_MEMOBJECT, &parent), "clGetMemObjectInfo",
        "CL_MEM_ASSOCIATED_MEMOBJECT");
  if (parent == nullptr) return {0, buffer};
  std::size_t offset = 0;
  check(buffer.getInfo(CL_MEM_OFFSET, &offset), "clGetMemObjectInfo", "CL_MEM_OFFSET");
  return {offset, cl::Buffer(parent, /*retainObject=*/true)};
}

void check_fill_pattern(const void* pattern, std::size_t pattern_size, const char* who) {
  if (pattern == nullptr) throw error(std::string(who) + ": the pattern is a null pointer");
  if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) != 0) {
    throw error(std::string(who) + ": a pattern of " + std::to_string(pattern_size) +
                " bytes; OpenCL fills with patterns of 1, 2, 4, 8, 16, 32, 64 or 128 bytes");
  }
}

void check_map_flags(cl_map_flags flags, const char* who) {
  constexpr cl_map_flags access = CL_MAP_READ | CL_MAP_WRITE;
  if ((flags & ~(access | CL_MAP_WRITE_INVALIDATE_REGION)) != 0) {
    throw error(std::string(who) + ": map flags " + std::to_string(flags) +
                " hold bits other than CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION");
  }
  if ((flags & CL_MAP_WRITE_INVALIDATE_REGION) != 0 && (flags & access) != 0) {
    throw error(std::string(who) +
                ": CL_MAP_WRITE_INVALIDATE_REGION goes alone; OpenCL forbids it with CL_MAP_READ "
                "or CL_MAP_WRITE (the region's old contents are discarded)");
  }
}

}  // namespace polydev::opencl::memory::detail
