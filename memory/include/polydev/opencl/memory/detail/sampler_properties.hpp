#pragma once

/// @file
/// The checked form of a sampler properties list (`make_sampler(context, properties)` in
/// `polydev/opencl/memory/sampler.hpp`), apart so that the choice between
/// `clCreateSamplerWithProperties` and `clCreateSampler` is testable on any platform.

#include <CL/opencl.hpp>
#include <string>
#include <vector>

namespace polydev::opencl::memory::detail {

/// A properties list, checked: the three settings every OpenCL version has, with OpenCL's defaults
/// (normalized coordinates, `CL_ADDRESS_CLAMP`, `CL_FILTER_NEAREST`) for those the list leaves
/// out, and the (name, value) pairs of `cl_khr_mipmap_image`, which only
/// `clCreateSamplerWithProperties` takes.
struct SamplerProperties {
  cl_bool normalized_coords = CL_TRUE;
  cl_addressing_mode addressing_mode = CL_ADDRESS_CLAMP;
  cl_filter_mode filter_mode = CL_FILTER_NEAREST;
  std::vector<cl_sampler_properties> mipmap;  ///< name, value, name, value, ...
};

/// Checks `properties` (name, value pairs, without the terminating 0).
/// @throws polydev::error (prefixed with `who`) for an odd count, a 0 or unknown name, a name given
/// twice, a value that is not `CL_TRUE`/`CL_FALSE`, an addressing mode or a filter mode (also the
/// mip-map filter) OpenCL does not define, or a repeat addressing mode with unnormalized
/// coordinates.
SamplerProperties parse_sampler_properties(const std::vector<cl_sampler_properties>& properties,
                                           const char* who);

/// Whether `properties` can be created on a platform of `platform_version` (its
/// `CL_PLATFORM_VERSION`): with `clCreateSamplerWithProperties` from OpenCL 2.0, else with
/// `clCreateSampler` when only the three core settings are there.
/// Returns true for `clCreateSamplerWithProperties`, false for `clCreateSampler`.
/// @throws polydev::error naming the platform version for mip-map properties before OpenCL 2.0,
/// and for a version string that is not "OpenCL <major>.<minor> ...".
bool use_properties_api(const SamplerProperties& properties, const std::string& platform_version,
                        const char* who);

}  // namespace polydev::opencl::memory::detail
