#pragma once

/// @file
/// Images of PyOpenCL's runtime chapter: `image_from_array` (a C-order host array in, an OpenCL
/// image out), `enqueue_fill_image` with the colour type the image's channels need, and the
/// image's extent. Mapping an image is `map_image` in `polydev/opencl/mapping.hpp`; samplers are
/// in `polydev/opencl/sampler.hpp`.
///
/// C order and OpenCL's order describe the same bytes: element `[y][x]` of a C-order array of
/// shape `(h, w)` sits where OpenCL puts pixel `(x, y)` of an image of width `w` and height `h`.
/// Only the lists of extents are reversed: shape `(d, h, w)` is region `{w, h, d}`.
///
/// Every function here first checks that each device of the context supports images
/// (`CL_DEVICE_IMAGE_SUPPORT`) and throws `polydev::error` naming the device otherwise.

#include <CL/opencl.hpp>
#include <array>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace polydev::opencl {

/// Element types of host arrays that images can hold: the keys of PyOpenCL's
/// `DTYPE_TO_CHANNEL_TYPE` (NumPy's int8 ... float32, and float16).
enum class ElementType { int8, uint8, int16, uint16, int32, uint32, float16, float32 };

/// Bytes of one element of `type`.
std::size_t element_size(ElementType type) noexcept;

/// "int8", "uint8", ..., "float32".
const char* element_type_name(ElementType type) noexcept;

/// The `ElementType` of a C++ arithmetic type of 8, 16 or 32 bits (`std::int8_t` ... `float`).
/// There is no standard 16-bit float: name `ElementType::float16` explicitly (with `cl_half` data).
template <typename T>
constexpr ElementType element_type_of() noexcept {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                    (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4) &&
                    (std::is_integral_v<T> || std::is_same_v<T, float>),
                "images hold 8-, 16- or 32-bit integers and float (or float16 named explicitly)");
  if constexpr (std::is_same_v<T, float>) {
    return ElementType::float32;
  } else if constexpr (sizeof(T) == 1) {
    return std::is_signed_v<T> ? ElementType::int8 : ElementType::uint8;
  } else if constexpr (sizeof(T) == 2) {
    return std::is_signed_v<T> ? ElementType::int16 : ElementType::uint16;
  } else {
    return std::is_signed_v<T> ? ElementType::int32 : ElementType::uint32;
  }
}

/// A dense C-order host array (NumPy's C-contiguous `ndarray`): `shape` lists the extents, slowest
/// first; elements of `type` follow each other without gaps.
struct HostArrayView {
  const void* data = nullptr;
  std::vector<std::size_t> shape;
  ElementType type = ElementType::float32;
};

/// A view of `data` with `shape`, typed from `T`.
template <typename T>
HostArrayView host_array(const T* data, std::vector<std::size_t> shape) {
  return HostArrayView{data, std::move(shape), element_type_of<T>()};
}

/// How kernels may use an image (PyOpenCL's `mode`: "r", "w"; OpenCL 2.0 adds read-write images).
enum class ImageMode {
  read,        ///< `CL_MEM_READ_ONLY`
  write,       ///< `CL_MEM_WRITE_ONLY`
  read_write,  ///< `CL_MEM_READ_WRITE`
};

/// An image of 1, 2 or 3 dimensions. The bindings' common base `cl::Image` cannot be held by value
/// (its constructors are protected); `as_image` gives it by reference.
using AnyImage = std::variant<cl::Image1D, cl::Image2D, cl::Image3D>;

/// The image as the bindings' common base, which kernel arguments (`setArg`), reads, writes, maps
/// and the functions here take.
inline const cl::Image& as_image(const AnyImage& image) noexcept {
  return std::visit([](const auto& typed) -> const cl::Image& { return typed; }, image);
}

/// PyOpenCL's `image_from_array(ctx, ary, num_channels, mode, norm_int)`: an image holding a copy
/// of `array`. With `num_channels` 1 the whole shape is the image's (1 to 3 dimensions); with 2 or
/// 4 the last extent must be `num_channels` and the rest is the image's. Channel order `CL_R`,
/// `CL_RG` or `CL_RGBA`; channel type `CL_SIGNED_INT*`, `CL_UNSIGNED_INT*`, `CL_HALF_FLOAT` or
/// `CL_FLOAT` from the element type, or with `norm_int` `CL_SNORM_INT*` / `CL_UNORM_INT*` (8- and
/// 16-bit integers only), which kernels read as floats in [-1, 1] or [0, 1].
/// Returns the 1-, 2- or 3-D image, by the array's dimensions.
/// @throws polydev::error for a null `data`; a channel count other than 1, 2 or 4 (`CL_RGB` takes
/// packed types only); a shape whose last extent is not the channel count, with no image
/// dimension left or more than 3, or with an extent of 0; `norm_int` with a type that has no
/// normalized channel type; a context whose devices lack image support, the format, or room for
/// the extents (`CL_DEVICE_IMAGE2D_MAX_WIDTH` and its relatives); polydev::backend_error or
/// polydev::out_of_memory when `clCreateImage` fails.
AnyImage image_from_array(const cl::Context& context, const HostArrayView& array,
                          unsigned num_channels = 1, ImageMode mode = ImageMode::read,
                          bool norm_int = false);

/// Width, height and depth of `image` in pixels, 1 for the dimensions it lacks (for arrays of
/// images the array size is the last one): OpenCL's `region` of the whole image.
/// @throws polydev::error for an empty handle, polydev::backend_error when a query fails.
std::array<std::size_t, 3> image_extent(const cl::Image& image);

/// The C-order shape of `image` (PyOpenCL's `Image.shape` reversed, as NumPy holds it): `(w)`,
/// `(h, w)` or `(d, h, w)`, without the channels. @throws as `image_extent`.
std::vector<std::size_t> image_shape(const cl::Image& image);

/// The colour of `enqueue_fill_image`: four floats for normalized and floating-point channel
/// types, four signed integers for `CL_SIGNED_INT*`, four unsigned integers for
/// `CL_UNSIGNED_INT*` (what `clEnqueueFillImage` reads, by channel type).
using FillColor = std::variant<cl_float4, cl_int4, cl_uint4>;

/// Fills the box `region` at `origin` of `image` (pixels, x first) with `color`: PyOpenCL's
/// `enqueue_fill_image`. No `region`: from `origin` to the image's end.
/// @throws polydev::error when the colour's kind does not match the channel type (the driver would
/// read its bits as the other kind), for an empty box or one past the image;
/// polydev::backend_error when OpenCL fails.
cl::Event enqueue_fill_image(const cl::CommandQueue& queue, const cl::Image& image,
                             const FillColor& color,
                             const std::array<std::size_t, 3>& origin = {0, 0, 0},
                             const std::optional<std::array<std::size_t, 3>>& region = {},
                             const std::vector<cl::Event>& wait_for = {});

}  // namespace polydev::opencl
