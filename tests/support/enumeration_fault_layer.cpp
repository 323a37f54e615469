// An OpenCL layer (loaded by the ICD loader through OPENCL_LAYERS) that makes the listing calls
// fail: clGetPlatformIDs with the status in POLYDEV_FAULT_PLATFORM_IDS, clGetDeviceIDs with the
// status in POLYDEV_FAULT_DEVICE_IDS (decimal, e.g. -6 for CL_OUT_OF_HOST_MEMORY). It lets tests
// see how a driver that fails while listing (out of memory, a broken installation, a code no
// header names) is told apart from a machine that has no platform or no device.
//
// POLYDEV_FAULT_PLATFORM_IDS=crash makes clGetPlatformIDs raise SIGSEGV instead: a driver that
// crashes the process while polydev's suites list the devices, before any test is registered.
//
// POLYDEV_FAULT_DEVICE_NAME, when set, is put before every CL_DEVICE_NAME,
// POLYDEV_FAULT_NAME_REPEAT times (1 when unset): a driver whose names hold terminal escapes, bidi
// overrides or megabytes.
//
// Every other call, and a call whose variable is unset, goes to the driver unchanged.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <CL/cl_layer.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "opencl_layer.hpp"

namespace {

cl_icd_dispatch next_dispatch;   // the loader's table: what this layer forwards to
cl_icd_dispatch layer_dispatch;  // the same, with the listing calls replaced

std::optional<cl_int> injected(const char* variable) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return std::nullopt;
  return static_cast<cl_int>(std::strtol(text, nullptr, 10));
}

// Ends the process as a segmentation fault in the driver would, without a core file.
[[noreturn]] void crash() {
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  std::signal(SIGSEGV, SIG_DFL);
  std::raise(SIGSEGV);
  std::abort();
}

cl_int CL_API_CALL platform_ids(cl_uint num_entries, cl_platform_id* platforms,
                                cl_uint* num_platforms) {
  const char* fault = std::getenv("POLYDEV_FAULT_PLATFORM_IDS");
  if (fault != nullptr && std::strcmp(fault, "crash") == 0) crash();
  if (const auto status = injected("POLYDEV_FAULT_PLATFORM_IDS")) return *status;
  return next_dispatch.clGetPlatformIDs(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL device_ids(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                              cl_device_id* devices, cl_uint* num_devices) {
  if (const auto status = injected("POLYDEV_FAULT_DEVICE_IDS")) return *status;
  return next_dispatch.clGetDeviceIDs(platform, type, num_entries, devices, num_devices);
}

cl_int CL_API_CALL device_info(cl_device_id device, cl_device_info name, size_t size, void* value,
                               size_t* size_ret) {
  const char* prefix = std::getenv("POLYDEV_FAULT_DEVICE_NAME");
  if (name != CL_DEVICE_NAME || prefix == nullptr) {
    return next_dispatch.clGetDeviceInfo(device, name, size, value, size_ret);
  }
  std::size_t length = 0;
  cl_int status = next_dispatch.clGetDeviceInfo(device, name, 0, nullptr, &length);
  if (status != CL_SUCCESS) return status;
  std::string original(length, '\0');
  status = next_dispatch.clGetDeviceInfo(device, name, length, original.data(), nullptr);
  if (status != CL_SUCCESS) return status;
  const char* repeat = std::getenv("POLYDEV_FAULT_NAME_REPEAT");
  const long times = repeat != nullptr ? std::strtol(repeat, nullptr, 10) : 1;
  std::string text;
  for (long i = 0; i < times; ++i) text += prefix;
  text += original.c_str();
  if (size_ret != nullptr) *size_ret = text.size() + 1;
  if (value != nullptr) {
    if (size < text.size() + 1) return CL_INVALID_VALUE;
    std::memcpy(value, text.c_str(), text.size() + 1);
  }
  return CL_SUCCESS;
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info name, size_t size, void* value,
                                               size_t* size_ret) {
  return polydev::test_support::opencl_layer_info(name, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch* target,
                                            cl_uint* num_entries_ret,
                                            const cl_icd_dispatch** layer_dispatch_ret) {
  return polydev::test_support::init_opencl_layer(num_entries, target, num_entries_ret,
                                                  layer_dispatch_ret, next_dispatch, layer_dispatch,
                                                  [](cl_icd_dispatch& layer) {
                                                    layer.clGetPlatformIDs = platform_ids;
                                                    layer.clGetDeviceIDs = device_ids;
                                                    layer.clGetDeviceInfo = device_info;
                                                  });
}

}  // extern "C"
