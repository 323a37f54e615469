#pragma once

// The CUDA driver functions polydev calls, reached through the runtime's
// cudaGetDriverEntryPointByVersion. polydev does not link libcuda (the static runtime loads it at
// run time), so a machine without a driver gets an error code here instead of a loader failure.
// Each function is asked for at the version whose signature its PFN type in <cudaTypedefs.h>
// describes, so a newer driver with a changed signature (cuCtxGetDevice in CUDA 13) still hands
// back the one this code calls.

#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

namespace polydev::cuda::detail {

struct DriverEntryPoints {
  PFN_cuCtxGetCurrent_v4000 ctx_get_current = nullptr;
  PFN_cuCtxGetId_v12000 ctx_get_id = nullptr;
  PFN_cuCtxGetDevice_v2000 ctx_get_device = nullptr;
  PFN_cuGetErrorName_v6000 get_error_name = nullptr;
  PFN_cuGetErrorString_v6000 get_error_string = nullptr;
};

// Looked up on the first call; a failed lookup is thrown again on every call.
// Throws polydev::backend_error when the runtime cannot reach the driver (none installed, or one
// older than the runtime) or the driver lacks one of the functions.
const DriverEntryPoints& driver_entry_points();

// Throws polydev::backend_error ("<api> failed: CUDA_ERROR_X (n): <detail>: <description>") for a
// failed driver status.
void check_driver(CUresult status, const char* api, const std::string& detail);

}  // namespace polydev::cuda::detail
