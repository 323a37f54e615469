// GPU-bound tests: each keeps its device busy for POLYDEV_GPU_BOUND_SECONDS (default 0.05 s).
// They measure what CTest's per-device resource allocation gains on a machine with several GPUs
// (ci/gpu.sh runs them serially and with `ctest -j <GPUs>`); on one GPU they are plain tests.
#include <cstdlib>
#include <iostream>
#include <polydev/gtest.hpp>
#include <string>

#include "polydev/cuda/error.hpp"
#include "spin_kernel.hpp"

namespace {

double busy_seconds() {
  const char* text = std::getenv("POLYDEV_GPU_BOUND_SECONDS");
  return text ? std::atof(text) : 0.05;
}

class GpuBound : public polydev::testing::CudaTest {
 protected:
  void spin() {
    // What CTest allocated, in the log, so a run can show that each test held its own device.
    if (const char* group = std::getenv("CTEST_RESOURCE_GROUP_0")) {
      std::cout << "polydev: CTest allocated " << group << " to this test; it runs on "
                << device_info().key << '\n';
      RecordProperty("polydev_ctest_allocation", group);
    }
    const double seconds = busy_seconds();
    float elapsed_ms = 0;
    const cudaError_t status = spin_on_device(seconds, &elapsed_ms);
    ASSERT_EQ(status, cudaSuccess) << polydev::cuda::describe(status);
    // The clock rate is the boost clock; a busy device spins at least that long in wall time
    // within a generous margin (clocks may run lower, never higher than reported).
    EXPECT_GE(elapsed_ms, 0.5 * seconds * 1000.0) << "the kernel did not keep the device busy";
  }
};

#define POLYDEV_GPU_BOUND_TEST(n) \
  TEST_P(GpuBound, Spin##n) { spin(); }
POLYDEV_GPU_BOUND_TEST(0)
POLYDEV_GPU_BOUND_TEST(1)
POLYDEV_GPU_BOUND_TEST(2)
POLYDEV_GPU_BOUND_TEST(3)
POLYDEV_GPU_BOUND_TEST(4)
POLYDEV_GPU_BOUND_TEST(5)
POLYDEV_GPU_BOUND_TEST(6)
POLYDEV_GPU_BOUND_TEST(7)
#undef POLYDEV_GPU_BOUND_TEST

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(GpuBound);

}  // namespace
