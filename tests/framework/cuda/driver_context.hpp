#pragma once

// A CUDA context of the driver API, made with cuCtxCreate and pushed on the calling thread for as
// long as the object lives: how the tests get a second context on a device beside its primary
// context. The driver is reached as polydev reaches it, through the runtime's entry points (the
// tests do not link libcuda either).

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace polydev_test {

template <typename Function>
Function driver_function(const char* symbol, unsigned version) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSuccess;
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(symbol, &address, version, cudaEnableDefault, &found);
  if (status != cudaSuccess || address == nullptr || found != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    throw std::runtime_error(std::string("no driver entry point for ") + symbol + ": " +
                             cudaGetErrorName(status));
  }
  return reinterpret_cast<Function>(address);
}

class DriverContext {
 public:
  // Makes a context on `device` (a runtime ordinal) and makes it current on this thread, above
  // whatever was current.
  explicit DriverContext(int device) {
    const auto create = driver_function<PFN_cuCtxCreate_v3020>("cuCtxCreate", 3020);
    const CUresult status = create(&context_, 0, static_cast<CUdevice>(device));
    if (status != CUDA_SUCCESS) {
      throw std::runtime_error("cuCtxCreate on device " + std::to_string(device) +
                               " failed with CUresult " + std::to_string(status));
    }
  }

  // Pops the context if it is still current, then destroys it.
  ~DriverContext() {
    CUcontext current = nullptr;
    driver_function<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent", 4000)(&current);
    if (current == context_) {
      CUcontext popped = nullptr;
      driver_function<PFN_cuCtxPopCurrent_v4000>("cuCtxPopCurrent", 4000)(&popped);
    }
    driver_function<PFN_cuCtxDestroy_v4000>("cuCtxDestroy", 4000)(context_);
  }

  DriverContext(const DriverContext&) = delete;
  DriverContext& operator=(const DriverContext&) = delete;

  CUcontext handle() const { return context_; }

  // The context's ID as the driver gives it (cuCtxGetId).
  unsigned long long id() const {
    unsigned long long value = 0;
    driver_function<PFN_cuCtxGetId_v12000>("cuCtxGetId", 12000)(context_, &value);
    return value;
  }

 private:
  CUcontext context_ = nullptr;
};

// The ID of the context current on this thread, straight from the driver (0 when none is).
inline unsigned long long driver_current_context_id() {
  CUcontext current = nullptr;
  driver_function<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent", 4000)(&current);
  if (current == nullptr) return 0;
  unsigned long long value = 0;
  driver_function<PFN_cuCtxGetId_v12000>("cuCtxGetId", 12000)(current, &value);
  return value;
}

}  // namespace polydev_test
