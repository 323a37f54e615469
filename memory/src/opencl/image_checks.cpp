#include "image_checks.hpp"

#include <algorithm>

#include "operations_support.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl::memory::detail {

namespace {

struct Limit {
  cl_device_info query;
  const char* name;
  std::size_t axis;
};

std::vector<Limit> limits_of(cl_mem_object_type type) {
  constexpr Limit width2d{CL_DEVICE_IMAGE2D_MAX_WIDTH, "CL_DEVICE_IMAGE2D_MAX_WIDTH", 0};
  constexpr Limit height2d{CL_DEVICE_IMAGE2D_MAX_HEIGHT, "CL_DEVICE_IMAGE2D_MAX_HEIGHT", 1};
  switch (type) {
    case CL_MEM_OBJECT_IMAGE3D:
      return {{CL_DEVICE_IMAGE3D_MAX_WIDTH, "CL_DEVICE_IMAGE3D_MAX_WIDTH", 0},
              {CL_DEVICE_IMAGE3D_MAX_HEIGHT, "CL_DEVICE_IMAGE3D_MAX_HEIGHT", 1},
              {CL_DEVICE_IMAGE3D_MAX_DEPTH, "CL_DEVICE_IMAGE3D_MAX_DEPTH", 2}};
    case CL_MEM_OBJECT_IMAGE2D:
      return {width2d, height2d};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return {
          width2d, height2d, {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE", 2}};
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return {width2d, {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE", 1}};
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return {{CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE", 0}};
    default:
      // A 1-D image is bounded by the 2-D width (OpenCL 1.2, clCreateImage).
      return {width2d};
  }
}

bool is_array_axis(cl_mem_object_type type, std::size_t axis) noexcept {
  return (type == CL_MEM_OBJECT_IMAGE1D_ARRAY && axis == 1) ||
         (type == CL_MEM_OBJECT_IMAGE2D_ARRAY && axis == 2);
}

}  // namespace

const char* image_type_name(cl_mem_object_type type) noexcept {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
      return "1-D";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return "1-D buffer";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return "1-D array";
    case CL_MEM_OBJECT_IMAGE2D:
      return "2-D";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return "2-D array";
    case CL_MEM_OBJECT_IMAGE3D:
      return "3-D";
    default:
      return "other";
  }
}

void require_extents(const cl::Context& context, cl_mem_object_type type,
                     const std::array<std::size_t, 3>& extent, const char* who) {
  const std::vector<Limit> limits = limits_of(type);
  for (const cl::Device& device : context_devices(context)) {
    for (const Limit& limit : limits) {
      std::size_t most = 0;
      check(device.getInfo(limit.query, &most), "clGetDeviceInfo", limit.name);
      if (extent[limit.axis] <= most) continue;
      const std::string what =
          is_array_axis(type, limit.axis)
              ? "array size " + std::to_string(extent[limit.axis])
              : "extent " + std::to_string(extent[limit.axis]) + " along " + "xyz"[limit.axis];
      throw error(std::string(who) + ": " + what + " is more than " + limit.name + " (" +
                  std::to_string(most) + ") of device '" + device_name(device) + "'");
    }
  }
}

void require_format(const cl::Context& context, cl_mem_flags flags, cl_mem_object_type type,
                    const ImageFormat& format, const char* who) {
  constexpr cl_mem_flags access =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_KERNEL_READ_AND_WRITE;
  const std::vector<ImageFormat> formats =
      get_supported_image_formats(context, flags & access, type);
  if (std::find(formats.begin(), formats.end(), format) != formats.end()) return;
  // A few of the supported formats say what would work; a driver lists dozens, too many to read.
  // The nearest come first: those with the format's channel order, then with its channel type.
  std::vector<ImageFormat> nearest = formats;
  const auto rest = std::stable_partition(
      nearest.begin(), nearest.end(),
      [&](const ImageFormat& f) { return f.channel_order == format.channel_order; });
  std::stable_partition(rest, nearest.end(), [&](const ImageFormat& f) {
    return f.channel_data_type == format.channel_data_type;
  });
  constexpr std::size_t shown = 6;
  std::string supported;
  for (std::size_t i = 0; i < nearest.size() && i < shown; ++i) {
    supported += (i == 0 ? "" : ", ") + to_string(nearest[i]);
  }
  if (formats.size() > shown) {
    supported += " and " + std::to_string(formats.size() - shown) + " more";
  }
  const std::string kind = std::string(image_type_name(type)) + " images";
  // The status clCreateImage would return, so that code written for PyOpenCL, which checks
  // `code == IMAGE_FORMAT_NOT_SUPPORTED`, can check `code()` the same way.
  check(CL_IMAGE_FORMAT_NOT_SUPPORTED, "clCreateImage",
        std::string(who) + ": format " + to_string(format) + " is not supported for " + kind +
            " with these access flags on this context; " +
            (formats.empty() ? "it supports no format for " + kind : "it supports " + supported) +
            " (see get_supported_image_formats)");
}

}  // namespace polydev::opencl::memory::detail
