#pragma once

/// @file
/// OpenCL status codes as exceptions.

#include <cstdint>
#include <string>

namespace polydev::opencl {

/// Symbolic name of an OpenCL status code ("CL_OUT_OF_RESOURCES"), or "CL_UNKNOWN_ERROR".
const char* error_name(std::int32_t status) noexcept;

/// Throws for a failed status: `polydev::out_of_memory` for `CL_MEM_OBJECT_ALLOCATION_FAILURE`,
/// `CL_OUT_OF_RESOURCES` and `CL_OUT_OF_HOST_MEMORY`, `polydev::backend_error` for anything else.
/// Does nothing for `CL_SUCCESS`.
void check(std::int32_t status, const char* api, const std::string& detail = {});

}  // namespace polydev::opencl
