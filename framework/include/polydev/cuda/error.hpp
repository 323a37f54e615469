#pragma once

/// @file
/// CUDA runtime status codes as exceptions. Needs the CUDA backend.

#include <cuda_runtime_api.h>

#include <string>

namespace polydev::cuda {

/// Throws for a failed status: `polydev::out_of_memory` for `cudaErrorMemoryAllocation`,
/// `polydev::backend_error` (with the runtime's error name and description) otherwise. Clears the
/// runtime's last-error state first, so that one failure is not reported again by a later call.
void check(cudaError_t status, const char* api, const std::string& detail = {});

/// "cudaErrorNoDevice (100): no CUDA-capable device is detected".
std::string describe(cudaError_t status);

}  // namespace polydev::cuda
