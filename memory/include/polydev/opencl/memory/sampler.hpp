#pragma once

/// @file
/// Samplers of PyOpenCL's runtime chapter: how kernels read images (coordinates, addressing at the
/// edges, filtering).

#include <CL/opencl.hpp>
#include <vector>

namespace polydev::opencl::memory {

/// PyOpenCL's `Sampler(context, normalized_coords, addressing_mode, filter_mode)`.
/// @throws polydev::error for a context without image support, an addressing mode other than
/// `CL_ADDRESS_NONE`, `CL_ADDRESS_CLAMP_TO_EDGE`, `CL_ADDRESS_CLAMP`, `CL_ADDRESS_REPEAT`,
/// `CL_ADDRESS_MIRRORED_REPEAT`, a filter other than `CL_FILTER_NEAREST`, `CL_FILTER_LINEAR`, or
/// the repeat modes without normalized coordinates (OpenCL leaves that combination undefined);
/// polydev::backend_error when OpenCL fails.
cl::Sampler make_sampler(const cl::Context& context, bool normalized_coords,
                         cl_addressing_mode addressing_mode, cl_filter_mode filter_mode);

/// PyOpenCL's `Sampler(context, properties)`: `properties` is a list of (name, value) pairs
/// without the terminating 0, e.g. `{CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
/// CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE, CL_SAMPLER_FILTER_MODE,
/// CL_FILTER_LINEAR}`. Names: `CL_SAMPLER_NORMALIZED_COORDS`, `CL_SAMPLER_ADDRESSING_MODE`,
/// `CL_SAMPLER_FILTER_MODE` (OpenCL's defaults for those left out: `CL_TRUE`, `CL_ADDRESS_CLAMP`,
/// `CL_FILTER_NEAREST`), and `cl_khr_mipmap_image`'s `CL_SAMPLER_MIP_FILTER_MODE_KHR`,
/// `CL_SAMPLER_LOD_MIN_KHR`, `CL_SAMPLER_LOD_MAX_KHR`. Created with
/// `clCreateSamplerWithProperties` on OpenCL 2.0 and later platforms (the sampler's
/// `CL_SAMPLER_PROPERTIES` then lists them), with `clCreateSampler` before (where PyOpenCL calls
/// the 2.0 function anyway and warns that a crash may follow).
/// @throws polydev::error for a context without image support, the list errors of
/// `detail::parse_sampler_properties` (odd count, 0, unknown or repeated names, bad values), the
/// repeat modes without normalized coordinates, mip-map properties on a platform before OpenCL
/// 2.0 or with a device that lacks `cl_khr_mipmap_image`; polydev::backend_error when OpenCL
/// fails.
cl::Sampler make_sampler(const cl::Context& context,
                         const std::vector<cl_sampler_properties>& properties);

}  // namespace polydev::opencl::memory
