#include "cuda/driver_entry_points.hpp"

#include <cuda_runtime_api.h>

#include <exception>
#include <string>

#include "polydev/cuda/error.hpp"
#include "polydev/error.hpp"

// cudaGetDriverEntryPointByVersion came with CUDA 12.5; cuCtxGetId with 12.0.
static_assert(CUDART_VERSION >= 12050,
              "polydev's CUDA backend needs a CUDA toolkit of version 12.5 or later");

namespace polydev::cuda::detail {

namespace {

template <typename Function>
void look_up(Function& function, const char* symbol, unsigned version) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSuccess;
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(symbol, &address, version, cudaEnableDefault, &found);
  const std::string what = std::string("the driver's ") + symbol + " (CUDA " +
                           std::to_string(version / 1000) + "." +
                           std::to_string(version % 1000 / 10) + " signature)";
  check(status, "cudaGetDriverEntryPointByVersion",
        what + "; without a usable NVIDIA driver no CUDA context can exist");
  if (address == nullptr || found != cudaDriverEntryPointSuccess) {
    throw backend_error("CUDA", "cudaGetDriverEntryPointByVersion", static_cast<long>(found),
                        found == cudaDriverEntryPointVersionNotSufficent
                            ? "cudaDriverEntryPointVersionNotSufficent"
                            : "cudaDriverEntryPointSymbolNotFound",
                        what + " is not offered by the installed driver; a newer driver has it");
  }
  function = reinterpret_cast<Function>(address);
}

struct Lookup {
  DriverEntryPoints functions;
  std::exception_ptr failure;

  Lookup() {
    try {
      look_up(functions.ctx_get_current, "cuCtxGetCurrent", 4000);
      look_up(functions.ctx_get_id, "cuCtxGetId", 12000);
      look_up(functions.ctx_get_device, "cuCtxGetDevice", 2000);
      look_up(functions.get_error_name, "cuGetErrorName", 6000);
      look_up(functions.get_error_string, "cuGetErrorString", 6000);
    } catch (...) {
      failure = std::current_exception();
    }
  }
};

}  // namespace

const DriverEntryPoints& driver_entry_points() {
  static const Lookup lookup;  // thread-safe initialization; the driver does not come and go
  if (lookup.failure) std::rethrow_exception(lookup.failure);
  return lookup.functions;
}

void check_driver(CUresult status, const char* api, const std::string& detail) {
  if (status == CUDA_SUCCESS) return;
  const DriverEntryPoints& driver = driver_entry_points();
  const char* name = nullptr;
  const char* description = nullptr;
  if (driver.get_error_name(status, &name) != CUDA_SUCCESS || name == nullptr) {
    name = "CUDA_ERROR_UNKNOWN_CODE";
  }
  if (driver.get_error_string(status, &description) != CUDA_SUCCESS || description == nullptr) {
    description = "the driver has no description of this code";
  }
  throw backend_error("CUDA", api, static_cast<long>(status), name,
                      detail.empty() ? description : detail + ": " + description);
}

}  // namespace polydev::cuda::detail
