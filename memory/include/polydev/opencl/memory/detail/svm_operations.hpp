#pragma once

/// @file
/// Checks of the SVM operations (polydev/opencl/memory/svm_operations.hpp), shared with mapping.

#include <CL/opencl.hpp>
#include <string>

#include "polydev/opencl/memory/svm_operations.hpp"

namespace polydev::opencl::memory::detail {

/// @throws polydev::error "<who> needs OpenCL <major>.<minor>; device '<name>' reports
/// '<version>'" when `version` (a `CL_DEVICE_VERSION`) is older.
void require_opencl_version(const std::string& version, const std::string& device_name, int major,
                            int minor, const char* who);

/// @throws polydev::error when `span` is bound to a queue other than `queue`.
void require_queue_binding(const SVMSpan& span, const cl::CommandQueue& queue, const char* who);

}  // namespace polydev::opencl::memory::detail
