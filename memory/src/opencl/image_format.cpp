#include "polydev/opencl/memory/image_format.hpp"

#include <cstdio>
#include <ostream>
#include <string>

#include "polydev/error.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl::memory {

namespace {

std::string hex(unsigned code) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%x", code);
  return text;
}

// Names without the CL_ prefix, as PyOpenCL's constant classes spell them; nullptr for others.
const char* order_name(cl_channel_order order) noexcept {
  switch (order) {
    case CL_R:
      return "R";
    case CL_A:
      return "A";
    case CL_RG:
      return "RG";
    case CL_RA:
      return "RA";
    case CL_RGB:
      return "RGB";
    case CL_RGBA:
      return "RGBA";
    case CL_BGRA:
      return "BGRA";
    case CL_ARGB:
      return "ARGB";
    case CL_INTENSITY:
      return "INTENSITY";
    case CL_LUMINANCE:
      return "LUMINANCE";
    case CL_Rx:
      return "Rx";
    case CL_RGx:
      return "RGx";
    case CL_RGBx:
      return "RGBx";
    case CL_DEPTH:
      return "DEPTH";
    case CL_DEPTH_STENCIL:
      return "DEPTH_STENCIL";
    case CL_sRGB:
      return "sRGB";
    case CL_sRGBx:
      return "sRGBx";
    case CL_sRGBA:
      return "sRGBA";
    case CL_sBGRA:
      return "sBGRA";
    case CL_ABGR:
      return "ABGR";
    default:
      return nullptr;
  }
}

const char* type_name(cl_channel_type type) noexcept {
  switch (type) {
    case CL_SNORM_INT8:
      return "SNORM_INT8";
    case CL_SNORM_INT16:
      return "SNORM_INT16";
    case CL_UNORM_INT8:
      return "UNORM_INT8";
    case CL_UNORM_INT16:
      return "UNORM_INT16";
    case CL_UNORM_SHORT_565:
      return "UNORM_SHORT_565";
    case CL_UNORM_SHORT_555:
      return "UNORM_SHORT_555";
    case CL_UNORM_INT_101010:
      return "UNORM_INT_101010";
    case CL_SIGNED_INT8:
      return "SIGNED_INT8";
    case CL_SIGNED_INT16:
      return "SIGNED_INT16";
    case CL_SIGNED_INT32:
      return "SIGNED_INT32";
    case CL_UNSIGNED_INT8:
      return "UNSIGNED_INT8";
    case CL_UNSIGNED_INT16:
      return "UNSIGNED_INT16";
    case CL_UNSIGNED_INT32:
      return "UNSIGNED_INT32";
    case CL_HALF_FLOAT:
      return "HALF_FLOAT";
    case CL_FLOAT:
      return "FLOAT";
    case CL_UNORM_INT24:
      return "UNORM_INT24";
    case CL_UNORM_INT_101010_2:
      return "UNORM_INT_101010_2";
    default:
      return nullptr;
  }
}

bool is_packed(cl_channel_type type) noexcept {
  return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010 ||
         type == CL_UNORM_INT_101010_2;
}

bool is_image_type(cl_mem_object_type type) noexcept {
  return type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
         type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D ||
         type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
}

}  // namespace

unsigned ImageFormat::channel_count() const {
  switch (channel_order) {
    case CL_R:
    case CL_A:
    case CL_INTENSITY:
    case CL_LUMINANCE:
    case CL_DEPTH:
      return 1;
    case CL_RG:
    case CL_RA:
    case CL_Rx:
      return 2;
    case CL_RGB:
    case CL_RGx:
    case CL_sRGB:
      return 3;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
    case CL_RGBx:
    case CL_sRGBA:
    case CL_sBGRA:
    case CL_sRGBx:
      return 4;
    case CL_DEPTH_STENCIL:
      throw error(to_string(*this) +
                  ".channel_count: DEPTH_STENCIL images come from OpenGL textures, whose layout "
                  "OpenGL defines; polydev does not count their channels");
    default:
      throw error(to_string(*this) + ".channel_count: channel order " + hex(channel_order) +
                  " is not one OpenCL defines (R, A, RG, RA, RGB, RGBA, BGRA, ARGB, ABGR, "
                  "INTENSITY, LUMINANCE, Rx, RGx, RGBx, sRGB, sRGBx, sRGBA, sBGRA, DEPTH)");
  }
}

