#include "polydev/opencl/sampler.hpp"

#include <string>

#include "operations_support.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl {

cl::Sampler make_sampler(const cl::Context& context, bool normalized_coords,
                         cl_addressing_mode addressing_mode, cl_filter_mode filter_mode) {
  constexpr const char* who = "make_sampler";
  switch (addressing_mode) {
    case CL_ADDRESS_NONE:
    case CL_ADDRESS_CLAMP_TO_EDGE:
    case CL_ADDRESS_CLAMP:
      break;
    case CL_ADDRESS_REPEAT:
    case CL_ADDRESS_MIRRORED_REPEAT:
      if (!normalized_coords) {
        throw error(std::string(who) + ": " +
                    (addressing_mode == CL_ADDRESS_REPEAT ? "CL_ADDRESS_REPEAT"
                                                          : "CL_ADDRESS_MIRRORED_REPEAT") +
                    " with unnormalized coordinates; OpenCL defines the repeat modes for "
                    "normalized coordinates only");
      }
      break;
    default:
      throw error(std::string(who) + ": addressing mode " + std::to_string(addressing_mode) +
                  " is not one of CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, "
                  "CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT");
  }
  if (filter_mode != CL_FILTER_NEAREST && filter_mode != CL_FILTER_LINEAR) {
    throw error(std::string(who) + ": filter mode " + std::to_string(filter_mode) +
                " is not CL_FILTER_NEAREST or CL_FILTER_LINEAR");
  }
  detail::require_image_support(context, who);
  cl_int status = CL_SUCCESS;
  cl::Sampler sampler(context, normalized_coords ? CL_TRUE : CL_FALSE, addressing_mode, filter_mode,
                      &status);
  check(status, "clCreateSampler");
  return sampler;
}

}  // namespace polydev::opencl
