#include "polydev/opencl/memory/image.hpp"

#include <algorithm>
#include <string>

#include "image_checks.hpp"
#include "operations_support.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/array_layout.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl::memory {

namespace {

// The channel type of an element type, normalized or not (PyOpenCL's DTYPE_TO_CHANNEL_TYPE and
// DTYPE_TO_CHANNEL_TYPE_NORM).
cl_channel_type channel_type(ElementType type, bool norm_int) {
  if (norm_int) {
    switch (type) {
      case ElementType::int8:
        return CL_SNORM_INT8;
      case ElementType::uint8:
        return CL_UNORM_INT8;
      case ElementType::int16:
        return CL_SNORM_INT16;
      case ElementType::uint16:
        return CL_UNORM_INT16;
      default:
        throw error(std::string("image_from_array: norm_int with ") + element_type_name(type) +
                    " elements; OpenCL normalizes 8- and 16-bit integers only (int8, uint8, "
                    "int16, uint16)");
    }
  }
  switch (type) {
    case ElementType::int8:
      return CL_SIGNED_INT8;
    case ElementType::uint8:
      return CL_UNSIGNED_INT8;
    case ElementType::int16:
      return CL_SIGNED_INT16;
    case ElementType::uint16:
      return CL_UNSIGNED_INT16;
    case ElementType::int32:
      return CL_SIGNED_INT32;
    case ElementType::uint32:
      return CL_UNSIGNED_INT32;
    case ElementType::float16:
      return CL_HALF_FLOAT;
    case ElementType::float32:
      return CL_FLOAT;
  }
  throw error("image_from_array: unknown element type " + std::to_string(static_cast<int>(type)));
}

cl_channel_order channel_order(unsigned num_channels) {
  switch (num_channels) {
    case 1:
      return CL_R;
    case 2:
      return CL_RG;
    case 4:
      return CL_RGBA;
    case 3:
      throw error(
          "image_from_array: 3 channels; OpenCL's CL_RGB holds only packed channel types "
          "(CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010): use 4 channels (RGBA) "
          "with a padding channel");
    default:
      throw error("image_from_array: " + std::to_string(num_channels) +
                  " channels; images have 1 (CL_R), 2 (CL_RG) or 4 (CL_RGBA)");
  }
}

cl_mem_flags mode_flags(ImageMode mode) {
  switch (mode) {
    case ImageMode::read:
      return CL_MEM_READ_ONLY;
    case ImageMode::write:
      return CL_MEM_WRITE_ONLY;
    case ImageMode::read_write:
      return CL_MEM_READ_WRITE;
  }
  throw error("image_from_array: unknown mode " + std::to_string(static_cast<int>(mode)) +
              "; use ImageMode::read, write or read_write");
}

template <typename T>
T image_info(const cl::Image& image, cl_image_info query, const char* name) {
  T value{};
  check(image.getImageInfo(query, &value), "clGetImageInfo", name);
  return value;
}

}  // namespace

std::size_t element_size(ElementType type) noexcept {
  switch (type) {
    case ElementType::int8:
    case ElementType::uint8:
      return 1;
    case ElementType::int16:
    case ElementType::uint16:
    case ElementType::float16:
      return 2;
    case ElementType::int32:
    case ElementType::uint32:
    case ElementType::float32:
      return 4;
  }
  return 0;
}

const char* element_type_name(ElementType type) noexcept {
  switch (type) {
    case ElementType::int8:
      return "int8";
    case ElementType::uint8:
      return "uint8";
    case ElementType::int16:
      return "int16";
    case ElementType::uint16:
      return "uint16";
    case ElementType::int32:
      return "int32";
    case ElementType::uint32:
      return "uint32";
    case ElementType::float16:
      return "float16";
    case ElementType::float32:
      return "float32";
  }
  return "unknown";
}