std::size_t ImageFormat::dtype_size() const {
  switch (channel_data_type) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
      return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555:
      return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
    case CL_UNORM_INT_101010:
    case CL_UNORM_INT_101010_2:
      return 4;
    case CL_UNORM_INT24:
      throw error(to_string(*this) +
                  ".dtype_size: UNORM_INT24 is a depth-stencil type of images that come from "
                  "OpenGL textures, whose layout OpenGL defines; polydev does not size it");
    default:
      throw error(to_string(*this) + ".dtype_size: channel data type " + hex(channel_data_type) +
                  " is not one OpenCL defines (SNORM_INT8/16, UNORM_INT8/16, SIGNED_INT8/16/32, "
                  "UNSIGNED_INT8/16/32, HALF_FLOAT, FLOAT, UNORM_SHORT_565/555, "
                  "UNORM_INT_101010, UNORM_INT_101010_2)");
  }
}

std::size_t ImageFormat::itemsize() const {
  if (!is_packed(channel_data_type)) return channel_count() * dtype_size();
  const bool rgb_like = channel_order == CL_RGB || channel_order == CL_RGBx;
  const bool fits =
      channel_data_type == CL_UNORM_INT_101010_2 ? channel_order == CL_RGBA : rgb_like;
  if (!fits) {
    throw error(to_string(*this) + ".itemsize: " + type_name(channel_data_type) +
                " packs the channels of " +
                (channel_data_type == CL_UNORM_INT_101010_2 ? "an RGBA pixel into 4 bytes"
                 : channel_data_type == CL_UNORM_INT_101010 ? "an RGB or RGBx pixel into 4 bytes"
                                                            : "an RGB or RGBx pixel into 2 bytes") +
                "; OpenCL does not pack " + channel_order_name(channel_order) + " pixels with it");
  }
  return dtype_size();
}

std::string channel_order_name(cl_channel_order order) {
  const char* name = order_name(order);
  return name != nullptr ? name : "<unknown channel order " + hex(order) + ">";
}

std::string channel_type_name(cl_channel_type type) {
  const char* name = type_name(type);
  return name != nullptr ? name : "<unknown channel data type " + hex(type) + ">";
}

std::string to_string(const ImageFormat& format) {
  return "ImageFormat(" + channel_order_name(format.channel_order) + ", " +
         channel_type_name(format.channel_data_type) + ")";
}

std::ostream& operator<<(std::ostream& out, const ImageFormat& format) {
  return out << to_string(format);
}

std::vector<ImageFormat> get_supported_image_formats(const cl::Context& context, cl_mem_flags flags,
                                                     cl_mem_object_type image_type) {
  constexpr const char* who = "get_supported_image_formats";
  if (context() == nullptr)
    throw error(std::string(who) + ": the context is empty (no cl_context)");
  if (!is_image_type(image_type)) {
    throw error(std::string(who) + ": image type " + hex(image_type) +
                " is not an image type; use CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, "
                "CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY "
                "or CL_MEM_OBJECT_IMAGE3D");
  }
  cl_uint count = 0;
  check(clGetSupportedImageFormats(context(), flags, image_type, 0, nullptr, &count),
        "clGetSupportedImageFormats");
  std::vector<cl_image_format> raw(count);
  if (count != 0) {
    check(clGetSupportedImageFormats(context(), flags, image_type, count, raw.data(), nullptr),
          "clGetSupportedImageFormats");
  }
  return std::vector<ImageFormat>(raw.begin(), raw.end());
}

}  // namespace polydev::opencl::memory
