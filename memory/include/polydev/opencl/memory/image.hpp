#pragma once

/// @file
/// Images of PyOpenCL's runtime chapter: `create_image` (every kind of image OpenCL 1.2 and later
/// create: 1-D, 2-D, 3-D, arrays of 1-D and 2-D images, 1-D images on a buffer; with or without
/// host memory and pitches), `image_from_array` (a C-order host array in, an OpenCL image out),
/// `enqueue_fill_image` with the colour type the image's channels need, and the image's shape and
/// extent. Formats are in `polydev/opencl/memory/image_format.hpp`; mapping an image is `map_image`
/// in `polydev/opencl/memory/mapping.hpp`; samplers are in `polydev/opencl/memory/sampler.hpp`.
///
/// C order and OpenCL's order describe the same bytes: element `[y][x]` of a C-order array of
/// shape `(h, w)` sits where OpenCL puts pixel `(x, y)` of an image of width `w` and height `h`.
/// Only the lists of extents are reversed: shape `(d, h, w)` is region `{w, h, d}`. The shapes
/// `create_image` takes and `image_shape` gives are OpenCL's (x first), as PyOpenCL's are.
///
/// Every function here that creates an image first checks that each device of the context
/// supports images (`CL_DEVICE_IMAGE_SUPPORT`) and throws `polydev::error` naming the device
/// otherwise.

#include <CL/opencl.hpp>
#include <array>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "polydev/opencl/memory/image_format.hpp"

