// The OpenCL system: what the ICD loader reports, copied into plain values next to the handles it
// came from (System), and the contexts and queues made on its devices.
#include "polydev/opencl/system.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "io/printable.hpp"
#include "opencl/device_type_name.hpp"
#include "polydev/caches.hpp"
#include "polydev/detail/opencl_platform_version.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/selection.hpp"
#include "polydev/selection.hpp"

namespace polydev::opencl {

namespace {

// cl_khr_pci_bus_info and cl_nv_device_attribute_query, spelled out because older headers lack
// them.
constexpr cl_device_info kPciBusInfoKhr = 0x410F;
constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000;
constexpr cl_device_info kComputeCapabilityMinorNv = 0x4001;
constexpr cl_device_info kPciBusIdNv = 0x4008;
constexpr cl_device_info kPciSlotIdNv = 0x4009;
constexpr cl_device_info kPciDomainIdNv = 0x400A;

std::string trimmed(std::string text) {
  const auto is_space = [](unsigned char c) { return c == '\0' || std::isspace(c); };
  while (!text.empty() && is_space(static_cast<unsigned char>(text.back()))) text.pop_back();
  const auto first = std::find_if_not(
      text.begin(), text.end(), [&](char c) { return is_space(static_cast<unsigned char>(c)); });
  return std::string(first, text.end());
}

template <typename Object>
std::string string_info(const Object& object, cl_uint name) {
  std::string value;
  if (object.getInfo(name, &value) != CL_SUCCESS) return {};
  return trimmed(value);
}

template <typename T>
T device_value(const cl::Device& device, cl_device_info name, T fallback = T{}) {
  T value{};
  if (clGetDeviceInfo(device(), name, sizeof value, &value, nullptr) != CL_SUCCESS) return fallback;
  return value;
}

bool has_extension(const std::string& extensions, const std::string& name) {
  std::size_t start = 0;
  while (start < extensions.size()) {
    const std::size_t end = std::min(extensions.find(' ', start), extensions.size());
    if (extensions.compare(start, end - start, name) == 0) return true;
    start = end + 1;
  }
  return false;
}

// "OpenCL 3.0 ..." -> 300; anything unparsable -> 0.
int version_number(const std::string& version) {
  int major = 0;
  int minor = 0;
  if (std::sscanf(version.c_str(), "OpenCL %d.%d", &major, &minor) != 2) return 0;
  return major * 100 + minor * 10;
}

std::string pci_address(unsigned domain, unsigned bus, unsigned device, unsigned function) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%04x:%02x:%02x.%x", domain, bus, device, function);
  return text.data();
}

std::optional<std::string> pci_bus_id(const cl::Device& device, const std::string& extensions) {
  if (has_extension(extensions, "cl_khr_pci_bus_info")) {
    struct {
      cl_uint domain, bus, device, function;
    } info{};
    if (clGetDeviceInfo(device(), kPciBusInfoKhr, sizeof info, &info, nullptr) == CL_SUCCESS) {
      return pci_address(info.domain, info.bus, info.device, info.function);
    }
  }
  if (has_extension(extensions, "cl_nv_device_attribute_query")) {
    const auto bus = device_value<cl_uint>(device, kPciBusIdNv, ~0u);
    const auto slot = device_value<cl_uint>(device, kPciSlotIdNv, ~0u);
    if (bus != ~0u && slot != ~0u) {
      const auto domain = device_value<cl_uint>(device, kPciDomainIdNv, 0u);
      return pci_address(domain, bus, slot >> 3, slot & 7u);
    }
  }
  return std::nullopt;
}

DeviceInfo describe_device(const cl::Device& device, std::size_t index) {
  DeviceInfo info;
  info.index = index;
  info.name = string_info(device, CL_DEVICE_NAME);
  info.vendor = string_info(device, CL_DEVICE_VENDOR);
  info.type = device_type_name(device_value<cl_device_type>(device, CL_DEVICE_TYPE));
  info.version = string_info(device, CL_DEVICE_VERSION);
  info.driver_version = string_info(device, CL_DRIVER_VERSION);
  info.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.global_memory_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.local_memory_bytes = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  info.max_work_group_size = device_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  info.extensions = string_info(device, CL_DEVICE_EXTENSIONS);
  info.fp64 = has_extension(info.extensions, "cl_khr_fp64") ||
              device_value<cl_device_fp_config>(device, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  // The SVM query is an error before OpenCL 2.0, and 3.0 drivers may legitimately report 0.
  if (version_number(info.version) >= 200) {
    info.svm_capabilities =
        device_value<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES);
  }
  info.pci_bus_id = pci_bus_id(device, info.extensions);
  if (has_extension(info.extensions, "cl_nv_device_attribute_query")) {
    info.nv_compute_capability_major =
        static_cast<int>(device_value<cl_uint>(device, kComputeCapabilityMajorNv));
    info.nv_compute_capability_minor =
        static_cast<int>(device_value<cl_uint>(device, kComputeCapabilityMinorNv));
  }
  return info;
}

// How many devices a platform has, asked without making cl::Device objects (each of which would
// parse the platform's version).
cl_uint raw_device_count(const cl::Platform& platform) {
  cl_uint count = 0;
  if (clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) return 0;
  return count;
}

// A listing call that failed with a status other than the one meaning "none": a driver failure,
// which a person must see as one, not as a machine without devices.
std::string listing_failure(const char* call, cl_int status, const char* what) {
  return std::string(call) + " failed: " + error_name(status) + " (" + std::to_string(status) +
         "): " + what + "; this is a driver failure, not a machine without OpenCL devices (only " +
         (std::string(call) == "clGetPlatformIDs" ? "CL_PLATFORM_NOT_FOUND_KHR"
                                                  : "CL_DEVICE_NOT_FOUND") +
         " means none)";
}

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
  if (auto problem = detail::opencl_platform_version_problem(version)) {
    return "CL_PLATFORM_VERSION " + *problem;
  }
  return std::nullopt;
}

}  // namespace