namespace detail {

void require_image_support(const cl::Context& context, const char* who) {
  for (const cl::Device& device : context_devices(context)) {
    cl_bool supported = CL_FALSE;
    check(device.getInfo(CL_DEVICE_IMAGE_SUPPORT, &supported), "clGetDeviceInfo",
          "CL_DEVICE_IMAGE_SUPPORT");
    if (supported != CL_TRUE) {
      throw error(std::string(who) + ": device '" + device_name(device) +
                  "' has no image support (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE); images and "
                  "samplers need a context whose devices all support them");
    }
  }
}

std::array<std::size_t, 3> image_box(const cl::Image& image,
                                     const std::array<std::size_t, 3>& origin,
                                     const std::optional<std::array<std::size_t, 3>>& region,
                                     const char* who) {
  const std::array<std::size_t, 3> extent = image_extent(image);
  std::array<std::size_t, 3> box{};
  for (std::size_t axis = 0; axis < 3; ++axis) {
    if (origin[axis] >= extent[axis]) {
      throw error(std::string(who) + ": origin " + std::to_string(origin[axis]) + " along " +
                  "xyz"[axis] + " is outside the image's " + std::to_string(extent[axis]) +
                  " pixels (unused dimensions take origin 0)");
    }
    box[axis] = region ? (*region)[axis] : extent[axis] - origin[axis];
    if (box[axis] == 0) {
      throw error(std::string(who) + ": region of 0 pixels along " + "xyz"[axis] +
                  " (unused dimensions take 1)");
    }
    if (box[axis] > extent[axis] - origin[axis]) {
      throw error(std::string(who) + ": " + std::to_string(box[axis]) + " pixels from " +
                  std::to_string(origin[axis]) + " along " + "xyz"[axis] +
                  " reach past the image's " + std::to_string(extent[axis]));
    }
  }
  return box;
}

}  // namespace detail

HostBuffer host_buffer(const HostArrayView& array) {
  constexpr const char* who = "host_buffer";
  // OpenCL lays out 3-component vectors like 4-component ones.
  const std::size_t slots = array.components == 3 ? 4 : array.components;
  std::size_t bytes = detail::checked_mul(element_size(array.type), slots, who, "an element");
  for (std::size_t extent : array.shape)
    bytes = detail::checked_mul(bytes, extent, who, "the array");
  return HostBuffer{array.data, bytes, false};
}

AnyImage image_from_array(const cl::Context& context, const HostArrayView& array,
                          std::optional<unsigned> num_channels, ImageMode mode, bool norm_int) {
  constexpr const char* who = "image_from_array";
  if (array.data == nullptr) throw error(std::string(who) + ": the array's data is null");
  const unsigned components = array.components;
  const std::string element = std::string(element_type_name(array.type)) +
                              (components == 1 ? std::string() : "x" + std::to_string(components));
  if (components != 1) {
    if (num_channels) {
      throw error(std::string(who) + ": num_channels " + std::to_string(*num_channels) + " with " +
                  element +
                  " elements; the components of vector elements are the channels: leave "
                  "num_channels out, or view the data as scalars whose last extent is the "
                  "channel count");
    }
    if (components == 3) {
      throw error(std::string(who) + ": " + element +
                  " elements (cl_float3 and its kin); images have 1, 2 or 4 channels, and OpenCL "
                  "lays out 3-component vectors like 4-component ones: use 4-component elements "
                  "whose fourth value pads (CL_RGBA)");
    }
    if (components != 2 && components != 4) {
      throw error(std::string(who) + ": " + element + " elements; images have 1, 2 or 4 " +
                  "channels (scalars, or 2- and 4-component vectors such as cl_float2, cl_uchar4)");
    }
  }
  const unsigned channels = components != 1 ? components : num_channels.value_or(1);
  const cl_image_format format{channel_order(channels), channel_type(array.type, norm_int)};
  const cl_mem_flags access = mode_flags(mode);

  std::vector<std::size_t> shape = array.shape;
  if (components == 1 && channels > 1) {
    if (shape.empty() || shape.back() != channels) {
      throw error(std::string(who) + ": shape " + describe_shape(array.shape) + " with " +
                  std::to_string(channels) + " channels; the last extent must be the " +
                  "channel count (e.g. (h, w, " + std::to_string(channels) + "))");
    }
    shape.pop_back();
  }
  if (shape.empty() || shape.size() > 3) {
    throw error(std::string(who) + ": shape " + describe_shape(array.shape) + " with " +
                std::to_string(channels) + " channel(s) leaves " + std::to_string(shape.size()) +
                " image dimensions; images have 1, 2 or 3");
  }
  for (std::size_t extent : shape) {
    if (extent == 0) {
      throw error(std::string(who) + ": shape " + describe_shape(array.shape) +
                  " has an extent of 0; images hold at least one pixel");
    }
  }
  std::array<std::size_t, 3> region{1, 1, 1};
  std::reverse_copy(shape.begin(), shape.end(), region.begin());
  const cl_mem_object_type type = shape.size() == 1   ? CL_MEM_OBJECT_IMAGE1D
                                  : shape.size() == 2 ? CL_MEM_OBJECT_IMAGE2D
                                                      : CL_MEM_OBJECT_IMAGE3D;
  const std::size_t pixel = element_size(array.type) * channels;
  const std::size_t row_pitch = detail::checked_mul(region[0], pixel, who, "the row");
  const std::size_t slice_pitch = detail::checked_mul(row_pitch, region[1], who, "the slice");
  detail::checked_mul(slice_pitch, region[2], who, "the array");

  detail::require_image_support(context, who);
  detail::require_extents(context, type, region, who);
  detail::require_format(context, access, type, format, who);

  cl_image_desc desc{};
  desc.image_type = type;
  desc.image_width = region[0];
  desc.image_height = type == CL_MEM_OBJECT_IMAGE1D ? 0 : region[1];
  desc.image_depth = type == CL_MEM_OBJECT_IMAGE3D ? region[2] : 0;
  desc.image_row_pitch = row_pitch;
  desc.image_slice_pitch = type == CL_MEM_OBJECT_IMAGE3D ? slice_pitch : 0;
  cl_int status = CL_SUCCESS;
  // OpenCL only reads the host data with CL_MEM_COPY_HOST_PTR; the API is not const-correct.
  cl_mem image = clCreateImage(context(), access | CL_MEM_COPY_HOST_PTR, &format, &desc,
                               const_cast<void*>(array.data), &status);
  check(status, "clCreateImage",
        std::string(detail::image_type_name(type)) + " image of shape " +
            describe_shape(array.shape));
  if (type == CL_MEM_OBJECT_IMAGE1D) return cl::Image1D(image);
  if (type == CL_MEM_OBJECT_IMAGE2D) return cl::Image2D(image);
  return cl::Image3D(image);
}

