// A real kernel on every selected OpenCL device, through the fixture's context factory.
#include <polydev/gtest.hpp>
#include <string>
#include <vector>

#include "polydev/opencl/error.hpp"

namespace {

constexpr const char* kSaxpySource = R"CLC(
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  const size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
)CLC";

class Saxpy : public polydev::testing::OpenCLTest {};

TEST_P(Saxpy, MatchesHostResult) {
  cl::Context context = make_context();
  cl::CommandQueue queue(context, device());
  constexpr std::size_t n = 4096;
  std::vector<float> x(n);
  std::vector<float> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(n - i);
  }
  cl_int status = CL_SUCCESS;
  cl::Program program(context, kSaxpySource, /*build=*/false, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  if (program.build({device()}) != CL_SUCCESS) {
    FAIL() << "build failed on " << descriptor().device.name << ":\n"
           << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device());
  }
  cl::Buffer x_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                      x.data());
  cl::Buffer y_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                      y.data());
  cl::Kernel kernel(program, "saxpy");
  kernel.setArg(0, 2.0f);
  kernel.setArg(1, x_buffer);
  kernel.setArg(2, y_buffer);
  ASSERT_EQ(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
  std::vector<float> result(n);
  ASSERT_EQ(queue.enqueueReadBuffer(y_buffer, CL_TRUE, 0, n * sizeof(float), result.data()),
            CL_SUCCESS);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(result[i], 2.0f * x[i] + y[i]) << "at index " << i;
  }
}

TEST_P(Saxpy, FixtureQueueRunsOnTheParameterDevice) {
  const cl::Device queue_device = queue().getInfo<CL_QUEUE_DEVICE>();
  EXPECT_EQ(queue_device(), device()());
  EXPECT_EQ(device().getInfo<CL_DEVICE_NAME>().find(descriptor().device.name), 0u);
  EXPECT_EQ(platform().getInfo<CL_PLATFORM_NAME>().find(descriptor().platform.name), 0u);
  const auto context_devices = context().getInfo<CL_CONTEXT_DEVICES>();
  ASSERT_EQ(context_devices.size(), 1u);
  EXPECT_EQ(context_devices[0](), device()());
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(Saxpy);

}  // namespace
