#include "polydev/opencl/buffer_allocators.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl {

namespace {

std::string hex(cl_mem_flags flags) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(flags));
  return text;
}

void reject_host_pointer_flags(cl_mem_flags flags, const char* who) {
  const char* name = (flags & CL_MEM_USE_HOST_PTR) != 0    ? "CL_MEM_USE_HOST_PTR"
                     : (flags & CL_MEM_COPY_HOST_PTR) != 0 ? "CL_MEM_COPY_HOST_PTR"
                                                           : nullptr;
  if (name != nullptr) {
    throw error(std::string(who) + ": mem_flags " + hex(flags) + " contain " + name +
                "; allocators create buffers without host data (CL_MEM_USE_HOST_PTR and "
                "CL_MEM_COPY_HOST_PTR are not allowed): allocate, then write the data");
  }
}

cl::Buffer create_buffer(const cl::Context& context, cl_mem_flags flags, std::size_t bytes) {
  cl_int status = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context(), flags, bytes, nullptr, &status);
  check(status, "clCreateBuffer", std::to_string(bytes) + " bytes, flags " + hex(flags));
  return cl::Buffer(mem);  // takes over the reference clCreateBuffer returned
}

// Waits for `event` and throws what the command it stands for failed with (an out-of-memory code
// for a migration or write that could not get memory).
void wait_for(const cl::Event& event, const char* api) {
  const cl_event handle = event();
  const cl_int waited = clWaitForEvents(1, &handle);
  cl_int execution = CL_COMPLETE;
  const cl_int queried = clGetEventInfo(handle, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof execution,
                                        &execution, nullptr);
  if (queried == CL_SUCCESS && execution < 0) check(execution, api, "command failed on the device");
  check(waited, "clWaitForEvents", std::string("waiting for ") + api);
  check(queried, "clGetEventInfo", "CL_EVENT_COMMAND_EXECUTION_STATUS");
}

// Major and minor of a "OpenCL M.m ..." version string; {0, 0} when it does not parse.
std::pair<int, int> parse_version(const std::string& version) {
  int major = 0;
  int minor = 0;
  if (std::sscanf(version.c_str(), "OpenCL %d.%d", &major, &minor) != 2) return {0, 0};
  return {major, minor};
}

}  // namespace

DeferredAllocator::DeferredAllocator(cl::Context context, cl_mem_flags flags)
    : context_(std::move(context)), flags_(flags) {
  reject_host_pointer_flags(flags, "DeferredAllocator");
}

cl::Buffer DeferredAllocator::allocate(std::size_t bytes) const {
  if (bytes == 0) return cl::Buffer();
  return create_buffer(context_, flags_, bytes);
}

ImmediateAllocator::ImmediateAllocator(cl::CommandQueue queue, cl_mem_flags flags,
                                       Residency residency)
    : queue_(std::move(queue)), flags_(flags), residency_(residency) {
  reject_host_pointer_flags(flags, "ImmediateAllocator");
  cl_context context = nullptr;
  check(clGetCommandQueueInfo(queue_(), CL_QUEUE_CONTEXT, sizeof context, &context, nullptr),
        "clGetCommandQueueInfo", "CL_QUEUE_CONTEXT");
  context_ = cl::Context(context, /*retainObject=*/true);
  if (residency_ == Residency::automatic) {
    cl_device_id device = nullptr;
    check(clGetCommandQueueInfo(queue_(), CL_QUEUE_DEVICE, sizeof device, &device, nullptr),
          "clGetCommandQueueInfo", "CL_QUEUE_DEVICE");
    std::string version;
    check(cl::Device(device, /*retainObject=*/true).getInfo(CL_DEVICE_VERSION, &version),
          "clGetDeviceInfo", "CL_DEVICE_VERSION");
    residency_ =
        parse_version(version) >= std::pair<int, int>(1, 2) ? Residency::migrate : Residency::write;
  }
  if (residency_ == Residency::write &&
      (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) != 0) {
    throw error("ImmediateAllocator: mem_flags " + hex(flags) +
                " forbid host writes (CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS), but "
                "Residency::write makes buffers resident with a host write; use "
                "Residency::migrate (OpenCL 1.2) or other flags");
  }
}

cl::Buffer ImmediateAllocator::allocate(std::size_t bytes) const {
  if (bytes == 0) return cl::Buffer();
  cl::Buffer buffer = create_buffer(context_, flags_, bytes);
  cl::Event event;
  if (residency_ == Residency::migrate) {
    const cl_mem mem = buffer();
    check(clEnqueueMigrateMemObjects(queue_(), 1, &mem, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0,
                                     nullptr, &event()),
          "clEnqueueMigrateMemObjects", std::to_string(bytes) + " bytes");
    wait_for(event, "clEnqueueMigrateMemObjects");
  } else {
    // Static storage: the source outlives the command whatever the driver does with it.
    static const unsigned char zeros[4] = {};
    check(clEnqueueWriteBuffer(queue_(), buffer(), CL_TRUE, 0, std::min(bytes, sizeof zeros), zeros,
                               0, nullptr, &event()),
          "clEnqueueWriteBuffer", std::to_string(bytes) + " bytes");
    wait_for(event, "clEnqueueWriteBuffer");
  }
  return buffer;
}

}  // namespace polydev::opencl
