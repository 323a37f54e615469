#include "polydev/opencl/system.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "polydev/caches.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/selection.hpp"

namespace polydev::opencl {

namespace {

// CL_PLATFORM_VERSION into `version` up to its first NUL, read byte for byte as the bindings read
// it (they stop at the first NUL, wherever the driver's buffer ends); why the bindings cannot read
// it, if they cannot.
std::optional<std::string> read_platform_version(cl_platform_id platform, std::string& version) {
  std::size_t size = 0;
  cl_int status = clGetPlatformInfo(platform, CL_PLATFORM_VERSION, 0, nullptr, &size);
  std::vector<char> bytes(size);
  if (status == CL_SUCCESS && size > 0) {
    status = clGetPlatformInfo(platform, CL_PLATFORM_VERSION, size, bytes.data(), nullptr);
  }
  if (status != CL_SUCCESS) {
    return std::string("clGetPlatformInfo(CL_PLATFORM_VERSION) failed: ") + error_name(status) +
           " (" + std::to_string(status) + ")";
  }
  const auto end = std::find(bytes.begin(), bytes.end(), '\0');
  if (end == bytes.end()) return "CL_PLATFORM_VERSION is not NUL-terminated";
  version.assign(bytes.begin(), end);
  if (auto problem = platform_version_problem(version)) return "CL_PLATFORM_VERSION " + *problem;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> bindings_version_problem(cl_platform_id platform) {
  std::string version;
  return read_platform_version(platform, version);
}

cl::CommandQueue create_queue(const cl::Context& context, cl_device_id device,
                              cl_command_queue_properties properties) {
  cl_platform_id platform = nullptr;
  check(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr),
        "clGetDeviceInfo", "CL_DEVICE_PLATFORM");
  std::string version;
  if (const auto problem = read_platform_version(platform, version)) {
    throw error("cannot make a command queue: " + *problem);
  }
  // Checked above: "OpenCL " and one to four digits.
  const int major = std::stoi(version.substr(std::string_view("OpenCL ").size()));
  cl_int status = CL_SUCCESS;
  cl_command_queue queue = nullptr;
  if (major >= 2) {
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
    queue = clCreateCommandQueueWithProperties(context(), device, list, &status);
    check(status, "clCreateCommandQueueWithProperties");
  } else {
    queue = clCreateCommandQueue(context(), device, properties, &status);
    check(status, "clCreateCommandQueue");
  }
  return cl::CommandQueue(queue, /*retainObject=*/false);
}

cl::Context create_context(const cl::Device& device) {
  clear_first_arg_caches();
  cl_int status = CL_SUCCESS;
  cl::Context context(device, nullptr, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  return context;
}

cl::Context create_some_context() {
  const System& system = System::get();
  const Selection selection = choose_devices_from_environment(system.inventory());
  for (const std::string& warning : selection.warnings) std::cerr << "polydev: " << warning << '\n';
  std::vector<cl::Device> devices;
  for (const DevicePosition& position : selection.devices)
    devices.push_back(system.device(position));
  clear_first_arg_caches();
  cl_int status = CL_SUCCESS;
  cl::Context context(devices, nullptr, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  return context;
}

}  // namespace polydev::opencl