System System::enumerate_now() {
  System system;
  Inventory& inventory = system.inventory_;
  const cl_int status = cl::Platform::get(&system.platforms_);
  if (status == CL_PLATFORM_NOT_FOUND_KHR || (status == CL_SUCCESS && system.platforms_.empty())) {
    inventory.reason =
        "no OpenCL platform: the ICD loader found none (CL_PLATFORM_NOT_FOUND_KHR); install an "
        "OpenCL driver (Debian: pocl-opencl-icd) or check OCL_ICD_VENDORS and /etc/OpenCL/vendors";
    system.platforms_.clear();
    return system;
  }
  if (status != CL_SUCCESS) {
    inventory.failure = listing_failure("clGetPlatformIDs", status,
                                        "the ICD loader or a driver failed to list the platforms");
    inventory.reason = inventory.failure;
    system.platforms_.clear();
    return system;
  }

  std::size_t device_count = 0;
  for (std::size_t p = 0; p < system.platforms_.size(); ++p) {
    const cl::Platform& platform = system.platforms_[p];
    PlatformInfo info;
    info.index = p;
    info.name = string_info(platform, CL_PLATFORM_NAME);
    info.vendor = string_info(platform, CL_PLATFORM_VENDOR);
    info.version = string_info(platform, CL_PLATFORM_VERSION);
    std::vector<cl::Device> devices;
    std::string version;
    if (const auto problem = read_platform_version(platform(), version)) {
      const cl_uint count = raw_device_count(platform);
      info.devices_error = *problem + "; its " + std::to_string(count) + " device" +
                           (count == 1 ? " is" : "s are") +
                           " left out: the OpenCL C++ bindings cannot use a platform whose "
                           "version they cannot read";
      inventory.platforms.push_back(std::move(info));
      system.devices_.push_back(std::move(devices));
      continue;
    }
    const cl_int device_status = platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    // The C++ bindings turn CL_DEVICE_NOT_FOUND into success with an empty list.
    if (device_status == CL_DEVICE_NOT_FOUND || (device_status == CL_SUCCESS && devices.empty())) {
      devices.clear();
      info.devices_error = "the platform reports no device (CL_DEVICE_NOT_FOUND)";
    } else if (device_status != CL_SUCCESS) {
      devices.clear();
      info.devices_error = listing_failure("clGetDeviceIDs", device_status,
                                           "the driver failed to list the platform's devices");
      if (inventory.failure.empty()) {
        inventory.failure = "platform " + std::to_string(p) + " " + detail::quote(info.name) +
                            ": " + info.devices_error;
      }
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
      info.devices.push_back(describe_device(devices[d], d));
    }
    device_count += devices.size();
    inventory.platforms.push_back(std::move(info));
    system.devices_.push_back(std::move(devices));
  }
  assign_keys(inventory);
  inventory.available = device_count > 0;
  if (!inventory.available) {
    inventory.reason = "no OpenCL device: ";
    for (const PlatformInfo& platform : inventory.platforms) {
      if (platform.index > 0) inventory.reason += "; ";
      inventory.reason += "platform " + std::to_string(platform.index) + " " +
                          detail::quote(platform.name) + ": " + platform.devices_error;
    }
  }
  return system;
}

const System& System::get() {
  static const System system = enumerate_now();
  return system;
}

cl::Platform System::platform(std::size_t index) const { return platforms_.at(index); }

cl::Device System::device(DevicePosition position) const {
  return devices_.at(position.platform).at(position.device);
}

Inventory enumerate() { return System::enumerate_now().inventory(); }

const Inventory& system_inventory() { return System::get().inventory(); }

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
  if (!system.inventory().failure.empty()) {
    throw error("cannot make an OpenCL context: " + system.inventory().failure);
  }
  // PYOPENCL_CTX and PYOPENCL_TEST as the selection reads them: a polydev.yaml profile included.
  const SelectionInputs& inputs = process_selection_inputs();
  const Selection selection =
      choose_devices(inputs.pyopencl_ctx, inputs.pyopencl_test, system.inventory());
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
