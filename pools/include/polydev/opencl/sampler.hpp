#pragma once

/// @file
/// Samplers of PyOpenCL's runtime chapter: how kernels read images (coordinates, addressing at the
/// edges, filtering).

#include <CL/opencl.hpp>

namespace polydev::opencl {

/// PyOpenCL's `Sampler(context, normalized_coords, addressing_mode, filter_mode)`.
/// @throws polydev::error for a context without image support, an addressing mode other than
/// `CL_ADDRESS_NONE`, `CL_ADDRESS_CLAMP_TO_EDGE`, `CL_ADDRESS_CLAMP`, `CL_ADDRESS_REPEAT`,
/// `CL_ADDRESS_MIRRORED_REPEAT`, a filter other than `CL_FILTER_NEAREST`, `CL_FILTER_LINEAR`, or
/// the repeat modes without normalized coordinates (OpenCL leaves that combination undefined);
/// polydev::backend_error when OpenCL fails.
cl::Sampler make_sampler(const cl::Context& context, bool normalized_coords,
                         cl_addressing_mode addressing_mode, cl_filter_mode filter_mode);

}  // namespace polydev::opencl
