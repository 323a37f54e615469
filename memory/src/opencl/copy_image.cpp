// enqueue_copy to and from images: host <-> image, buffer <-> image, image <-> image.
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "operations_support.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory/copy.hpp"

namespace polydev::opencl::memory {

namespace {

// What the checks need to know of an image: its kind, pixel size, format and extent, and how many
// of x, y, z it uses.
struct ImageGeometry {
  cl_mem_object_type type = 0;
  std::size_t element_size = 0;
  cl_image_format format{};
  ImageBox extent{1, 1, 1};
  std::size_t dimensions = 0;
};

template <typename T>
T image_info(const cl::Image& image, cl_image_info what, const char* name) {
  T value{};
  check(image.getImageInfo(what, &value), "clGetImageInfo", name);
  return value;
}

ImageGeometry geometry(const cl::Image& image, const char* who, const char* name) {
  if (image() == nullptr) {
    throw std::invalid_argument(std::string(who) + ": " + name + " is an empty image (no cl_mem)");
  }
  ImageGeometry g;
  check(image.getInfo(CL_MEM_TYPE, &g.type), "clGetMemObjectInfo", "CL_MEM_TYPE");
  g.element_size = image_info<std::size_t>(image, CL_IMAGE_ELEMENT_SIZE, "CL_IMAGE_ELEMENT_SIZE");
  g.format = image_info<cl_image_format>(image, CL_IMAGE_FORMAT, "CL_IMAGE_FORMAT");
  const auto width = image_info<std::size_t>(image, CL_IMAGE_WIDTH, "CL_IMAGE_WIDTH");
  switch (g.type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      g.extent = {width, 1, 1};
      g.dimensions = 1;
      break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      g.extent = {width, image_info<std::size_t>(image, CL_IMAGE_ARRAY_SIZE, "CL_IMAGE_ARRAY_SIZE"),
                  1};
      g.dimensions = 2;
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      g.extent = {width, image_info<std::size_t>(image, CL_IMAGE_HEIGHT, "CL_IMAGE_HEIGHT"), 1};
      g.dimensions = 2;
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      g.extent = {width, image_info<std::size_t>(image, CL_IMAGE_HEIGHT, "CL_IMAGE_HEIGHT"),
                  image_info<std::size_t>(image, CL_IMAGE_ARRAY_SIZE, "CL_IMAGE_ARRAY_SIZE")};
      g.dimensions = 3;
      break;
    default:  // CL_MEM_OBJECT_IMAGE3D
      g.extent = {width, image_info<std::size_t>(image, CL_IMAGE_HEIGHT, "CL_IMAGE_HEIGHT"),
                  image_info<std::size_t>(image, CL_IMAGE_DEPTH, "CL_IMAGE_DEPTH")};
      g.dimensions = 3;
      break;
  }
  return g;
}

const char* kind_name(cl_mem_object_type type) noexcept {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
      return "1D image";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return "1D image buffer";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return "1D image array";
    case CL_MEM_OBJECT_IMAGE2D:
      return "2D image";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return "2D image array";
    default:
      return "3D image";
  }
}

// What coordinate `axis` means for an image of `type`.
const char* axis_name(cl_mem_object_type type, std::size_t axis) noexcept {
  if (axis == 0) return "width";
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY && axis == 1) return "array size";
  if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY && axis == 2) return "array size";
  return axis == 1 ? "height" : "depth";
}

// Checks the box at `origin` of `region` against the image; true when it holds no pixel.
bool check_box(const ImageGeometry& image, const ImageBox& origin, const ImageBox& region,
               const char* who, const char* image_name, const char* origin_name,
               const char* region_name) {
  const std::string prefix = std::string(who) + ": ";
  bool empty = false;
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const std::string index = "[" + std::to_string(axis) + "]";
    if (axis >= image.dimensions) {
      if (origin[axis] != 0) {
        throw std::invalid_argument(
            prefix + origin_name + index + " is " + std::to_string(origin[axis]) + "; " +
            image_name + " is a " + kind_name(image.type) + ", which uses " +
            std::to_string(image.dimensions) + " coordinate(s): the others take origin 0");
      }
      if (region[axis] != 1) {
        throw std::invalid_argument(
            prefix + region_name + index + " is " + std::to_string(region[axis]) + "; " +
            image_name + " is a " + kind_name(image.type) + ", which uses " +
            std::to_string(image.dimensions) + " coordinate(s): the others take region 1");
      }
      continue;
    }
    const std::size_t limit = image.extent[axis];
    if (origin[axis] > limit || region[axis] > limit - origin[axis]) {
      throw std::out_of_range(
          prefix + origin_name + index + " " + std::to_string(origin[axis]) + " + " + region_name +
          index + " " + std::to_string(region[axis]) + " reach past the " +
          axis_name(image.type, axis) + " " + std::to_string(limit) + " of " + image_name + " (a " +
          kind_name(image.type) + "); their sum must be at most " + std::to_string(limit));
    }
    empty = empty || region[axis] == 0;
  }
  return empty;
}

