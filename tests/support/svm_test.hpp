#pragma once

// The fixture the OpenCL SVM tests share: devices with coarse-grain SVM, a kernel that changes SVM
// words in place, and a read of SVM through a map.

#include <CL/opencl.hpp>
#include <cstddef>
#include <polydev/gtest.hpp>
#include <vector>

#include "polydev/opencl/memory/mapping.hpp"
#include "polydev/opencl/memory/svm_operations.hpp"
#include "support/opencl_checks.hpp"

namespace polydev::testing::pools_support {

class OpenCLSVMTest : public polydev::testing::OpenCLTest {
 protected:
  // Devices without coarse-grain SVM skip in OpenCLTest::SetUp, with what SVM they have.
  polydev::testing::Capabilities required_capabilities() const override {
    return {polydev::testing::svm_coarse_grain_buffer()};
  }

  // `data[i] = 2 * data[i] + 1` over `count` words at `ptr`, on the fixture's queue: a kernel's
  // writes that the host can tell from any fill.
  void run_twice(void* ptr, std::size_t count) {
    static constexpr const char* source = R"CLC(
__kernel void twice(__global uint* data) {
  const size_t i = get_global_id(0);
  data[i] = 2u * data[i] + 1u;
}
)CLC";
    cl::Program program = build_program(context(), device(), source);
    ASSERT_NE(program(), nullptr);
    cl::Kernel kernel(program, "twice");
    ASSERT_EQ(kernel.setArg(0, ptr), CL_SUCCESS);
    ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(count)), CL_SUCCESS);
  }

  // The `count` words of the span, read through a map on the fixture's queue.
  std::vector<cl_uint> read(const polydev::opencl::memory::SVMSpan& span, std::size_t count) {
    polydev::opencl::memory::MappedRegion region =
        polydev::opencl::memory::map_svm(queue(), span, CL_MAP_READ);
    return std::vector<cl_uint>(region.as<cl_uint>(), region.as<cl_uint>() + count);
  }
};

}  // namespace polydev::testing::pools_support
