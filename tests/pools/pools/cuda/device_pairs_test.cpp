// The CUDA pools across devices, through suites over ordered pairs of CUDA devices: a pooled
// allocation on the first device, filled there, copied to a pooled allocation on the second with
// cudaMemcpyPeer and checked there; and peer access, turned on or refused with the driver's
// reason. With fewer than two CUDA devices each suite shows its too_few_cuda_devices placeholder.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "polydev/cuda/device_memory_pool.hpp"
#include "polydev/testing/cuda_set_fixture.hpp"
#include "polydev/testing/instantiate.hpp"

namespace {

using polydev::cuda::DeviceMemoryPool;

class CudaPoolPairs : public polydev::testing::CudaDeviceSetTest {};

TEST_P(CudaPoolPairs, APooledAllocationCopiedToTheOtherDeviceArrivesIntact) {
  ASSERT_EQ(devices().size(), 2u);
  DeviceMemoryPool source_pool(ordinal(0));
  DeviceMemoryPool target_pool(ordinal(1));
  const std::size_t count = 1 << 20;
  const std::size_t bytes = count * sizeof(int);
  std::vector<int> values(count);
  std::iota(values.begin(), values.end(), 3);
  auto source = source_pool.allocate(bytes);
  auto target = target_pool.allocate(bytes);
  ASSERT_EQ(cudaSetDevice(ordinal(0)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(source.ptr(), values.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  // Works with or without peer access: the driver stages it through the host when it must.
  ASSERT_EQ(cudaMemcpyPeer(target.ptr(), ordinal(1), source.ptr(), ordinal(0), bytes), cudaSuccess);
  ASSERT_EQ(cudaSetDevice(ordinal(1)), cudaSuccess);
  std::vector<int> arrived(count);
  ASSERT_EQ(cudaMemcpy(arrived.data(), target.ptr(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(arrived, values);
  // Released, each block goes back to its own device's pool.
  source.release();
  target.release();
  EXPECT_EQ(source_pool.held_blocks(), 1u);
  EXPECT_EQ(target_pool.held_blocks(), 1u);
}

TEST_P(CudaPoolPairs, PeerAccessIsTurnedOnOrRefusedWithTheDriversReason) {
  int can = 0;
  ASSERT_EQ(cudaDeviceCanAccessPeer(&can, ordinal(0), ordinal(1)), cudaSuccess);
  const polydev::testing::PeerAccess access = enable_peer_access(0, 1);
  EXPECT_EQ(access.enabled, can != 0) << access.reason;
  if (!access.enabled) {
    EXPECT_NE(access.reason.find("cudaDeviceCanAccessPeer"), std::string::npos) << access.reason;
    return;
  }
  EXPECT_TRUE(access.reason.empty());
  // Turning it on again is no error, and the first device is current again.
  EXPECT_TRUE(enable_peer_access(0, 1).enabled);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, ordinal(0));
  EXPECT_FALSE(enable_peer_access(0, 0).enabled);
}

POLYDEV_INSTANTIATE_CUDA_DEVICE_SETS(CudaPoolPairs, polydev::testing::ordered_pairs());

}  // namespace
