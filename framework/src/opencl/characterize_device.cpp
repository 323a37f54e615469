// Characterization of a live device: the facts read from the driver and the two kernel probes.
#include "polydev/opencl/characterize_device.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "opencl/device_type_name.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/program_cache.hpp"
#include "polydev/opencl/system.hpp"

namespace polydev::opencl {

namespace {

// cl_nv_device_attribute_query, spelled out because the Khronos headers may lack it.
constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000;
constexpr cl_device_info kComputeCapabilityMinorNv = 0x4001;
constexpr cl_device_info kWarpSizeNv = 0x4003;

constexpr const char* kWorkGroupProbeSource = R"CLC(
__kernel void knl(__global float* a) { a[get_global_id(0)] = 0; }
)CLC";

constexpr const char* kStructArgProbeSource = R"CLC(
struct two_things { long a; long b; };
__kernel void test_knl(struct two_things x) {}
)CLC";

// A value the driver may refuse (an extension's query): nullopt then.
template <typename T>
std::optional<T> optional_info(const cl::Device& device, cl_device_info name) {
  T value{};
  std::size_t size = 0;
  if (clGetDeviceInfo(device(), name, sizeof value, &value, &size) != CL_SUCCESS ||
      size != sizeof value) {
    return std::nullopt;
  }
  return value;
}

template <typename T>
T required_info(const cl::Device& device, cl_device_info name, const char* what) {
  T value{};
  check(clGetDeviceInfo(device(), name, sizeof value, &value, nullptr), "clGetDeviceInfo", what);
  return value;
}

std::string trimmed(std::string text) {
  const auto is_space = [](char c) {
    return c == '\0' || std::isspace(static_cast<unsigned char>(c)) != 0;
  };
  while (!text.empty() && is_space(text.back())) text.pop_back();
  text.erase(text.begin(), std::find_if_not(text.begin(), text.end(), is_space));
  return text;
}

template <typename Object>
std::string string_info(const Object& object, cl_uint name, const char* api, const char* what) {
  std::string value;
  check(object.getInfo(name, &value), api, what);
  return trimmed(value);
}

LocalMemoryType local_memory_type(cl_device_local_mem_type type) {
  if (type == CL_LOCAL) return LocalMemoryType::local;
  if (type == CL_GLOBAL) return LocalMemoryType::global;
  return LocalMemoryType::none;
}

// Identity that the inventory gave the device (index, key, PCI address), when it is one of the
// process's enumerated devices; a sub-device or a device of another enumeration keeps none.
void copy_identity(const cl::Device& device, DeviceDescriptor& descriptor) {
  const System& system = System::get();
  for (const PlatformInfo& platform : system.inventory().platforms) {
    for (const DeviceInfo& known : platform.devices) {
      if (system.device({platform.index, known.index})() != device()) continue;
      descriptor.platform.index = platform.index;
      descriptor.device.index = known.index;
      descriptor.device.key = known.key;
      descriptor.device.pci_bus_id = known.pci_bus_id;
      return;
    }
  }
}

cl::Context probe_context(const cl::Device& device, const cl::Context* context) {
  if (context) return *context;
  cl_int status = CL_SUCCESS;
  cl::Context made(device, nullptr, nullptr, nullptr, &status);
  check(status, "clCreateContext", "context for a characterization probe");
  return made;
}

// The probe's kernel, built for every device of the context as PyOpenCL's characterize builds it.
// The probes are the same few sources each time, so the binary cache serves every build after the
// first on a kind of device; the program is not kept, nor the context with it.
cl::Kernel probe_kernel(const cl::Device& device, const cl::Context* context, const char* source,
                        const char* kernel_name) {
  const cl::Program program = build_program_once(probe_context(device, context), source);
  cl_int status = CL_SUCCESS;
  cl::Kernel kernel(program, kernel_name, &status);
  check(status, "clCreateKernel", std::string("characterization probe '") + kernel_name + "'");
  return kernel;
}

}  // namespace

