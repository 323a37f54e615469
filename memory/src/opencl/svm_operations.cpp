#include "polydev/opencl/memory/svm_operations.hpp"

#include <cstdint>
#include <cstdio>

#include "operations_support.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/characterize.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory/detail/svm_operations.hpp"
#include "polydev/opencl/svm_pool.hpp"

namespace polydev::opencl::memory {

namespace detail {

void require_opencl_version(const std::string& version, const std::string& device_name, int major,
                            int minor, const char* who) {
  // An unreadable version counts as none: the operation is refused with the string it reports.
  if (parse_opencl_version(version).value_or(Version{}) < Version{major, minor}) {
    throw error(std::string(who) + " needs OpenCL " + std::to_string(major) + "." +
                std::to_string(minor) + " or later; device '" + device_name + "' reports '" +
                version + "'");
  }
}

void require_queue_binding(const SVMSpan& span, const cl::CommandQueue& queue, const char* who) {
  if (span.bound_queue() != nullptr && span.bound_queue() != queue()) {
    throw error(std::string(who) +
                ": the SVM memory (a pooled block or an allocation) is bound to another queue "
                "than the one given; bind it to this queue first (bind_to_queue), so that its "
                "reuse or free waits for this command");
  }
}

}  // namespace detail

namespace {

void require_data(const SVMSpan& span, const char* who, const char* side) {
  if (span.data() == nullptr && span.size() != 0) {
    throw error(std::string(who) + ": the " + side + " pointer is null");
  }
}

}  // namespace

SVMSpan::SVMSpan(const PooledSVM& pooled) {
  if (!pooled.valid()) {
    throw error("SVMSpan: the PooledSVM was released (or moved from); it owns no block");
  }
  data_ = pooled.ptr();
  size_ = pooled.size();
  bound_queue_ = pooled.queue();
}

SVMSpan::SVMSpan(const SVMAllocation& allocation) {
  if (!allocation.valid()) {
    throw error("SVMSpan: the SVMAllocation was released (or moved from); it owns no memory");
  }
  data_ = allocation.ptr();
  size_ = allocation.size();
  bound_queue_ = allocation.queue();
}

SVMSpan SVMSpan::subspan(std::size_t offset, std::size_t bytes) const {
  if (offset > size_) {
    throw error("SVMSpan::subspan: offset " + std::to_string(offset) + " is past the " +
                std::to_string(size_) + " bytes of the span");
  }
  if (bytes == to_end) bytes = size_ - offset;
  if (bytes > size_ - offset) {
    throw error("SVMSpan::subspan: " + std::to_string(bytes) + " bytes from offset " +
                std::to_string(offset) + " reach past the " + std::to_string(size_) +
                " bytes of the span");
  }
  SVMSpan part(static_cast<char*>(data_) + offset, bytes);
  part.bound_queue_ = bound_queue_;
  return part;
}

cl::Event enqueue_svm_memfill(const cl::CommandQueue& queue, const SVMSpan& destination,
                              const void* pattern, std::size_t pattern_size, std::size_t offset,
                              std::size_t bytes, const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_svm_memfill";
  detail::check_fill_pattern(pattern, pattern_size, who);
  detail::require_queue_binding(destination, queue, who);
  require_data(destination, who, "destination");
  const SVMSpan target = destination.subspan(offset, bytes);
  const auto address = reinterpret_cast<std::uintptr_t>(target.data());
  if (address % pattern_size != 0 || target.size() % pattern_size != 0) {
    throw error(std::string(who) + ": address " + std::to_string(address) + " (offset " +
                std::to_string(offset) + ") and size " + std::to_string(target.size()) +
                " must be multiples of the pattern's " + std::to_string(pattern_size) + " bytes");
  }
  if (target.size() == 0) return detail::enqueue_marker(queue, wait_for, false, who);
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueSVMMemFill(queue(), target.data(), pattern, pattern_size, target.size(),
                            waits.size(), waits.data(), &done()),
        "clEnqueueSVMMemFill");
  return done;
}

cl::Event enqueue_svm_memcpy(const cl::CommandQueue& queue, const SVMSpan& destination,
                             const SVMSpan& source, bool blocking,
                             const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_svm_memcpy";
  detail::require_queue_binding(destination, queue, who);
  detail::require_queue_binding(source, queue, who);
  require_data(destination, who, "destination");
  require_data(source, who, "source");
  if (destination.size() < source.size()) {
    throw error(std::string(who) + ": the destination has " + std::to_string(destination.size()) +
                " bytes, fewer than the " + std::to_string(source.size()) + " of the source");
  }
  if (source.size() == 0) return detail::enqueue_marker(queue, wait_for, blocking, who);
  const auto to = reinterpret_cast<std::uintptr_t>(destination.data());
  const auto from = reinterpret_cast<std::uintptr_t>(source.data());
  if (to < from + source.size() && from < to + source.size()) {
    throw error(std::string(who) + ": source and destination overlap (" +
                std::to_string(source.size()) + " bytes " + std::to_string(from) + " -> " +
                std::to_string(to) + "); OpenCL copies between disjoint ranges only");
  }
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueSVMMemcpy(queue(), blocking ? CL_TRUE : CL_FALSE, destination.data(),
                           source.data(), source.size(), waits.size(), waits.data(), &done()),
        "clEnqueueSVMMemcpy");
  return done;
}

cl::Event enqueue_svm_migrate(const cl::CommandQueue& queue, const std::vector<SVMSpan>& spans,
                              cl_mem_migration_flags flags,
                              const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_svm_migrate";
  detail::require_queue_opencl_version(queue, 2, 1, "enqueue_svm_migrate (clEnqueueSVMMigrateMem)");
  std::vector<const void*> pointers;
  std::vector<std::size_t> sizes;
  for (const SVMSpan& span : spans) {
    detail::require_queue_binding(span, queue, who);
    // OpenCL reads a size of 0 as "the whole allocation"; an empty span means nothing.
    if (span.size() == 0) continue;
    require_data(span, who, "span's");
    pointers.push_back(span.data());
    sizes.push_back(span.size());
  }
  if (pointers.empty()) return detail::enqueue_marker(queue, wait_for, false, who);
  const detail::WaitList waits(wait_for);
  cl::Event done;
  check(clEnqueueSVMMigrateMem(queue(), static_cast<cl_uint>(pointers.size()), pointers.data(),
                               sizes.data(), flags, waits.size(), waits.data(), &done()),
        "clEnqueueSVMMigrateMem");
  return done;
}

}  // namespace polydev::opencl::memory
