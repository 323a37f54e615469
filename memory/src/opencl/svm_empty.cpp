#include "polydev/opencl/memory/svm_empty.hpp"

#include <string>
#include <utility>

#include "polydev/error.hpp"

namespace polydev::opencl::memory::detail {

SVMAllocation allocate_svm_array(const cl::Context& context, cl_svm_mem_flags flags,
                                 std::size_t bytes, cl_uint alignment,
                                 std::size_t element_alignment,
                                 std::optional<cl::CommandQueue> queue, const char* who) {
  if (alignment != 0 && alignment < element_alignment) {
    throw error(std::string(who) + ": alignment " + std::to_string(alignment) +
                " is less than the " + std::to_string(element_alignment) +
                " bytes the element type needs (0 aligns to the element type)");
  }
  const cl_uint effective = alignment != 0 ? alignment : static_cast<cl_uint>(element_alignment);
  return opencl::detail::allocate_svm(context, bytes, effective, flags, std::move(queue), who);
}

void require_live_model(bool valid, const char* who) {
  if (!valid) {
    throw error(std::string(who) +
                ": the array to take the shape of was released (or moved from); it has no shape "
                "any more");
  }
}

}  // namespace polydev::opencl::memory::detail
