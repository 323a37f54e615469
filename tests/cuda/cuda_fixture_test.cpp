// A real kernel on every selected CUDA device through the CUDA fixture; skipped with the reason
// on machines without a CUDA device.
#include <cuda_runtime_api.h>

#include <polydev/gtest.hpp>
#include <vector>

#include "polydev/caches.hpp"
#include "polydev/cuda/context.hpp"
#include "polydev/cuda/error.hpp"
#include "polydev/error.hpp"
#include "vector_add.hpp"

namespace {

class VectorAdd : public polydev::testing::CudaTest {};

TEST_P(VectorAdd, MatchesHostResult) {
  constexpr int n = 100000;
  std::vector<float> a(n), b(n), sum(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  const cudaError_t status = add_on_device(a.data(), b.data(), sum.data(), n);
  ASSERT_EQ(status, cudaSuccess) << polydev::cuda::describe(status);
  for (int i = 0; i < n; ++i) ASSERT_EQ(sum[i], a[i] + b[i]) << "at index " << i;
}

TEST_P(VectorAdd, ParameterDeviceIsCurrent) {
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, ordinal());
  cudaDeviceProp properties{};
  ASSERT_EQ(cudaGetDeviceProperties(&properties, current), cudaSuccess);
  EXPECT_EQ(std::string(properties.name), device_info().name);
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(VectorAdd);

// The fixture clears context-keyed caches after each test.
class CacheClearing : public polydev::testing::CudaTest {
 protected:
  void TearDown() override {
    CudaTest::TearDown();
    if (!IsSkipped()) {
      EXPECT_EQ(cache_.size(), 0u) << "CudaTest::TearDown kept the cache";
    }
  }
  polydev::KeyedCache<int, int> cache_{polydev::CacheScope::cuda_context};
};

TEST_P(CacheClearing, ContextCachesAreEmptyAfterTheTest) {
  cache_.get_or_compute(ordinal(), [] { return 42; });
  EXPECT_EQ(cache_.size(), 1u);
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CacheClearing);

TEST(CudaDefaultContext, AutoinitPicksAUsableDeviceOnce) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (!inventory.available) GTEST_SKIP() << "CUDA unavailable: " << inventory.reason;
  const auto& first = polydev::cuda::autoinit();
  const auto& second = polydev::cuda::autoinit();
  EXPECT_EQ(&first, &second);
  ASSERT_GE(first.ordinal, 0);
  ASSERT_LT(first.ordinal, static_cast<int>(inventory.devices.size()));
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, first.ordinal);
  EXPECT_EQ(polydev::cuda::get_default_device(first.ordinal), first.ordinal);
}

TEST(CudaDefaultContext, WithoutADeviceAutoinitThrowsWithTheReason) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (inventory.available) GTEST_SKIP() << "this machine has a CUDA device";
  try {
    polydev::cuda::autoinit();
    FAIL() << "autoinit succeeded without a CUDA device";
  } catch (const polydev::error& failure) {
    EXPECT_NE(std::string(failure.what()).find(inventory.reason), std::string::npos)
        << failure.what();
  }
}

}  // namespace