std::size_t multiply(std::size_t a, std::size_t b, const char* who, const char* what) {
  if (a != 0 && b > std::numeric_limits<std::size_t>::max() / a) {
    throw std::out_of_range(std::string(who) + ": " + what + " overflows size_t");
  }
  return a * b;
}

std::size_t add(std::size_t a, std::size_t b, const char* who, const char* what) {
  if (a > std::numeric_limits<std::size_t>::max() - b) {
    throw std::out_of_range(std::string(who) + ": " + what + " overflows size_t");
  }
  return a + b;
}

// Checks the host side of an image transfer of a non-empty `region`: the pitches as OpenCL reads
// them (0: packed), and the bytes the host box spans against `host_bytes`.
void check_host_layout(const ImageGeometry& image, const ImageBox& region,
                       const ImagePitches& pitches, std::size_t host_bytes, const char* who,
                       const char* host_name) {
  const std::string prefix = std::string(who) + ": ";
  const std::size_t row_bytes = multiply(region[0], image.element_size, who, "the row");
  const std::size_t row_pitch = pitches[0] == 0 ? row_bytes : pitches[0];
  if (row_pitch < row_bytes) {
    throw std::invalid_argument(
        prefix + "row pitch (pitches[0]) " + std::to_string(pitches[0]) + " is less than the " +
        std::to_string(row_bytes) + " bytes of a row (region[0] " + std::to_string(region[0]) +
        " pixels of " + std::to_string(image.element_size) + " bytes); use 0 for packed rows");
  }
  const bool one_d_array = image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  const bool has_slices = one_d_array || image.dimensions == 3;
  if (!has_slices) {
    if (pitches[1] != 0) {
      throw std::invalid_argument(prefix + "slice pitch (pitches[1]) " +
                                  std::to_string(pitches[1]) + " on a " + kind_name(image.type) +
                                  ", which has no slices; it must be 0");
    }
    const std::size_t end = add(multiply(row_pitch, region[1] - 1, who, "the host box"), row_bytes,
                                who, "the host box");
    if (end > host_bytes) {
      throw std::out_of_range(prefix + "the host box (region {" + std::to_string(region[0]) + ", " +
                              std::to_string(region[1]) + ", 1}, row pitch " +
                              std::to_string(row_pitch) + ") spans " + std::to_string(end) +
                              " bytes, more than the " + std::to_string(host_bytes) + " bytes of " +
                              host_name);
    }
    return;
  }
  // A 1D array's images follow each other along y, each a slice of one row.
  const std::size_t rows = one_d_array ? 1 : region[1];
  const std::size_t slices = one_d_array ? region[1] : region[2];
  const std::size_t least_slice = multiply(row_pitch, rows, who, "the slice");
  const std::size_t slice_pitch = pitches[1] == 0 ? least_slice : pitches[1];
  // OpenCL states the least slice pitch only; NVIDIA's driver also refuses one that is not a
  // multiple of the row pitch (as OpenCL does for buffer boxes and image creation), so polydev
  // refuses it everywhere.
  if (slice_pitch < least_slice || slice_pitch % row_pitch != 0) {
    throw std::invalid_argument(
        prefix + "slice pitch (pitches[1]) " + std::to_string(pitches[1]) +
        " must be a multiple of the row pitch " + std::to_string(row_pitch) + " and at least the " +
        std::to_string(least_slice) + " bytes of a slice (row pitch times " + std::to_string(rows) +
        " row(s)); use 0 for packed slices");
  }
  const std::size_t last_slice = multiply(slice_pitch, slices - 1, who, "the host box");
  const std::size_t last_row = multiply(row_pitch, rows - 1, who, "the host box");
  const std::size_t end =
      add(add(last_slice, last_row, who, "the host box"), row_bytes, who, "the host box");
  if (end > host_bytes) {
    throw std::out_of_range(prefix + "the host box (region {" + std::to_string(region[0]) + ", " +
                            std::to_string(region[1]) + ", " + std::to_string(region[2]) +
                            "}, row pitch " + std::to_string(row_pitch) + ", slice pitch " +
                            std::to_string(slice_pitch) + ") spans " + std::to_string(end) +
                            " bytes, more than the " + std::to_string(host_bytes) + " bytes of " +
                            host_name);
  }
}

// The bytes of the box `region` of `image`, pixels packed.
std::size_t packed_bytes(const ImageGeometry& image, const ImageBox& region, const char* who) {
  std::size_t bytes = image.element_size;
  for (std::size_t extent : region) bytes = multiply(bytes, extent, who, "the box's bytes");
  return bytes;
}