std::array<std::size_t, 3> image_extent(const cl::Image& image) {
  if (image() == nullptr) throw error("image_extent: the image is empty (no cl_mem)");
  cl_mem_object_type type = 0;
  check(image.getInfo(CL_MEM_TYPE, &type), "clGetMemObjectInfo", "CL_MEM_TYPE");
  const auto width = image_info<std::size_t>(image, CL_IMAGE_WIDTH, "CL_IMAGE_WIDTH");
  const auto height = image_info<std::size_t>(image, CL_IMAGE_HEIGHT, "CL_IMAGE_HEIGHT");
  const auto depth = image_info<std::size_t>(image, CL_IMAGE_DEPTH, "CL_IMAGE_DEPTH");
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return {width, 1, 1};
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return {width, image_info<std::size_t>(image, CL_IMAGE_ARRAY_SIZE, "CL_IMAGE_ARRAY_SIZE"), 1};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return {width, height,
              image_info<std::size_t>(image, CL_IMAGE_ARRAY_SIZE, "CL_IMAGE_ARRAY_SIZE")};
    case CL_MEM_OBJECT_IMAGE3D:
      return {width, height, depth};
    default:
      return {width, height, 1};
  }
}

std::vector<std::size_t> image_shape(const cl::Image& image) {
  const std::array<std::size_t, 3> extent = image_extent(image);
  cl_mem_object_type type = 0;
  check(image.getInfo(CL_MEM_TYPE, &type), "clGetMemObjectInfo", "CL_MEM_TYPE");
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return {extent[0]};
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
      return {extent[0], extent[1]};
    default:
      return {extent[0], extent[1], extent[2]};
  }
}

cl::Event enqueue_fill_image(const cl::CommandQueue& queue, const cl::Image& image,
                             const FillColor& color, const std::array<std::size_t, 3>& origin,
                             const std::optional<std::array<std::size_t, 3>>& region,
                             const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_fill_image";
  const std::array<std::size_t, 3> box = detail::image_box(image, origin, region, who);
  const auto format = image_info<cl_image_format>(image, CL_IMAGE_FORMAT, "CL_IMAGE_FORMAT");
  const cl_channel_type type = format.image_channel_data_type;
  const bool is_signed =
      type == CL_SIGNED_INT8 || type == CL_SIGNED_INT16 || type == CL_SIGNED_INT32;
  const bool is_unsigned =
      type == CL_UNSIGNED_INT8 || type == CL_UNSIGNED_INT16 || type == CL_UNSIGNED_INT32;
  const std::size_t wanted = is_signed ? 1 : is_unsigned ? 2 : 0;
  if (color.index() != wanted) {
    static const char* const kinds[] = {"cl_float4", "cl_int4", "cl_uint4"};
    throw error(std::string(who) + ": " + to_string(format) + " takes a " + kinds[wanted] +
                " colour; got a " + kinds[color.index()]);
  }
  const void* bits = std::visit([](const auto& value) -> const void* { return &value; }, color);
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueFillImage(queue(), image(), bits, origin.data(), box.data(), waits.size(),
                           waits.data(), &done()),
        "clEnqueueFillImage");
  return done;
}

}  // namespace polydev::opencl::memory
