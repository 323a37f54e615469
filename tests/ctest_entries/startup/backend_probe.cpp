// A device-test binary of one backend: OpenCL suites only (PROBE_OPENCL) or CUDA suites only
// (PROBE_CUDA), each with a few tests of real work and one test that uses no device, so that
// backend_startup_test.cpp can see what such a process starts, and which OpenCL tests share a
// context.
#include <cstdlib>
#include <iostream>
#include <polydev/gtest.hpp>
#include <vector>

namespace {

#if defined(PROBE_OPENCL)
class OpenCLOnly : public polydev::testing::OpenCLTest {};

TEST_P(OpenCLOnly, FillsABuffer) {
  cl::Buffer buffer(context(), CL_MEM_READ_WRITE, 16 * sizeof(int));
  ASSERT_EQ(queue().enqueueFillBuffer(buffer, 3, 0, 16 * sizeof(int)), CL_SUCCESS);
  std::vector<int> values(16);
  ASSERT_EQ(queue().enqueueReadBuffer(buffer, CL_TRUE, 0, 16 * sizeof(int), values.data()),
            CL_SUCCESS);
  for (int value : values) ASSERT_EQ(value, 3);
}

TEST_P(OpenCLOnly, MakesAContextOfItsOwn) {
  const cl::Context context = make_context();
  EXPECT_EQ(context.getInfo<CL_CONTEXT_DEVICES>().at(0)(), device()());
}

TEST_P(OpenCLOnly, DescribesItsDevice) { EXPECT_FALSE(descriptor().device.name.empty()); }

// The context a test got, printed as "context of <test> on <device key>: <handle>". Every context
// printed is kept alive, so that two different contexts never show the same handle.
void print_context(const char* test, const std::string& key, const cl::Context& context) {
  static std::vector<cl::Context> kept;
  kept.push_back(context);
  std::cout << "context of " << test << " on " << key << ": " << context() << std::endl;
}

TEST_P(OpenCLOnly, UsesTheSharedContext) {
  print_context("first", descriptor().device.key, context());
  EXPECT_EQ(queue().getInfo<CL_QUEUE_CONTEXT>()(), context()());
}

// Fails, after using the shared context, when POLYDEV_PROBE_FAIL is set.
TEST_P(OpenCLOnly, FailsWhenAskedTo) {
  print_context("failing", descriptor().device.key, context());
  if (std::getenv("POLYDEV_PROBE_FAIL") != nullptr) FAIL() << "POLYDEV_PROBE_FAIL is set";
}

TEST_P(OpenCLOnly, UsesTheSharedContextAgain) {
  print_context("again", descriptor().device.key, context());
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLOnly);
#endif

#if defined(PROBE_CUDA)
class CudaOnly : public polydev::testing::CudaTest {};

TEST_P(CudaOnly, DescribesItsDevice) { EXPECT_FALSE(device_info().name.empty()); }

TEST_P(CudaOnly, HasAnOrdinal) { EXPECT_GE(ordinal(), 0); }

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CudaOnly);
#endif

// A test of the binary that uses no device: what its CTest entry for such tests runs.
TEST(HostOnly, NeedsNoDevice) { EXPECT_EQ(1 + 1, 2); }

}  // namespace
