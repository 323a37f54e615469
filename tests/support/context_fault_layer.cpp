// An OpenCL layer (loaded by the ICD loader through OPENCL_LAYERS) that makes context creation fail
// on the devices whose name contains POLYDEV_FAULT_CONTEXT_DEVICE, with CL_OUT_OF_RESOURCES, and
// passes every other call to the driver unchanged. It lets tests break one device of a real
// machine at the point where drivers do fail (a device that is busy, lost or out of resources)
// without touching the code under test.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <CL/cl_layer.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "opencl_layer.hpp"

namespace {

cl_icd_dispatch next_dispatch;   // the loader's table: what this layer forwards to
cl_icd_dispatch layer_dispatch;  // the same, with context creation replaced

bool is_faulty(cl_device_id device) {
  const char* pattern = std::getenv("POLYDEV_FAULT_CONTEXT_DEVICE");
  if (pattern == nullptr || *pattern == '\0') return false;
  char name[256] = {};
  if (next_dispatch.clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr) !=
      CL_SUCCESS) {
    return false;
  }
  return std::strstr(name, pattern) != nullptr;
}

cl_context CL_API_CALL create_context(const cl_context_properties* properties, cl_uint num_devices,
                                      const cl_device_id* devices,
                                      void(CL_CALLBACK* notify)(const char*, const void*, size_t,
                                                                void*),
                                      void* user_data, cl_int* status) {
  for (cl_uint i = 0; devices != nullptr && i < num_devices; ++i) {
    if (is_faulty(devices[i])) {
      if (status != nullptr) *status = CL_OUT_OF_RESOURCES;
      return nullptr;
    }
  }
  return next_dispatch.clCreateContext(properties, num_devices, devices, notify, user_data, status);
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
  return polydev::test_support::init_opencl_layer(
      num_entries, target, num_entries_ret, layer_dispatch_ret, next_dispatch, layer_dispatch,
      [](cl_icd_dispatch& layer) { layer.clCreateContext = create_context; });
}

}  // extern "C"
