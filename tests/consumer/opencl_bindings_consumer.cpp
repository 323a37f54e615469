// A consumer's own OpenCL code that links polydev::opencl_bindings and no polydev library: it
// compiles the C++ bindings with polydev's settings, or not at all.
#include <CL/opencl.hpp>
#include <cstddef>

static_assert(CL_TARGET_OPENCL_VERSION == 300,
              "polydev::opencl_bindings sets the C headers' version");
static_assert(CL_HPP_TARGET_OPENCL_VERSION == 300,
              "polydev::opencl_bindings sets the bindings' target");
static_assert(CL_HPP_MINIMUM_OPENCL_VERSION == 110,
              "polydev::opencl_bindings sets the bindings' minimum version");

// Something of the bindings, so that the library uses them.
cl::Buffer consumer_buffer(const cl::Context& context, std::size_t bytes) {
  return cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
}
