// context_dependent_memoize on every CUDA device: entries are keyed by the current (primary)
// context, and the CUDA fixture clears them after every test.
#include "polydev/cuda/memoize.hpp"

#include <cuda_runtime_api.h>

#include <polydev/gtest.hpp>
#include <stdexcept>
#include <string>

namespace {

// What a real user caches per context: something computed on the current device.
polydev::cuda::ContextDependentMemoized<std::string(int)>& device_descriptions() {
  static polydev::cuda::ContextDependentMemoized<std::string(int)> cache([](int tag) {
    int ordinal = -1;
    cudaDeviceProp properties{};
    if (cudaGetDevice(&ordinal) != cudaSuccess ||
        cudaGetDeviceProperties(&properties, ordinal) != cudaSuccess) {
      throw std::runtime_error("no current CUDA device");
    }
    return std::to_string(tag) + ":" + std::to_string(ordinal) + ":" + properties.name;
  });
  return cache;
}

class ContextMemoize : public polydev::testing::CudaTest {
 protected:
  // Every test of this suite starts from an empty cache and fills it: if the fixture stopped
  // clearing after each test, the second test to run would see the first one's entries.
  void starts_empty_and_caches_per_context() {
    EXPECT_EQ(device_descriptions().size(), 0u) << "the previous test's entries were not cleared";
    EXPECT_EQ(polydev::cuda::current_context_key(), ordinal());
    const std::string first = device_descriptions()(7);
    EXPECT_EQ(first, "7:" + std::to_string(ordinal()) + ":" + device_info().name);
    EXPECT_EQ(device_descriptions()(7), first);
    EXPECT_EQ(device_descriptions().size(), 1u);
  }
};

TEST_P(ContextMemoize, FirstTestStartsWithEmptyCache) { starts_empty_and_caches_per_context(); }

TEST_P(ContextMemoize, SecondTestStartsWithEmptyCache) { starts_empty_and_caches_per_context(); }

TEST_P(ContextMemoize, AnotherDeviceGetsItsOwnEntry) {
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  if (count < 2) GTEST_SKIP() << "needs a second CUDA device; this machine has " << count;
  const std::string here = device_descriptions()(1);
  const int other = (ordinal() + 1) % count;
  ASSERT_EQ(cudaSetDevice(other), cudaSuccess);
  const std::string there = device_descriptions()(1);
  ASSERT_EQ(cudaSetDevice(ordinal()), cudaSuccess);
  EXPECT_NE(here, there);
  EXPECT_EQ(there.rfind("1:" + std::to_string(other) + ":", 0), 0u) << there;
  EXPECT_EQ(device_descriptions().size(), 2u);
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(ContextMemoize);

}  // namespace
