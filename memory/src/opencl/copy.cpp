// enqueue_copy between buffers and host memory, and between buffers (linear and rectangular).
// Images are in copy_image.cpp, SVM in copy_svm.cpp.
#include "polydev/opencl/memory/copy.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "operations_support.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl::memory {

namespace {

cl_bool blocking_flag(bool is_blocking) noexcept { return is_blocking ? CL_TRUE : CL_FALSE; }

void require_offset(std::size_t offset, std::size_t available, const char* who, const char* name,
                    const char* target) {
  if (offset > available) {
    throw std::out_of_range(std::string(who) + ": " + name + " " + std::to_string(offset) +
                            " is past the " + std::to_string(available) + " bytes of " + target +
                            "; it must be at most " + std::to_string(available));
  }
}

// Refuses a copy between overlapping byte ranges of one memory object: OpenCL's
// CL_MEM_COPY_OVERLAP, which a driver may not detect between sub-buffers of one buffer.
void require_disjoint(const BufferSpan& dest, std::size_t dst_offset, const BufferSpan& src,
                      std::size_t src_offset, std::size_t bytes, const char* who) {
  const auto [dest_base, dest_root] = detail::root_of(dest.buffer());
  const auto [src_base, src_root] = detail::root_of(src.buffer());
  if (dest_root() != src_root()) return;
  const std::size_t to = dest_base + dst_offset;
  const std::size_t from = src_base + src_offset;
  if (to < from + bytes && from < to + bytes) {
    throw std::invalid_argument(
        std::string(who) + ": the " + std::to_string(bytes) + " bytes from byte " +
        std::to_string(from) + " and to byte " + std::to_string(to) +
        " of one memory object overlap; OpenCL copies between disjoint ranges only");
  }
}

}  // namespace

cl::Event enqueue_copy(const cl::CommandQueue& queue, const HostSpan& dest, const BufferSpan& src,
                       std::size_t src_offset, bool is_blocking,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (buffer -> host)";
  detail::require_range(src_offset, dest.size(), src.size(), who, "src_offset", "the size of dest",
                        "src");
  if (dest.size() == 0) return detail::enqueue_marker(queue, wait_for, is_blocking, who);
  detail::require_pointer(dest.data(), dest.size(), who, "dest");
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueReadBuffer(queue(), src.buffer()(), blocking_flag(is_blocking), src_offset,
                            dest.size(), dest.data(), waits.size(), waits.data(), &done()),
        "clEnqueueReadBuffer");
  return done;
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest,
                       const ConstHostSpan& src, std::size_t dst_offset, bool is_blocking,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (host -> buffer)";
  detail::require_range(dst_offset, src.size(), dest.size(), who, "dst_offset", "the size of src",
                        "dest");
  if (src.size() == 0) return detail::enqueue_marker(queue, wait_for, is_blocking, who);
  detail::require_pointer(src.data(), src.size(), who, "src");
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueWriteBuffer(queue(), dest.buffer()(), blocking_flag(is_blocking), dst_offset,
                             src.size(), src.data(), waits.size(), waits.data(), &done()),
        "clEnqueueWriteBuffer");
  return done;
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const HostSpan& dest, const BufferSpan& src,
                       const RectSide& buffer_side, const RectSide& host_side,
                       const RectRegion& region, bool is_blocking,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (buffer -> host, rectangular)";
  if (detail::empty_box(region)) return detail::enqueue_marker(queue, wait_for, is_blocking, who);
  detail::require_pointer(dest.data(), dest.size(), who, "dest");
  const detail::ResolvedRectSide buffer =
      detail::resolve_rect_side(buffer_side, region, src.size(), who, "buffer side (src)");
  const detail::ResolvedRectSide host =
      detail::resolve_rect_side(host_side, region, dest.size(), who, "host side (dest)");
  return detail::enqueue_read_rect(queue, src.buffer(), buffer, dest.data(), host, region,
                                   is_blocking, wait_for);
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest,
                       const ConstHostSpan& src, const RectSide& buffer_side,
                       const RectSide& host_side, const RectRegion& region, bool is_blocking,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (host -> buffer, rectangular)";
  if (detail::empty_box(region)) return detail::enqueue_marker(queue, wait_for, is_blocking, who);
  detail::require_pointer(src.data(), src.size(), who, "src");
  const detail::ResolvedRectSide buffer =
      detail::resolve_rect_side(buffer_side, region, dest.size(), who, "buffer side (dest)");
  const detail::ResolvedRectSide host =
      detail::resolve_rect_side(host_side, region, src.size(), who, "host side (src)");
  return detail::enqueue_write_rect(queue, dest.buffer(), buffer, src.data(), host, region,
                                    is_blocking, wait_for);
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest, const BufferSpan& src,
                       std::size_t byte_count, std::size_t src_offset, std::size_t dst_offset,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (buffer -> buffer)";
  if (byte_count == to_end) {
    require_offset(src_offset, src.size(), who, "src_offset", "src");
    require_offset(dst_offset, dest.size(), who, "dst_offset", "dest");
    byte_count = std::min(src.size() - src_offset, dest.size() - dst_offset);
  }
  detail::require_range(src_offset, byte_count, src.size(), who, "src_offset", "byte_count", "src");
  detail::require_range(dst_offset, byte_count, dest.size(), who, "dst_offset", "byte_count",
                        "dest");
  if (byte_count == 0) return detail::enqueue_marker(queue, wait_for, false, who);
  require_disjoint(dest, dst_offset, src, src_offset, byte_count, who);
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueCopyBuffer(queue(), src.buffer()(), dest.buffer()(), src_offset, dst_offset,
                            byte_count, waits.size(), waits.data(), &done()),
        "clEnqueueCopyBuffer");
  return done;
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const BufferSpan& dest, const BufferSpan& src,
                       const RectSide& src_side, const RectSide& dst_side, const RectRegion& region,
                       const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (buffer -> buffer, rectangular)";
  if (detail::empty_box(region)) return detail::enqueue_marker(queue, wait_for, false, who);
  const detail::ResolvedRectSide from =
      detail::resolve_rect_side(src_side, region, src.size(), who, "src side");
  const detail::ResolvedRectSide to =
      detail::resolve_rect_side(dst_side, region, dest.size(), who, "dst side");
  return detail::enqueue_copy_rect(queue, src.buffer(), from, dest.buffer(), to, region, wait_for);
}

}  // namespace polydev::opencl::memory
