// An OpenCL layer (loaded by the ICD loader through OPENCL_LAYERS) that counts the process's
// clGetPlatformIDs calls and passes every call to the driver unchanged. When the process exits it
// appends "layer loaded, clGetPlatformIDs called <n> times" to the file POLYDEV_LAYER_LOG names:
// a process that never used OpenCL never loads the layer and writes nothing.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <CL/cl_layer.h>

#include <atomic>
#include <cstdlib>
#include <fstream>

#include "support/opencl_layer.hpp"

namespace {

cl_icd_dispatch next_dispatch;   // the loader's table: what this layer forwards to
cl_icd_dispatch layer_dispatch;  // the same, with clGetPlatformIDs counted
std::atomic<int> platform_id_calls{0};

// Writes the count when the process ends (registered when the loader loads the layer).
void write_count() {
  const char* log = std::getenv("POLYDEV_LAYER_LOG");
  if (log == nullptr) return;
  std::ofstream(log, std::ios::app)
      << "layer loaded, clGetPlatformIDs called " << platform_id_calls.load() << " times\n";
}

cl_int CL_API_CALL counted_platform_ids(cl_uint num_entries, cl_platform_id* platforms,
                                        cl_uint* num_platforms) {
  ++platform_id_calls;
  return next_dispatch.clGetPlatformIDs(num_entries, platforms, num_platforms);
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
  std::atexit(write_count);
  return polydev::test_support::init_opencl_layer(
      num_entries, target, num_entries_ret, layer_dispatch_ret, next_dispatch, layer_dispatch,
      [](cl_icd_dispatch& layer) { layer.clGetPlatformIDs = counted_platform_ids; });
}

}  // extern "C"
