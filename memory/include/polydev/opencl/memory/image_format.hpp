#pragma once

/// @file
/// PyOpenCL's `ImageFormat` (a channel order and a channel data type) with its `channel_count`,
/// `dtype_size` and `itemsize`, equality, hashing and text, and `get_supported_image_formats`.
///
/// The sizes are those of the pixels in host memory (what `clCreateImage` reads from a host
/// pointer and `CL_IMAGE_ELEMENT_SIZE` reports). Where PyOpenCL's arithmetic gives another number
/// polydev gives the pixel's: `itemsize` of the packed types (`CL_UNORM_SHORT_565`,
/// `CL_UNORM_SHORT_555`, `CL_UNORM_INT_101010`, `CL_UNORM_INT_101010_2`) is the whole packed pixel
/// (2 or 4 bytes), where PyOpenCL multiplies the packed size by the channel count (6 for
/// `ImageFormat(RGB, UNORM_SHORT_565)`). polydev also knows the orders PyOpenCL's `channel_count`
/// refuses (`ARGB`, `ABGR`, `Rx`, `RGx`, `RGBx`, the sRGB orders, `DEPTH`); padding channels
/// (`x`) count, as they take room in the pixel.

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace polydev::opencl::memory {

/// PyOpenCL's `ImageFormat(channel_order, channel_data_type)`: a value type that converts to and
/// from `cl_image_format` and `cl::ImageFormat`, so that it goes wherever they go. Any codes are
/// held, vendor ones included; the size helpers throw for codes they do not know.
struct ImageFormat {
  /// `CL_R`, `CL_RGBA`, ...
  cl_channel_order channel_order;
  /// `CL_FLOAT`, `CL_UNORM_INT8`, ...
  cl_channel_type channel_data_type;

  /// The format of `order` channels of type `type`.
  constexpr ImageFormat(cl_channel_order order, cl_channel_type type) noexcept
      : channel_order(order), channel_data_type(type) {}

  /// The format OpenCL describes with `format` (also a `cl::ImageFormat`, which derives from it).
  constexpr ImageFormat(const cl_image_format& format) noexcept  // NOLINT: converts by design
      : channel_order(format.image_channel_order),
        channel_data_type(format.image_channel_data_type) {}

  /// The bindings' format (and through its base, `cl_image_format`).
  operator cl::ImageFormat() const {  // NOLINT: converts by design
    return cl::ImageFormat(channel_order, channel_data_type);
  }

  /// Channels of a pixel: 1 for `R`, `A`, `INTENSITY`, `LUMINANCE`, `DEPTH`; 2 for `RG`, `RA`,
  /// `Rx`; 3 for `RGB`, `RGx`, `sRGB`; 4 for `RGBA`, `BGRA`, `ARGB`, `ABGR`, `RGBx`, `sRGBA`,
  /// `sBGRA`, `sRGBx`.
  /// @throws polydev::error naming the order for any other (`DEPTH_STENCIL`, whose layout OpenCL
  /// leaves to OpenGL, vendor orders, or an unknown code).
  unsigned channel_count() const;

  /// Bytes of one channel: 1, 2 or 4 by type; for the packed types the bytes of the whole packed
  /// pixel (2 for `UNORM_SHORT_565` and `UNORM_SHORT_555`, 4 for `UNORM_INT_101010` and
  /// `UNORM_INT_101010_2`), as PyOpenCL gives them.
  /// @throws polydev::error naming the type for any other (`UNORM_INT24`, a depth-stencil type
  /// OpenCL leaves to OpenGL, vendor types, or an unknown code).
  std::size_t dtype_size() const;

  /// Bytes of one pixel: `channel_count() * dtype_size()`, except for the packed types, whose
  /// pixel is `dtype_size()` bytes.
  /// @throws polydev::error as `channel_count` and `dtype_size` do, and for a packed type with an
  /// order it cannot pack (`UNORM_SHORT_565`, `UNORM_SHORT_555` and `UNORM_INT_101010` go with
  /// `RGB` or `RGBx`, `UNORM_INT_101010_2` with `RGBA`).
  std::size_t itemsize() const;

  /// Same order and same type.
  friend constexpr bool operator==(const ImageFormat& a, const ImageFormat& b) noexcept {
    return a.channel_order == b.channel_order && a.channel_data_type == b.channel_data_type;
  }
  /// Another order or another type.
  friend constexpr bool operator!=(const ImageFormat& a, const ImageFormat& b) noexcept {
    return !(a == b);
  }
};

/// The name of `order` as PyOpenCL's `channel_order` spells it ("RGBA", "sRGBx"), or
/// "<unknown channel order 0x10ff>" for a code it is not.
std::string channel_order_name(cl_channel_order order);

/// The name of `type` as PyOpenCL's `channel_type` spells it ("FLOAT", "UNORM_INT8"), or
/// "<unknown channel data type 0x10ff>" for a code it is not.
std::string channel_type_name(cl_channel_type type);

/// PyOpenCL's `repr`: "ImageFormat(RGBA, FLOAT)".
std::string to_string(const ImageFormat& format);

/// Writes `to_string(format)`.
std::ostream& operator<<(std::ostream& out, const ImageFormat& format);

/// PyOpenCL's `get_supported_image_formats(context, flags, image_type)`: the formats every device
/// of `context` supports for images of `image_type` (`CL_MEM_OBJECT_IMAGE1D`, `..._IMAGE1D_BUFFER`,
/// `..._IMAGE1D_ARRAY`, `..._IMAGE2D`, `..._IMAGE2D_ARRAY`, `..._IMAGE3D`) created with `flags`
/// (`CL_MEM_READ_ONLY`, ...), in the driver's order.
/// @throws polydev::error for an empty context or another `image_type`; polydev::backend_error
/// when `clGetSupportedImageFormats` fails.
std::vector<ImageFormat> get_supported_image_formats(const cl::Context& context, cl_mem_flags flags,
                                                     cl_mem_object_type image_type);

}  // namespace polydev::opencl::memory

namespace std {

/// Hashes the order and the type, so that formats key unordered containers.
template <>
struct hash<polydev::opencl::memory::ImageFormat> {
  std::size_t operator()(const polydev::opencl::memory::ImageFormat& format) const noexcept {
    const auto key = (static_cast<unsigned long long>(format.channel_order) << 32) |
                     static_cast<unsigned long long>(format.channel_data_type);
    return std::hash<unsigned long long>{}(key);
  }
};

}  // namespace std
