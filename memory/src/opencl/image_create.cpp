// create_image: every kind of image of OpenCL 1.2 and later, with the checks PyOpenCL's
// create_image makes and those it leaves to the driver's status codes.
#include <string>

#include "image_checks.hpp"
#include "operations_support.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/array_layout.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory/image.hpp"

namespace polydev::opencl::memory {

namespace {

constexpr const char* who = "create_image";

[[noreturn]] void fail(const std::string& message) {
  throw error(std::string(who) + ": " + message);
}

cl_mem_object_type kind_of(const std::vector<std::size_t>& shape, bool is_array, bool on_buffer) {
  if (shape.empty() || shape.size() > 3) {
    fail("shape " + describe_shape(shape) + " has " + std::to_string(shape.size()) +
         " extents; images have 1 to 3, x first: (w,), (w, h), (w, h, d), or with is_array "
         "(w, n) and (w, h, n)");
  }
  for (std::size_t extent : shape) {
    if (extent == 0) {
      fail("shape " + describe_shape(shape) +
           " has an extent of 0; images hold at least one pixel");
    }
  }
  if (on_buffer && is_array) {
    fail("buffer and is_array together; an image on a buffer is a single 1-D image");
  }
  if (on_buffer && shape.size() != 1) {
    fail("buffer with shape " + describe_shape(shape) +
         "; only 1-D images (shape (w,)) live on a buffer");
  }
  switch (shape.size()) {
    case 1:
      if (is_array) {
        fail("is_array with shape " + describe_shape(shape) +
             "; an array of 1-D images has shape (w, n), one of 2-D images (w, h, n)");
      }
      return on_buffer ? CL_MEM_OBJECT_IMAGE1D_BUFFER : CL_MEM_OBJECT_IMAGE1D;
    case 2:
      return is_array ? CL_MEM_OBJECT_IMAGE1D_ARRAY : CL_MEM_OBJECT_IMAGE2D;
    default:
      return is_array ? CL_MEM_OBJECT_IMAGE2D_ARRAY : CL_MEM_OBJECT_IMAGE3D;
  }
}

// The flags against the memory that comes with them (OpenCL's rules, checked before the driver,
// whose status codes do not say which rule).
void check_flags(cl_mem_flags flags, const std::optional<HostBuffer>& hostbuf, bool on_buffer) {
  const int access = ((flags & CL_MEM_READ_WRITE) != 0) + ((flags & CL_MEM_WRITE_ONLY) != 0) +
                     ((flags & CL_MEM_READ_ONLY) != 0);
  if (access > 1) {
    fail(
        "flags hold more than one of CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY; "
        "give one");
  }
  const bool use = (flags & CL_MEM_USE_HOST_PTR) != 0;
  const bool copy = (flags & CL_MEM_COPY_HOST_PTR) != 0;
  const bool alloc = (flags & CL_MEM_ALLOC_HOST_PTR) != 0;
  if (use && copy) {
    fail(
        "CL_MEM_USE_HOST_PTR and CL_MEM_COPY_HOST_PTR together; an image either lives in the "
        "host memory or copies it");
  }
  if (use && alloc) {
    fail(
        "CL_MEM_USE_HOST_PTR and CL_MEM_ALLOC_HOST_PTR together; an image either lives in the "
        "caller's host memory or in memory OpenCL allocates");
  }
  if (on_buffer) {
    if (hostbuf || use || copy || alloc) {
      fail(
          "a 1-D image on a buffer takes its pixels from the buffer; leave out hostbuf and "
          "CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR, CL_MEM_ALLOC_HOST_PTR");
    }
    return;
  }
  if (hostbuf && !use && !copy) {
    fail(
        "hostbuf without CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR in flags; OpenCL would "
        "not read it (PyOpenCL warns and ignores it): add one of them");
  }
  if (!hostbuf && (use || copy)) {
    fail(std::string(use ? "CL_MEM_USE_HOST_PTR" : "CL_MEM_COPY_HOST_PTR") +
         " without hostbuf; pass the host memory (host_buffer(data, count)) or leave the flag out");
  }
  if (!hostbuf) return;
  if (hostbuf->data == nullptr) fail("hostbuf's data is null");
  if (use && (flags & CL_MEM_READ_ONLY) == 0 && !hostbuf->writable) {
    fail(
        "hostbuf is read-only (made from a const pointer), but CL_MEM_USE_HOST_PTR without "
        "CL_MEM_READ_ONLY lets kernels write it; add CL_MEM_READ_ONLY, copy it with "
        "CL_MEM_COPY_HOST_PTR, or pass writable memory");
  }
}

// The pitches OpenCL gets (0 where a dimension has none) and the bytes of host memory they span.
struct HostLayout {
  std::size_t row_pitch = 0;
  std::size_t slice_pitch = 0;
  std::size_t bytes = 0;
};

std::size_t chosen_pitch(const std::vector<std::size_t>& pitches, std::size_t index,
                         std::size_t packed) {
  return index < pitches.size() && pitches[index] != 0 ? pitches[index] : packed;
}

HostLayout host_layout(cl_mem_object_type type, const std::vector<std::size_t>& shape,
                       const std::vector<std::size_t>& pitches, std::size_t itemsize) {
  HostLayout layout;
  const std::size_t packed_row = detail::checked_mul(shape[0], itemsize, who, "the row");
  if (type == CL_MEM_OBJECT_IMAGE1D) {
    layout.bytes = packed_row;
    return layout;
  }
  layout.row_pitch = chosen_pitch(pitches, 0, packed_row);
  const char* row_name = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? "pitch (from one 1-D image to the "
                                                               "next)"
                                                             : "row pitch";
  if (layout.row_pitch < packed_row) {
    fail(std::string(row_name) + " " + std::to_string(layout.row_pitch) + " is less than the " +
         std::to_string(packed_row) + " bytes of a row (" + std::to_string(shape[0]) +
         " pixels of " + std::to_string(itemsize) + " bytes)");
  }
  if (layout.row_pitch % itemsize != 0) {
    fail(std::string(row_name) + " " + std::to_string(layout.row_pitch) +
         " is not a multiple of the " + std::to_string(itemsize) + "-byte pixel");
  }
  if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    // An array of 1-D images steps from one to the next by its slice pitch, which OpenCL takes
    // as the row pitch.
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) layout.slice_pitch = layout.row_pitch;
    layout.bytes = detail::checked_mul(layout.row_pitch, shape[1], who, "the image");
    return layout;
  }
  const std::size_t packed_slice = detail::checked_mul(layout.row_pitch, shape[1], who, "a slice");
  layout.slice_pitch = chosen_pitch(pitches, 1, packed_slice);
  if (layout.slice_pitch < packed_slice) {
    fail("slice pitch " + std::to_string(layout.slice_pitch) + " is less than the " +
         std::to_string(packed_slice) + " bytes of a slice (" + std::to_string(shape[1]) +
         " rows of " + std::to_string(layout.row_pitch) + " bytes)");
  }
  if (layout.slice_pitch % layout.row_pitch != 0) {
    fail("slice pitch " + std::to_string(layout.slice_pitch) +
         " is not a multiple of the row pitch " + std::to_string(layout.row_pitch));
  }
  layout.bytes = detail::checked_mul(layout.slice_pitch, shape[2], who, "the image");
  return layout;
}

