// An OpenCL layer (loaded by the ICD loader through OPENCL_LAYERS) that makes a driver report
// malformed version strings, and passes every other call to the driver unchanged. Real drivers
// have shipped version strings without "OpenCL <major>.<minor>"; this lets tests give one platform
// or one device of a real machine such a string without touching the code under test.
//
// POLYDEV_BREAK_PLATFORM_VERSION  replaces CL_PLATFORM_VERSION of the platforms whose name
//                                 contains POLYDEV_BREAK_PLATFORM (all of them when that is unset)
// POLYDEV_BREAK_DEVICE_VERSION    replace CL_DEVICE_VERSION, CL_DRIVER_VERSION and
// POLYDEV_BREAK_DRIVER_VERSION    CL_DEVICE_OPENCL_C_VERSION of the devices whose name contains
// POLYDEV_BREAK_OPENCL_C_VERSION  POLYDEV_BREAK_DEVICE (all of them when that is unset)
// POLYDEV_BREAK_REPEAT            repeats each replacement this many times: a string longer than
//                                 the environment can hold
// A variable that is unset leaves its string alone; one set to nothing makes the string empty.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <CL/cl_layer.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "opencl_layer.hpp"

namespace {

cl_icd_dispatch next_dispatch;   // the loader's table: what this layer forwards to
cl_icd_dispatch layer_dispatch;  // the same, with the two info queries replaced

std::optional<std::string> replacement(const char* variable) {
  const char* value = std::getenv(variable);
  if (value == nullptr) return std::nullopt;
  std::string text;
  const char* repeat = std::getenv("POLYDEV_BREAK_REPEAT");
  const long times = repeat != nullptr ? std::strtol(repeat, nullptr, 10) : 1;
  for (long i = 0; i < times; ++i) text += value;
  return text;
}

bool name_matches(const char* pattern_variable, const std::string& name) {
  const char* pattern = std::getenv(pattern_variable);
  return pattern == nullptr || name.find(pattern) != std::string::npos;
}

// A name as the driver reports it (this layer never changes names).
template <typename Query, typename Object>
std::string name_of(Query query, Object object, cl_uint name_query) {
  std::size_t size = 0;
  if (query(object, name_query, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string name(size, '\0');
  if (query(object, name_query, size, name.data(), nullptr) != CL_SUCCESS) return {};
  return name;
}

// What clGet*Info returns for a string: its bytes and a terminating NUL, CL_INVALID_VALUE when the
// caller's buffer is too small.
cl_int answer(const std::string& text, size_t size, void* value, size_t* size_ret) {
  if (size_ret != nullptr) *size_ret = text.size() + 1;
  if (value != nullptr) {
    if (size < text.size() + 1) return CL_INVALID_VALUE;
    std::memcpy(value, text.c_str(), text.size() + 1);
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL get_platform_info(cl_platform_id platform, cl_platform_info name, size_t size,
                                     void* value, size_t* size_ret) {
  if (name == CL_PLATFORM_VERSION) {
    const auto text = replacement("POLYDEV_BREAK_PLATFORM_VERSION");
    if (text && name_matches("POLYDEV_BREAK_PLATFORM", name_of(next_dispatch.clGetPlatformInfo,
                                                               platform, CL_PLATFORM_NAME))) {
      return answer(*text, size, value, size_ret);
    }
  }
  return next_dispatch.clGetPlatformInfo(platform, name, size, value, size_ret);
}

cl_int CL_API_CALL get_device_info(cl_device_id device, cl_device_info name, size_t size,
                                   void* value, size_t* size_ret) {
  const char* variable = name == CL_DEVICE_VERSION            ? "POLYDEV_BREAK_DEVICE_VERSION"
                         : name == CL_DRIVER_VERSION          ? "POLYDEV_BREAK_DRIVER_VERSION"
                         : name == CL_DEVICE_OPENCL_C_VERSION ? "POLYDEV_BREAK_OPENCL_C_VERSION"
                                                              : nullptr;
  if (variable != nullptr) {
    const auto text = replacement(variable);
    if (text && name_matches("POLYDEV_BREAK_DEVICE",
                             name_of(next_dispatch.clGetDeviceInfo, device, CL_DEVICE_NAME))) {
      return answer(*text, size, value, size_ret);
    }
  }
  return next_dispatch.clGetDeviceInfo(device, name, size, value, size_ret);
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
                                                    layer.clGetPlatformInfo = get_platform_info;
                                                    layer.clGetDeviceInfo = get_device_info;
                                                  });
}

}  // extern "C"
