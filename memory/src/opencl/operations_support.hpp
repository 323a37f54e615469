#pragma once

// Pieces shared by the memory operations (buffer_operations.cpp, svm_operations.cpp, mapping.cpp,
// image.cpp, sampler.cpp, copy*.cpp, memory_object.cpp): wait lists, markers for empty
// operations, overflow-checked arithmetic, names, boxes of rectangular transfers, image checks.

#include <CL/opencl.hpp>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "polydev/opencl/memory/buffer_operations.hpp"

namespace polydev::opencl::memory::detail {

// The raw handles of `events`, for the C API (cl::Event is a handle, but relying on its layout
// would be the bindings' business, not ours).
class WaitList {
 public:
  explicit WaitList(const std::vector<cl::Event>& events);
  cl_uint size() const noexcept { return static_cast<cl_uint>(raw_.size()); }
  const cl_event* data() const noexcept { return raw_.empty() ? nullptr : raw_.data(); }

 private:
  std::vector<cl_event> raw_;
};

// A marker after `wait_for` (or after everything before it on `queue`), for operations that move
// no data but owe their caller an event. Waited for when `blocking`.
cl::Event enqueue_marker(const cl::CommandQueue& queue, const std::vector<cl::Event>& wait_for,
                         bool blocking, const char* who);

// a + b and a * b; polydev::error "<who>: <what> overflows size_t" when they do not fit.
std::size_t checked_add(std::size_t a, std::size_t b, const char* who, const char* what);
std::size_t checked_mul(std::size_t a, std::size_t b, const char* who, const char* what);

// `CL_DEVICE_NAME`, or "(unnamed)" when the query fails (used in messages only).
std::string device_name(const cl::Device& device);

// require_opencl_version (polydev/opencl/memory/detail/svm_operations.hpp) for the device of
// `queue`.
// @throws polydev::backend_error when the device or its version cannot be queried.
void require_queue_opencl_version(const cl::CommandQueue& queue, int major, int minor,
                                  const char* who);

// The devices of `context`. @throws polydev::backend_error
std::vector<cl::Device> context_devices(const cl::Context& context);

// @throws polydev::error "<who>: pattern of N bytes; OpenCL fills with patterns of 1, 2, 4, 8, 16,
// 32, 64 or 128 bytes" unless `pattern_size` is one of those; also for a null `pattern`.
void check_fill_pattern(const void* pattern, std::size_t pattern_size, const char* who);

// @throws polydev::error for bits other than CL_MAP_READ, CL_MAP_WRITE and
// CL_MAP_WRITE_INVALIDATE_REGION, or the last with either of the others (OpenCL forbids it; PoCL
// does not check).
void check_map_flags(cl_map_flags flags, const char* who);

// A side of a rectangular buffer transfer with OpenCL's 0 pitches resolved, and the byte after its
// box's last byte.
struct ResolvedRectSide {
  std::array<std::size_t, 3> origin;
  std::size_t row_pitch;
  std::size_t slice_pitch;
  std::size_t end;
};

// Resolves the 0 pitches of `side` as OpenCL does and checks its box (`region`, none of whose
// extents may be 0) against `available` bytes. Messages start "<who>: <name> ".
// @throws std::invalid_argument for a row pitch below region[0], or a slice pitch below
// row_pitch * region[1] or not a multiple of row_pitch (OpenCL's rules);
// std::out_of_range for a box that ends past `available` bytes or whose end overflows size_t.
ResolvedRectSide resolve_rect_side(const RectSide& side, const RectRegion& region,
                                   std::size_t available, const char* who, const char* name);

// True when the box `region` holds no byte (an extent is 0): a rectangular transfer of it only
// enqueues a marker.
bool empty_box(const RectRegion& region) noexcept;

// clEnqueueReadBufferRect (buffer -> host), clEnqueueWriteBufferRect (host -> buffer) and
// clEnqueueCopyBufferRect (buffer `from` -> buffer `to`) of the box `region` between sides that
// resolve_rect_side resolved and checked, after `wait_for`; the reads and writes waited for when
// `blocking`. @throws polydev::backend_error when OpenCL fails.
cl::Event enqueue_read_rect(const cl::CommandQueue& queue, const cl::Buffer& buffer,
                            const ResolvedRectSide& buffer_side, void* host,
                            const ResolvedRectSide& host_side, const RectRegion& region,
                            bool blocking, const std::vector<cl::Event>& wait_for);
cl::Event enqueue_write_rect(const cl::CommandQueue& queue, const cl::Buffer& buffer,
                             const ResolvedRectSide& buffer_side, const void* host,
                             const ResolvedRectSide& host_side, const RectRegion& region,
                             bool blocking, const std::vector<cl::Event>& wait_for);
cl::Event enqueue_copy_rect(const cl::CommandQueue& queue, const cl::Buffer& source,
                            const ResolvedRectSide& from, const cl::Buffer& destination,
                            const ResolvedRectSide& to, const RectRegion& region,
                            const std::vector<cl::Event>& wait_for);

// @throws std::out_of_range "<who>: <offset_name> <offset> + <bytes> bytes (<what>) reach past the
// <available> bytes of <target>; ..." unless offset + bytes <= available (without overflow).
void require_range(std::size_t offset, std::size_t bytes, std::size_t available, const char* who,
                   const char* offset_name, const char* what, const char* target);

// @throws std::invalid_argument "<who>: <name> is a null pointer ..." for a null `data` with
// bytes to copy.
void require_pointer(const void* data, std::size_t bytes, const char* who, const char* name);

// `CL_MEM_OFFSET` of a sub-buffer within its parent, and that parent; (0, buffer) otherwise.
// @throws polydev::backend_error when a query fails.
std::pair<std::size_t, cl::Buffer> root_of(const cl::Buffer& buffer);

// Defined in image.cpp.

// The box at `origin` of `image`: `region`, or from `origin` to the end.
// @throws polydev::error (prefixed with `who`) for an empty handle, an empty box, or one past the
// image.
std::array<std::size_t, 3> image_box(const cl::Image& image,
                                     const std::array<std::size_t, 3>& origin,
                                     const std::optional<std::array<std::size_t, 3>>& region,
                                     const char* who);

// @throws polydev::error naming the device when a device of `context` has no image support.
void require_image_support(const cl::Context& context, const char* who);

}  // namespace polydev::opencl::memory::detail