std::size_t itemsize_of(const ImageFormat& format) {
  try {
    return format.itemsize();
  } catch (const error& unknown) {
    fail(std::string("the pixel size is needed here, and ") + unknown.what());
  }
}

std::array<std::size_t, 3> extent_of(const std::vector<std::size_t>& shape) {
  std::array<std::size_t, 3> extent{1, 1, 1};
  for (std::size_t axis = 0; axis < shape.size(); ++axis) extent[axis] = shape[axis];
  return extent;
}

AnyImage wrap(cl_mem image, cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
      return cl::Image1D(image);
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return cl::Image1DBuffer(image);
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return cl::Image1DArray(image);
    case CL_MEM_OBJECT_IMAGE2D:
      return cl::Image2D(image);
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return cl::Image2DArray(image);
    default:
      return cl::Image3D(image);
  }
}

}  // namespace

AnyImage create_image(const cl::Context& context, cl_mem_flags flags, const ImageFormat& format,
                      const std::vector<std::size_t>& shape,
                      const std::vector<std::size_t>& pitches,
                      const std::optional<HostBuffer>& hostbuf, bool is_array,
                      const std::optional<cl::Buffer>& buffer) {
  if (context() == nullptr) fail("the context is empty (no cl_context)");
  if (buffer && (*buffer)() == nullptr) fail("buffer is empty (no cl_mem)");
  const cl_mem_object_type type = kind_of(shape, is_array, buffer.has_value());
  check_flags(flags, hostbuf, buffer.has_value());

  HostLayout layout;
  if (!pitches.empty() && !hostbuf) {
    fail("pitches " + describe_shape(pitches) +
         " without hostbuf; pitches describe host memory, and OpenCL takes none without it");
  }
  if (pitches.size() > shape.size() - 1) {
    const char* allowed = shape.size() == 1                     ? "no pitches"
                          : type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? "1 pitch (from image to image)"
                          : shape.size() == 2                   ? "1 pitch (the row's)"
                                                                : "2 pitches (row, slice)";
    fail("a " + std::string(detail::image_type_name(type)) + " image takes " + allowed + "; got " +
         std::to_string(pitches.size()));
  }
  if (hostbuf) {
    layout = host_layout(type, shape, pitches, itemsize_of(format));
    if (hostbuf->size < layout.bytes) {
      fail("hostbuf holds " + std::to_string(hostbuf->size) + " bytes; the " +
           detail::image_type_name(type) + " image of shape " + describe_shape(shape) + " in " +
           to_string(format) + " with these pitches needs " + std::to_string(layout.bytes) +
           " (buffer too small)");
    }
  }
  detail::require_image_support(context, who);
  detail::require_extents(context, type, extent_of(shape), who);
  if (buffer) {
    const std::size_t needed = detail::checked_mul(shape[0], itemsize_of(format), who, "the image");
    std::size_t size = 0;
    check(buffer->getInfo(CL_MEM_SIZE, &size), "clGetMemObjectInfo", "CL_MEM_SIZE");
    if (size < needed) {
      fail("buffer holds " + std::to_string(size) + " bytes; a 1-D image of " +
           std::to_string(shape[0]) + " pixels in " + to_string(format) + " needs " +
           std::to_string(needed));
    }
  }
  detail::require_format(context, flags, type, format, who);

  cl_image_desc desc{};
  desc.image_type = type;
  desc.image_width = shape[0];
  const bool one_dimensional = type == CL_MEM_OBJECT_IMAGE1D ||
                               type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                               type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  desc.image_height = one_dimensional ? 0 : shape[1];
  desc.image_depth = type == CL_MEM_OBJECT_IMAGE3D ? shape[2] : 0;
  desc.image_array_size = type == CL_MEM_OBJECT_IMAGE1D_ARRAY   ? shape[1]
                          : type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? shape[2]
                                                                : 0;
  desc.image_row_pitch = layout.row_pitch;
  desc.image_slice_pitch = layout.slice_pitch;
  desc.buffer = buffer ? (*buffer)() : nullptr;
  const cl_image_format raw = static_cast<cl::ImageFormat>(format);
  cl_int status = CL_SUCCESS;
  // OpenCL writes through the host pointer only with CL_MEM_USE_HOST_PTR, which check_flags
  // allowed for const memory only when kernels cannot write; the API is not const-correct.
  cl_mem image = clCreateImage(context(), flags, &raw, &desc,
                               hostbuf ? const_cast<void*>(hostbuf->data) : nullptr, &status);
  check(status, "clCreateImage",
        std::string(detail::image_type_name(type)) + " image of shape " + describe_shape(shape) +
            " in " + to_string(format));
  return wrap(image, type);
}

}  // namespace polydev::opencl::memory
