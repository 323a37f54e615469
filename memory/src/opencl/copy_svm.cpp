// enqueue_copy between SVM and SVM or host memory (clEnqueueSVMMemcpy takes either on both sides).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "operations_support.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory/copy.hpp"
#include "polydev/opencl/memory/detail/svm_operations.hpp"

namespace polydev::opencl::memory {

namespace {

// Copies the `bytes` bytes at `src` (of `src_bytes`) to `dest` (of `dest_bytes`), after the checks
// all three directions share.
cl::Event svm_copy(const cl::CommandQueue& queue, void* dest, std::size_t dest_bytes,
                   const void* src, std::size_t src_bytes, bool is_blocking,
                   const std::vector<cl::Event>& wait_for, const char* who) {
  if (src_bytes > dest_bytes) {
    throw std::out_of_range(std::string(who) + ": the " + std::to_string(src_bytes) +
                            " bytes of src do not fit the " + std::to_string(dest_bytes) +
                            " bytes of dest; src may hold at most " + std::to_string(dest_bytes) +
                            " (take a subspan of it)");
  }
  if (src_bytes == 0) return detail::enqueue_marker(queue, wait_for, is_blocking, who);
  detail::require_pointer(dest, dest_bytes, who, "dest");
  detail::require_pointer(src, src_bytes, who, "src");
  const auto to = reinterpret_cast<std::uintptr_t>(dest);
  const auto from = reinterpret_cast<std::uintptr_t>(src);
  if (to < from + src_bytes && from < to + src_bytes) {
    throw std::invalid_argument(std::string(who) + ": src and dest overlap (" +
                                std::to_string(src_bytes) + " bytes at " + std::to_string(from) +
                                " -> " + std::to_string(to) +
                                "); OpenCL copies between disjoint ranges only");
  }
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueSVMMemcpy(queue(), is_blocking ? CL_TRUE : CL_FALSE, dest, src, src_bytes,
                           waits.size(), waits.data(), &done()),
        "clEnqueueSVMMemcpy");
  return done;
}

}  // namespace

cl::Event enqueue_copy(const cl::CommandQueue& queue, const SVMSpan& dest, const SVMSpan& src,
                       bool is_blocking, const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (SVM -> SVM)";
  detail::require_queue_binding(dest, queue, who);
  detail::require_queue_binding(src, queue, who);
  return svm_copy(queue, dest.data(), dest.size(), src.data(), src.size(), is_blocking, wait_for,
                  who);
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const SVMSpan& dest, const ConstHostSpan& src,
                       bool is_blocking, const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (host -> SVM)";
  detail::require_queue_binding(dest, queue, who);
  return svm_copy(queue, dest.data(), dest.size(), src.data(), src.size(), is_blocking, wait_for,
                  who);
}

cl::Event enqueue_copy(const cl::CommandQueue& queue, const HostSpan& dest, const SVMSpan& src,
                       bool is_blocking, const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_copy (SVM -> host)";
  detail::require_queue_binding(src, queue, who);
  return svm_copy(queue, dest.data(), dest.size(), src.data(), src.size(), is_blocking, wait_for,
                  who);
}

}  // namespace polydev::opencl::memory
