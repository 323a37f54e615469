// The conformance suite on polydev's CUDA pools, on every selected CUDA device.
#include <cuda_runtime_api.h>

#include <cstring>
#include <polydev/gtest.hpp>
#include <vector>

#include "polydev/cuda/compact_device_memory_pool.hpp"
#include "polydev/cuda/device_memory_pool.hpp"
#include "polydev/cuda/error.hpp"
#include "polydev/cuda/page_locked_memory_pool.hpp"
#include "polydev/testing/conformance/pool_conformance.hpp"

namespace {

// Device memory through cudaMemcpy, for either device pool.
template <typename Pool, typename Block>
class DeviceMemoryConformance : public polydev::testing::CudaTest {
 public:
  Pool make_pool() { return Pool(ordinal()); }
  void write(const Block& block, const std::vector<unsigned char>& bytes) {
    polydev::cuda::check(
        cudaMemcpy(block.ptr(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  std::vector<unsigned char> read(const Block& block, std::size_t count) {
    std::vector<unsigned char> bytes(count);
    polydev::cuda::check(cudaMemcpy(bytes.data(), block.ptr(), count, cudaMemcpyDeviceToHost),
                         "cudaMemcpy");
    return bytes;
  }
};

class DevicePoolConformance
    : public DeviceMemoryConformance<polydev::cuda::DeviceMemoryPool,
                                     polydev::cuda::PooledDeviceAllocation> {};
POLYDEV_POOL_CONFORMANCE_TESTS(DevicePoolConformance)
POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(DevicePoolConformance);

class CompactDevicePoolConformance
    : public DeviceMemoryConformance<polydev::cuda::CompactDeviceMemoryPool,
                                     polydev::cuda::CompactPooledDeviceAllocation> {};
POLYDEV_POOL_CONFORMANCE_TESTS(CompactDevicePoolConformance)
POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(CompactDevicePoolConformance);

class PageLockedPoolConformance : public polydev::testing::CudaTest {
 public:
  polydev::cuda::PageLockedMemoryPool make_pool() { return polydev::cuda::PageLockedMemoryPool(); }
  void write(const polydev::cuda::PooledHostAllocation& block,
             const std::vector<unsigned char>& bytes) {
    std::memcpy(block.ptr(), bytes.data(), bytes.size());
  }
  std::vector<unsigned char> read(const polydev::cuda::PooledHostAllocation& block,
                                  std::size_t count) {
    const auto* first = static_cast<const unsigned char*>(block.ptr());
    return {first, first + count};
  }
};

POLYDEV_POOL_CONFORMANCE_TESTS(PageLockedPoolConformance)
POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(PageLockedPoolConformance);

}  // namespace
