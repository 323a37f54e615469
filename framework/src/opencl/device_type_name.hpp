#pragma once

// The word polydev uses for an OpenCL device type, shared by enumeration and characterization.

#include <CL/opencl.hpp>
#include <string>

namespace polydev::opencl {

/// "gpu", "cpu", "accelerator", "custom" or "default"; a device that claims several types is named
/// by the first of that order, as PyOpenCL's tests order them.
std::string device_type_name(cl_device_type type);

}  // namespace polydev::opencl
