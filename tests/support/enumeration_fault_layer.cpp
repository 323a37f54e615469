// An OpenCL layer (loaded by the ICD loader through OPENCL_LAYERS) that makes the listing calls
// fail: clGetPlatformIDs with the status in POLYDEV_FAULT_PLATFORM_IDS, clGetDeviceIDs with the
// status in POLYDEV_FAULT_DEVICE_IDS (decimal, e.g. -6 for CL_OUT_OF_HOST_MEMORY). Every other
// call, and a listing call whose variable is unset, goes to the driver unchanged. It lets tests
// see how a driver that fails while listing (out of memory, a broken installation, a code no
// header names) is told apart from a machine that has no platform or no device.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <CL/cl_layer.h>

#include <cstdlib>
#include <optional>

#include "opencl_layer.hpp"

namespace {

cl_icd_dispatch next_dispatch;   // the loader's table: what this layer forwards to
cl_icd_dispatch layer_dispatch;  // the same, with the listing calls replaced

std::optional<cl_int> injected(const char* variable) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return std::nullopt;
  return static_cast<cl_int>(std::strtol(text, nullptr, 10));
}

cl_int CL_API_CALL platform_ids(cl_uint num_entries, cl_platform_id* platforms,
                                cl_uint* num_platforms) {
  if (const auto status = injected("POLYDEV_FAULT_PLATFORM_IDS")) return *status;
  return next_dispatch.clGetPlatformIDs(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL device_ids(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                              cl_device_id* devices, cl_uint* num_devices) {
  if (const auto status = injected("POLYDEV_FAULT_DEVICE_IDS")) return *status;
  return next_dispatch.clGetDeviceIDs(platform, type, num_entries, devices, num_devices);
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
                                                  });
}

}  // extern "C"
