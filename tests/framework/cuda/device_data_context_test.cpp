// DeviceData::from_device() without a device (PyCUDA's DeviceData()): the device of the context
// current on the calling thread, on every CUDA device. Without a context it is an error
// (memoize_test.cpp checks that on a thread that has none).
#include <cuda_runtime_api.h>

#include <polydev/gtest.hpp>
#include <string>

#include "driver_context.hpp"
#include "polydev/cuda/context.hpp"
#include "polydev/cuda/device_data.hpp"

namespace {

using polydev::cuda::DeviceData;

void expect_same_device(const DeviceData& actual, const DeviceData& expected) {
  EXPECT_EQ(actual.name, expected.name);
  EXPECT_EQ(actual.compute_capability_major, expected.compute_capability_major);
  EXPECT_EQ(actual.compute_capability_minor, expected.compute_capability_minor);
  EXPECT_EQ(actual.multiprocessors, expected.multiprocessors);
  EXPECT_EQ(actual.registers, expected.registers);
  EXPECT_EQ(actual.shared_memory, expected.shared_memory);
}

class CurrentContextDeviceData : public polydev::testing::CudaTest {};

TEST_P(CurrentContextDeviceData, IsThePrimaryContextsDevice) {
  EXPECT_EQ(polydev::cuda::current_context_device(), ordinal());
  const DeviceData here = DeviceData::from_device();
  expect_same_device(here, DeviceData::from_device(ordinal()));
  EXPECT_NE(here.name.find("device " + std::to_string(ordinal()) + " '" + device_info().name),
            std::string::npos)
      << here.name;
}

TEST_P(CurrentContextDeviceData, IsTheDeviceOfADriverContext) {
  polydev_test::DriverContext context(ordinal());
  EXPECT_EQ(polydev::cuda::current_context_device(), ordinal());
  expect_same_device(DeviceData::from_device(), DeviceData::from_device(ordinal()));
}

TEST_P(CurrentContextDeviceData, FollowsTheCurrentDevice) {
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  if (count < 2) GTEST_SKIP() << "needs a second CUDA device; this machine has " << count;
  const int other = (ordinal() + 1) % count;
  ASSERT_EQ(cudaSetDevice(other), cudaSuccess);
  ASSERT_EQ(cudaFree(nullptr), cudaSuccess);
  const DeviceData there = DeviceData::from_device();
  ASSERT_EQ(cudaSetDevice(ordinal()), cudaSuccess);
  expect_same_device(there, DeviceData::from_device(other));
  EXPECT_EQ(there.name.rfind("device " + std::to_string(other) + " '", 0), 0u) << there.name;
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CurrentContextDeviceData);

}  // namespace
