#include "polydev/opencl/system.hpp"

#include <iostream>

#include "polydev/caches.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/selection.hpp"

namespace polydev::opencl {

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
