#pragma once

// What every OpenCL layer of the tests does the same way (the ocl-icd loader's OPENCL_LAYERS
// protocol): report the layer API version, and take the loader's dispatch table, forwarding every
// entry to it except those the layer replaces.

#include <CL/cl_icd.h>
#include <CL/cl_layer.h>

#include <cstring>

namespace polydev::test_support {

/// clGetLayerInfo: the layer API version, and nothing else.
inline cl_int opencl_layer_info(cl_layer_info name, size_t size, void* value, size_t* size_ret) {
  if (name != CL_LAYER_API_VERSION) return CL_INVALID_VALUE;
  const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
  if (size_ret != nullptr) *size_ret = sizeof(version);
  if (value != nullptr) {
    if (size < sizeof(version)) return CL_INVALID_VALUE;
    std::memcpy(value, &version, sizeof(version));
  }
  return CL_SUCCESS;
}

/// clInitLayer: copies the loader's table into `next`, makes `layer` the same table with the
/// entries `replace` sets, and hands `layer` to the loader.
template <typename Replace>
cl_int init_opencl_layer(cl_uint num_entries, const cl_icd_dispatch* target,
                         cl_uint* num_entries_ret, const cl_icd_dispatch** layer_dispatch_ret,
                         cl_icd_dispatch& next, cl_icd_dispatch& layer, Replace replace) {
  constexpr cl_uint entries = sizeof(cl_icd_dispatch) / sizeof(void*);
  if (target == nullptr || num_entries_ret == nullptr || layer_dispatch_ret == nullptr) {
    return CL_INVALID_VALUE;
  }
  // A loader with a shorter table fills only what it has; the rest stays null (never called).
  const cl_uint copied = num_entries < entries ? num_entries : entries;
  std::memcpy(&next, target, copied * sizeof(void*));
  layer = next;
  replace(layer);
  *num_entries_ret = entries;
  *layer_dispatch_ret = &layer;
  return CL_SUCCESS;
}

}  // namespace polydev::test_support
