#pragma once

// Pieces shared by the memory operations (buffer_operations.cpp, svm_operations.cpp, mapping.cpp,
// image.cpp, sampler.cpp): wait lists, markers for empty operations, overflow-checked arithmetic,
// names, image checks.

#include <CL/opencl.hpp>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace polydev::opencl::detail {

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

// The devices of `context`. @throws polydev::backend_error
std::vector<cl::Device> context_devices(const cl::Context& context);

// @throws polydev::error "<who>: pattern of N bytes; OpenCL fills with patterns of 1, 2, 4, 8, 16,
// 32, 64 or 128 bytes" unless `pattern_size` is one of those; also for a null `pattern`.
void check_fill_pattern(const void* pattern, std::size_t pattern_size, const char* who);

// @throws polydev::error for bits other than CL_MAP_READ, CL_MAP_WRITE and
// CL_MAP_WRITE_INVALIDATE_REGION, or the last with either of the others (OpenCL forbids it; PoCL
// does not check).
void check_map_flags(cl_map_flags flags, const char* who);

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

}  // namespace polydev::opencl::detail