DeviceFacts query_device_facts(const cl::Device& device) {
  DeviceFacts facts;
  DeviceInfo& info = facts.descriptor.device;
  info.name = string_info(device, CL_DEVICE_NAME, "clGetDeviceInfo", "CL_DEVICE_NAME");
  info.vendor = string_info(device, CL_DEVICE_VENDOR, "clGetDeviceInfo", "CL_DEVICE_VENDOR");
  info.type =
      device_type_name(required_info<cl_device_type>(device, CL_DEVICE_TYPE, "CL_DEVICE_TYPE"));
  info.version = string_info(device, CL_DEVICE_VERSION, "clGetDeviceInfo", "CL_DEVICE_VERSION");
  info.driver_version =
      string_info(device, CL_DRIVER_VERSION, "clGetDeviceInfo", "CL_DRIVER_VERSION");
  info.extensions =
      string_info(device, CL_DEVICE_EXTENSIONS, "clGetDeviceInfo", "CL_DEVICE_EXTENSIONS");
  info.compute_units =
      required_info<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS");
  info.global_memory_bytes =
      required_info<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE");
  info.local_memory_bytes =
      required_info<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
  info.max_work_group_size = required_info<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                                        "CL_DEVICE_MAX_WORK_GROUP_SIZE");
  info.fp64 = has_extension(info.extensions, "cl_khr_fp64") ||
              optional_info<cl_device_fp_config>(device, CL_DEVICE_DOUBLE_FP_CONFIG).value_or(0);
  // The SVM query is an error before OpenCL 2.0.
  const auto device_version = parse_opencl_version(info.version);
  if (device_version && *device_version >= Version{2, 0}) {
    info.svm_capabilities =
        optional_info<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES).value_or(0);
  }

  const cl::Platform platform(
      required_info<cl_platform_id>(device, CL_DEVICE_PLATFORM, "CL_DEVICE_PLATFORM"),
      /*retainObject=*/false);
  PlatformInfo& platform_info = facts.descriptor.platform;
  platform_info.name =
      string_info(platform, CL_PLATFORM_NAME, "clGetPlatformInfo", "CL_PLATFORM_NAME");
  platform_info.vendor =
      string_info(platform, CL_PLATFORM_VENDOR, "clGetPlatformInfo", "CL_PLATFORM_VENDOR");
  platform_info.version =
      string_info(platform, CL_PLATFORM_VERSION, "clGetPlatformInfo", "CL_PLATFORM_VERSION");
  copy_identity(device, facts.descriptor);

  facts.local_memory_type = local_memory_type(required_info<cl_device_local_mem_type>(
      device, CL_DEVICE_LOCAL_MEM_TYPE, "CL_DEVICE_LOCAL_MEM_TYPE"));
  facts.image_support = required_info<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT,
                                               "CL_DEVICE_IMAGE_SUPPORT") != CL_FALSE;
  const auto major = optional_info<cl_uint>(device, kComputeCapabilityMajorNv);
  const auto minor = optional_info<cl_uint>(device, kComputeCapabilityMinorNv);
  if (major && minor) {
    facts.compute_capability_nv = Version{static_cast<int>(*major), static_cast<int>(*minor)};
  }
  if (const auto warp = optional_info<cl_uint>(device, kWarpSizeNv)) facts.warp_size_nv = *warp;
  return facts;
}

std::size_t kernel_preferred_work_group_size_multiple(const cl::Device& device,
                                                      const cl::Context* context) {
  const cl::Kernel kernel = probe_kernel(device, context, kWorkGroupProbeSource, "knl");
  std::size_t multiple = 0;
  check(kernel.getWorkGroupInfo(device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, &multiple),
        "clGetKernelWorkGroupInfo", "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE");
  return multiple;
}

bool struct_arg_count_probe(const cl::Device& device, const cl::Context* context) {
  const cl::Kernel kernel = probe_kernel(device, context, kStructArgProbeSource, "test_knl");
  cl_uint arguments = 0;
  check(kernel.getInfo(CL_KERNEL_NUM_ARGS, &arguments), "clGetKernelInfo", "CL_KERNEL_NUM_ARGS");
  return arguments == 2;
}

DeviceFacts query_device_facts_with_probes(const cl::Device& device, const cl::Context* context) {
  DeviceFacts facts = query_device_facts(device);
  if (!facts.warp_size_nv) {
    facts.kernel_work_group_size_multiple =
        kernel_preferred_work_group_size_multiple(device, context);
  }
  if (needs_struct_arg_count_probe(facts)) {
    facts.struct_arg_count_probe = struct_arg_count_probe(device, context);
  }
  return facts;
}

bool has_double_support(const cl::Device& device) {
  return has_double_support(query_device_facts(device));
}