namespace polydev::opencl::memory {

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

namespace detail {

// OpenCL's host vector types (cl_float4, cl_uchar2, ...) are unions whose member `s` is the array
// of their components; the half-float ones hold cl_half, which is an unsigned short, so they are
// told apart by name.
template <typename T, typename = void>
struct vector_components {
  using scalar = T;
  static constexpr unsigned count = 1;
};
template <typename T>
struct vector_components<T, std::void_t<decltype(std::declval<T&>().s)>> {
  using scalar = std::remove_extent_t<std::remove_reference_t<decltype(std::declval<T&>().s)>>;
  static constexpr unsigned count =
      std::extent_v<std::remove_reference_t<decltype(std::declval<T&>().s)>>;
};
template <typename T>
inline constexpr bool is_half_vector_v =
    std::is_same_v<T, cl_half2> || std::is_same_v<T, cl_half4> || std::is_same_v<T, cl_half8> ||
    std::is_same_v<T, cl_half16>;

}  // namespace detail

/// The `ElementType` of each component of `T`: of `T` itself for an arithmetic type, of the
/// components of an OpenCL vector type (`cl_float4`: `float32`, `cl_half2`: `float16`).
template <typename T>
constexpr ElementType component_type_of() noexcept {
  if constexpr (detail::is_half_vector_v<T>) {
    return ElementType::float16;
  } else {
    return element_type_of<typename detail::vector_components<T>::scalar>();
  }
}

/// Components of one `T`: 1 for arithmetic types, N for the OpenCL vector types `cl_<type>N`.
/// `cl_float3` and its kin are the same C++ types as `cl_float4` (OpenCL lays them out alike), so a
/// 3-component array can only be described by setting `HostArrayView::components` to 3.
template <typename T>
constexpr unsigned components_of() noexcept {
  return detail::vector_components<T>::count;
}

/// A dense C-order host array (NumPy's C-contiguous `ndarray`): `shape` lists the extents, slowest
/// first; elements follow each other without gaps. Each element is `components` values of `type`
/// (1 for scalars; 2, 3, 4, 8 or 16 for OpenCL's vector types, which `image_from_array` reads as
/// channels, as PyOpenCL reads `cltypes.float4` arrays).
struct HostArrayView {
  const void* data = nullptr;
  std::vector<std::size_t> shape;
  ElementType type = ElementType::float32;
  unsigned components = 1;
};

/// A view of `data` with `shape`, typed from `T` (an arithmetic type or an OpenCL vector type).
template <typename T>
HostArrayView host_array(const T* data, std::vector<std::size_t> shape) {
  return HostArrayView{data, std::move(shape), component_type_of<T>(), components_of<T>()};
}

/// How kernels may use an image (PyOpenCL's `mode`: "r", "w"; OpenCL 2.0 adds read-write images).
enum class ImageMode {
  read,        ///< `CL_MEM_READ_ONLY`
  write,       ///< `CL_MEM_WRITE_ONLY`
  read_write,  ///< `CL_MEM_READ_WRITE`
};

/// An image of any kind `create_image` makes. The bindings' common base `cl::Image` cannot be held
/// by value (its constructors are protected); `as_image` gives it by reference.
using AnyImage = std::variant<cl::Image1D, cl::Image2D, cl::Image3D, cl::Image1DArray,
                              cl::Image2DArray, cl::Image1DBuffer>;

/// The image as the bindings' common base, which kernel arguments (`setArg`), reads, writes, maps
/// and the functions here take.
inline const cl::Image& as_image(const AnyImage& image) noexcept {
  return std::visit([](const auto& typed) -> const cl::Image& { return typed; }, image);
}

/// PyOpenCL's `hostbuf`: host memory an image is created from (`CL_MEM_COPY_HOST_PTR`) or lives in
/// (`CL_MEM_USE_HOST_PTR`), with its size in bytes, so that `create_image` checks that it holds
/// the image.
struct HostBuffer {
  const void* data = nullptr;
  std::size_t size = 0;   ///< bytes
  bool writable = false;  ///< whether kernels may write it (`CL_MEM_USE_HOST_PTR`)
};

/// The `count` elements at `data`; writable unless `T` is const.
template <typename T>
HostBuffer host_buffer(T* data, std::size_t count) noexcept {
  return HostBuffer{data, count * sizeof(T), !std::is_const_v<T>};
}

/// The bytes of `array` (read-only: its view is const).
HostBuffer host_buffer(const HostArrayView& array);

/// PyOpenCL's `create_image(context, flags, format, shape, pitches, hostbuf, is_array, buffer)`.
/// `shape` is OpenCL's, x first: `(w)` for a 1-D image (on `buffer` when it is given), `(w, h)`
/// for a 2-D one, `(w, h, d)` for a 3-D one; with `is_array`, `(w, n)` for an array of `n` 1-D
/// images and `(w, h, n)` for an array of `n` 2-D images. `pitches` (bytes, with `hostbuf` only)
/// are the row pitch for 2-D images and arrays of 1-D images (there: from one image to the next),
/// the row and slice pitches for 3-D images and arrays of 2-D images; 0 or none packs tightly.
/// With `CL_MEM_USE_HOST_PTR` the image lives in `hostbuf`, which must outlive it.
/// Returns the kind of image the shape names (`cl::Image1D` ... `cl::Image1DBuffer`).
/// @throws polydev::error for an empty context, a shape of no or more than 3 extents or with an
/// extent of 0, `is_array` with one extent or with `buffer`, `buffer` with more than one extent
/// or an empty one, too few bytes in `buffer` (width times `format.itemsize()`), `hostbuf` or
/// `buffer` with `CL_MEM_COPY_HOST_PTR`/`CL_MEM_USE_HOST_PTR` missing or wrongly present
/// (OpenCL would ignore the host memory, or read none), both of those flags, more than one of
/// `CL_MEM_READ_WRITE`/`CL_MEM_WRITE_ONLY`/`CL_MEM_READ_ONLY`, a null or read-only `hostbuf`
/// where kernels may write it, `pitches` without `hostbuf`, too many pitches, a pitch below the
/// packed one or not a multiple of the pixel (row) or the row pitch (slice), a `hostbuf` smaller
/// than the image with its pitches (PyOpenCL's "buffer too small"), a format whose sizes
/// `ImageFormat` does not know when they are needed, a context whose devices lack image support,
/// the format (`get_supported_image_formats`) or room for the extents
/// (`CL_DEVICE_IMAGE2D_MAX_WIDTH` and its relatives, `CL_DEVICE_IMAGE_MAX_ARRAY_SIZE`,
/// `CL_DEVICE_IMAGE_MAX_BUFFER_SIZE`); polydev::backend_error or polydev::out_of_memory when
/// `clCreateImage` fails.
AnyImage create_image(const cl::Context& context, cl_mem_flags flags, const ImageFormat& format,
                      const std::vector<std::size_t>& shape,
                      const std::vector<std::size_t>& pitches = {},
                      const std::optional<HostBuffer>& hostbuf = std::nullopt,
                      bool is_array = false,
                      const std::optional<cl::Buffer>& buffer = std::nullopt);

/// PyOpenCL's `image_from_array(ctx, ary, num_channels, mode, norm_int)`: an image holding a copy
/// of `array`. Without `num_channels` the channels are the components of the array's elements (1
/// for scalars, 2 or 4 for `cl_float2`, `cl_uchar4`, ...), and the whole shape is the image's.
/// With `num_channels` 1 the whole shape is the image's (1 to 3 dimensions); with 2 or 4 the last
/// extent must be `num_channels` and the rest is the image's. Channel order `CL_R`, `CL_RG` or
/// `CL_RGBA`; channel type `CL_SIGNED_INT*`, `CL_UNSIGNED_INT*`, `CL_HALF_FLOAT` or `CL_FLOAT`
/// from the element type, or with `norm_int` `CL_SNORM_INT*` / `CL_UNORM_INT*` (8- and 16-bit
/// integers only), which kernels read as floats in [-1, 1] or [0, 1].
/// Returns the 1-, 2- or 3-D image, by the array's dimensions.
/// @throws polydev::error for a null `data`; elements of 3, 8 or 16 components (images have 1, 2
/// or 4 channels); `num_channels` with vector elements (their components are the channels); a
/// channel count other than 1, 2 or 4 (`CL_RGB` takes packed types only); a shape whose last
/// extent is not the channel count, with no image dimension left or more than 3, or with an
/// extent of 0; `norm_int` with a type that has no normalized channel type; a context whose
/// devices lack image support, the format, or room for the extents (`CL_DEVICE_IMAGE2D_MAX_WIDTH`
/// and its relatives); polydev::backend_error or polydev::out_of_memory when `clCreateImage` fails.
AnyImage image_from_array(const cl::Context& context, const HostArrayView& array,
                          std::optional<unsigned> num_channels = std::nullopt,
                          ImageMode mode = ImageMode::read, bool norm_int = false);

/// Width, height and depth of `image` in pixels, 1 for the dimensions it lacks; for arrays of
/// images the array size takes the place of the next dimension (`{w, n, 1}` for an array of 1-D
/// images, `{w, h, n}` for one of 2-D images): OpenCL's `region` of the whole image.
/// @throws polydev::error for an empty handle, polydev::backend_error when a query fails.
std::array<std::size_t, 3> image_extent(const cl::Image& image);

/// PyOpenCL's `Image.shape`, x first: `(w, h)` for a 2-D image, `(w, h, d)` for a 3-D one; and
/// where PyOpenCL raises, the shape `create_image` takes for the kind: `(w)` for a 1-D image (on a
/// buffer or not), `(w, n)` for an array of `n` 1-D images, `(w, h, n)` for one of 2-D images.
/// Without the channels. (Before this release `image_shape` gave the C-order shape, reversed.)
/// @throws as `image_extent`.
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

}  // namespace polydev::opencl::memory