// Checks a transfer between the box at `origin` of `region` in `image` and host memory laid out by
// `pitches`, in either direction; true when the box holds no pixel, and then the host side is not
// looked at.
bool check_image_host_copy(const cl::Image& image, const char* image_name, const void* host,
                           std::size_t host_bytes, const char* host_name, const ImageBox& origin,
                           const ImageBox& region, const ImagePitches& pitches, const char* who) {
  const ImageGeometry image_geometry = geometry(image, who, image_name);
  if (check_box(image_geometry, origin, region, who, image_name, "origin", "region")) return true;
  check_host_layout(image_geometry, region, pitches, host_bytes, who, host_name);
  detail::require_pointer(host, host_bytes, who, host_name);
  return false;
}

// Checks a copy between the box at `origin` of `region` in `image` and its packed pixels at
// `offset` of `buffer`, in either direction; true when the box holds no pixel (the buffer range is
// checked all the same).
bool check_image_buffer_copy(const cl::Image& image, const char* image_name,
                             const BufferSpan& buffer, const char* buffer_name, std::size_t offset,
                             const ImageBox& origin, const ImageBox& region, const char* who) {
  const ImageGeometry image_geometry = geometry(image, who, image_name);
  const bool empty = check_box(image_geometry, origin, region, who, image_name, "origin", "region");
  detail::require_range(offset, packed_bytes(image_geometry, region, who), buffer.size(), who,
                        "offset", "the box's pixels", buffer_name);
  return empty;
}

std::string format_text(const cl_image_format& format) {
  char text[64];
  std::snprintf(text, sizeof text, "{order 0x%X, type 0x%X}", format.image_channel_order,
                format.image_channel_data_type);
  return text;
}

}  // namespace

cl::Event enqueue_copy(const cl::CommandQueue& queue, const HostSpan& dest, const cl::Image& src,
                       const ImageBox& origin, const ImageBox& region, const ImagePitches& pitches,
                       bool is_blocking, const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (image -> host)";
  if (check_image_host_copy(src, "src", dest.data(), dest.size(), "dest", origin, region, pitches,
                            who)) {
    return detail::enqueue_marker(queue, wait_for, is_blocking, who);
  }
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueReadImage(queue(), src(), is_blocking ? CL_TRUE : CL_FALSE, origin.data(),
                           region.data(), pitches[0], pitches[1], dest.data(), waits.size(),
                           waits.data(), &done()),
        "clEnqueueReadImage");
  return done;
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const cl::Image& dest,
                       const ConstHostSpan& src, const ImageBox& origin, const ImageBox& region,
                       const ImagePitches& pitches, bool is_blocking,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (host -> image)";
  if (check_image_host_copy(dest, "dest", src.data(), src.size(), "src", origin, region, pitches,
                            who)) {
    return detail::enqueue_marker(queue, wait_for, is_blocking, who);
  }
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueWriteImage(queue(), dest(), is_blocking ? CL_TRUE : CL_FALSE, origin.data(),
                            region.data(), pitches[0], pitches[1], src.data(), waits.size(),
                            waits.data(), &done()),
        "clEnqueueWriteImage");
  return done;
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest, const cl::Image& src,
                       std::size_t offset, const ImageBox& origin, const ImageBox& region,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (image -> buffer)";
  if (check_image_buffer_copy(src, "src", dest, "dest", offset, origin, region, who)) {
    return detail::enqueue_marker(queue, wait_for, false, who);
  }
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueCopyImageToBuffer(queue(), src(), dest.buffer()(), origin.data(), region.data(),
                                   offset, waits.size(), waits.data(), &done()),
        "clEnqueueCopyImageToBuffer");
  return done;
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const cl::Image& dest, const BufferSpan& src,
                       std::size_t offset, const ImageBox& origin, const ImageBox& region,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (buffer -> image)";
  if (check_image_buffer_copy(dest, "dest", src, "src", offset, origin, region, who)) {
    return detail::enqueue_marker(queue, wait_for, false, who);
  }
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueCopyBufferToImage(queue(), src.buffer()(), dest(), offset, origin.data(),
                                   region.data(), waits.size(), waits.data(), &done()),
        "clEnqueueCopyBufferToImage");
  return done;
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const cl::Image& dest, const cl::Image& src,
                       const ImageBox& src_origin, const ImageBox& dest_origin,
                       const ImageBox& region, const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (image -> image)";
  const ImageGeometry from = geometry(src, who, "src");
  const ImageGeometry to = geometry(dest, who, "dest");
  if (from.format.image_channel_order != to.format.image_channel_order ||
      from.format.image_channel_data_type != to.format.image_channel_data_type) {
    throw std::invalid_argument(std::string(who) + ": src has format " + format_text(from.format) +
                                " and dest " + format_text(to.format) +
                                "; OpenCL copies between images of one format only");
  }
  const bool empty = check_box(from, src_origin, region, who, "src", "src_origin", "region");
  check_box(to, dest_origin, region, who, "dest", "dest_origin", "region");
  if (empty) return detail::enqueue_marker(queue, wait_for, false, who);
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueCopyImage(queue(), src(), dest(), src_origin.data(), dest_origin.data(),
                           region.data(), waits.size(), waits.data(), &done()),
        "clEnqueueCopyImage");
  return done;
}

}  // namespace polydev::opencl::memory