bool has_amd_double_support(const cl::Device& device) {
  return has_amd_double_support(query_device_facts(device));
}

std::optional<Version> nv_compute_capability(const cl::Device& device) {
  return nv_compute_capability(query_device_facts(device));
}

std::size_t reasonable_work_group_size_multiple(const cl::Device& device,
                                                const cl::Context* context) {
  DeviceFacts facts = query_device_facts(device);
  if (!facts.warp_size_nv) {
    facts.kernel_work_group_size_multiple =
        kernel_preferred_work_group_size_multiple(device, context);
  }
  return reasonable_work_group_size_multiple(facts);
}

std::uint64_t usable_local_mem_size(const cl::Device& device, std::optional<std::uint64_t> nargs) {
  return usable_local_mem_size(query_device_facts(device), nargs);
}

Noted<unsigned> simultaneous_work_items_on_local_access(const cl::Device& device) {
  return simultaneous_work_items_on_local_access(query_device_facts(device));
}

unsigned local_memory_access_granularity(const cl::Device& device) {
  return local_memory_access_granularity(query_device_facts(device));
}

Noted<unsigned> local_memory_bank_count(const cl::Device& device) {
  return local_memory_bank_count(query_device_facts(device));
}

LocalAccessConflicts why_not_local_access_conflict_free(
    const cl::Device& device, std::size_t itemsize, const std::vector<std::size_t>& array_shape,
    const std::vector<std::size_t>& array_stored_shape) {
  return why_not_local_access_conflict_free(query_device_facts(device), itemsize, array_shape,
                                            array_stored_shape);
}

std::vector<std::string> get_fast_inaccurate_build_options(const cl::Device& device) {
  return get_fast_inaccurate_build_options(query_device_facts(device));
}

std::optional<std::size_t> get_simd_group_size(const cl::Device& device) {
  DeviceFacts facts = query_device_facts(device);
  // Only the AMD GPU rule reads the probe; building it for every GPU keeps the vendor test in one
  // place (characterize.cpp) and costs one small build.
  if (!facts.warp_size_nv && facts.descriptor.device.type == "gpu") {
    facts.kernel_work_group_size_multiple = kernel_preferred_work_group_size_multiple(device);
  }
  return get_simd_group_size(facts);
}

Noted<std::optional<Version>> get_pocl_version(const cl::Platform& platform,
                                               std::optional<Version> fallback) {
  PlatformInfo info;
  info.name = string_info(platform, CL_PLATFORM_NAME, "clGetPlatformInfo", "CL_PLATFORM_NAME");
  info.version =
      string_info(platform, CL_PLATFORM_VERSION, "clGetPlatformInfo", "CL_PLATFORM_VERSION");
  return get_pocl_version(info, fallback);
}

StructArgCountBug has_struct_arg_count_bug(const cl::Device& device, const cl::Context* context) {
  DeviceFacts facts = query_device_facts(device);
  if (needs_struct_arg_count_probe(facts)) {
    facts.struct_arg_count_probe = struct_arg_count_probe(device, context);
  }
  return has_struct_arg_count_bug(facts);
}

bool has_coarse_grain_buffer_svm(const cl::Device& device) {
  return has_coarse_grain_buffer_svm(query_device_facts(device));
}

bool has_fine_grain_buffer_svm(const cl::Device& device) {
  return has_fine_grain_buffer_svm(query_device_facts(device));
}

bool has_fine_grain_system_svm(const cl::Device& device) {
  return has_fine_grain_system_svm(query_device_facts(device));
}

bool has_fine_grain_buffer_svm_atomics(const cl::Device& device) {
  return has_fine_grain_buffer_svm_atomics(query_device_facts(device));
}

bool has_fine_grain_system_svm_atomics(const cl::Device& device) {
  return has_fine_grain_system_svm_atomics(query_device_facts(device));
}

std::optional<bool> has_src_build_cache(const cl::Device& device) {
  return has_src_build_cache(query_device_facts(device));
}

std::string device_type_name(cl_device_type type) {
  // The order of PyOpenCL's tests: a device that claims GPU and CPU is treated as a GPU.
  if (type & CL_DEVICE_TYPE_GPU) return "gpu";
  if (type & CL_DEVICE_TYPE_CPU) return "cpu";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  if (type & CL_DEVICE_TYPE_CUSTOM) return "custom";
  return "default";
}

}  // namespace polydev::opencl
