#pragma once

// Checks shared by the functions that create images (image.cpp, image_create.cpp): the image
// kinds' names, the device limits on extents, the formats a context supports, access flags.

#include <CL/opencl.hpp>
#include <array>
#include <cstddef>

#include "polydev/opencl/memory/image_format.hpp"

namespace polydev::opencl::memory::detail {

// "1-D", "1-D buffer", "1-D array", "2-D", "2-D array", "3-D"; "other" for anything else.
const char* image_type_name(cl_mem_object_type type) noexcept;

// @throws polydev::error "<who>: extent N along x is more than CL_DEVICE_IMAGE2D_MAX_WIDTH (M) of
// device 'D'" (or the array size against CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, a 1-D buffer image's
// width against CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) when an image of `type` with `extent` (as
// image_extent gives it: arrays' sizes take the next axis) exceeds a device of `context`.
void require_extents(const cl::Context& context, cl_mem_object_type type,
                     const std::array<std::size_t, 3>& extent, const char* who);

// @throws polydev::backend_error for clCreateImage with CL_IMAGE_FORMAT_NOT_SUPPORTED and "<who>:
// format ImageFormat(..) is not supported for <kind> images with these access flags on this
// context; it supports <a few formats> and N more ..." unless get_supported_image_formats lists
// `format` for the access bits of `flags`.
void require_format(const cl::Context& context, cl_mem_flags flags, cl_mem_object_type type,
                    const ImageFormat& format, const char* who);

}  // namespace polydev::opencl::memory::detail
