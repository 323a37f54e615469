#include "operations_support.hpp"

#include <limits>

#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl::detail {

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

std::vector<cl::Device> context_devices(const cl::Context& context) {
  std::vector<cl::Device> devices;
  check(context.getInfo(CL_CONTEXT_DEVICES, &devices), "clGetContextInfo", "CL_CONTEXT_DEVICES");
  return devices;
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

}  // namespace polydev::opencl::detail
