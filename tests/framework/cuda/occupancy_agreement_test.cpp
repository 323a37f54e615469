// OccupancyRecord(DeviceData::from_device) against the driver's own answer,
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, for real kernels (register budgets 15 to 255,
// static shared memory 0 to 48 KiB) over block sizes 32..1024 and dynamic shared memory up to the
// opt-in maximum, on every selected CUDA device. Skipped with the reason where there is none.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <iostream>
#include <polydev/gtest.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "occupancy_kernels.hpp"
#include "polydev/cuda/device_data.hpp"
#include "polydev/cuda/error.hpp"
#include "polydev/cuda/occupancy.hpp"
#include "polydev/error.hpp"

namespace {

using polydev::cuda::DeviceData;
using polydev::cuda::OccupancyRecord;

// The driver's answer: blocks per SM, or 0 when it refuses the configuration (by answering 0 or
// with an error status, which is then cleared).
int driver_blocks(const void* kernel, int threads, std::size_t dynamic_smem) {
  int blocks = 0;
  const cudaError_t status =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, dynamic_smem);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return blocks;
}

// polydev's answer, 0 where OccupancyRecord says the launch cannot be made.
int record_blocks(const DeviceData& data, int threads, std::size_t smem, int registers,
                  int carveout, std::string* error_text = nullptr) {
  try {
    return OccupancyRecord(data, threads, smem, registers, carveout).tb_per_mp;
  } catch (const polydev::error& failure) {
    if (error_text) *error_text = failure.what();
    return 0;
  }
}

struct Attributes {
  cudaFuncAttributes function{};
  std::size_t max_dynamic = 0;  // what the opt-in allows on top of the static shared memory
};

// Reads the kernel's registers and static shared memory, and opts it in to the device's largest
// dynamic shared memory so that every size up to the per-block maximum can be asked for.
Attributes prepare(const OccupancyKernel& kernel, const DeviceData& data) {
  Attributes attributes;
  polydev::cuda::check(cudaFuncGetAttributes(&attributes.function, kernel.function),
                       "cudaFuncGetAttributes", kernel.name);
  attributes.max_dynamic =
      data.max_shared_memory_per_block_optin - attributes.function.sharedSizeBytes;
  polydev::cuda::check(
      cudaFuncSetAttribute(kernel.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           static_cast<int>(attributes.max_dynamic)),
      "cudaFuncSetAttribute", kernel.name);
  return attributes;
}

std::vector<std::size_t> dynamic_sizes(std::size_t max_dynamic) {
  std::vector<std::size_t> sizes;
  for (std::size_t size : {0, 1, 1024, 8192, 32768, 49152, 65536, 102400, 163840, 200000}) {
    if (size <= max_dynamic) sizes.push_back(size);
  }
  sizes.push_back(max_dynamic);
  sizes.push_back(max_dynamic + 1);  // past the opt-in: both must refuse
  return sizes;
}

std::vector<int> block_sizes(const OccupancyKernel& kernel) {
  std::vector<int> sizes{1, 16, 48, 100};
  for (int threads = 32; threads <= 1024; threads += 32) sizes.push_back(threads);
  // Past a declared __launch_bounds__ the launch fails for a reason OccupancyRecord does not
  // model (it does not know the kernel's declaration): those sizes are not compared.
  if (kernel.launch_bound > 0) {
    sizes.erase(std::remove_if(sizes.begin(), sizes.end(),
                               [&](int threads) { return threads > kernel.launch_bound; }),
                sizes.end());
  }
  return sizes;
}

class OccupancyAgreement : public polydev::testing::CudaTest {
 protected:
  void SetUp() override {
    CudaTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    data_ = DeviceData::from_device(ordinal());
  }
  DeviceData data_;
};

TEST_P(OccupancyAgreement, DeviceDataMatchesTheDeviceProperties) {
  cudaDeviceProp properties{};
  ASSERT_EQ(cudaGetDeviceProperties(&properties, ordinal()), cudaSuccess);
  EXPECT_EQ(data_.compute_capability_major, properties.major);
  EXPECT_EQ(data_.compute_capability_minor, properties.minor);
  EXPECT_EQ(data_.multiprocessors, properties.multiProcessorCount);
  EXPECT_EQ(data_.max_threads, properties.maxThreadsPerBlock);
  EXPECT_EQ(data_.warp_size, properties.warpSize);
  EXPECT_EQ(data_.max_threads_per_mp, properties.maxThreadsPerMultiProcessor);
  EXPECT_EQ(data_.warps_per_mp, properties.maxThreadsPerMultiProcessor / properties.warpSize);
  EXPECT_EQ(data_.thread_blocks_per_mp, properties.maxBlocksPerMultiProcessor);
  EXPECT_EQ(data_.registers, properties.regsPerMultiprocessor);
  EXPECT_EQ(data_.max_registers_per_block, properties.regsPerBlock);
  EXPECT_EQ(data_.shared_memory, properties.sharedMemPerMultiprocessor);
  EXPECT_EQ(data_.max_shared_memory_per_block, properties.sharedMemPerBlock);
  EXPECT_EQ(data_.max_shared_memory_per_block_optin, properties.sharedMemPerBlockOptin);
  EXPECT_EQ(data_.reserved_shared_memory_per_block, properties.reservedSharedMemPerBlock);
  EXPECT_NE(data_.name.find(properties.name), std::string::npos) << data_.name;
}

TEST_P(OccupancyAgreement, TheTableRowOfThisArchitectureMatchesTheDevice) {
  // Where the device reports a value, polydev's table for its architecture must say the same:
  // that is what `polydev occupancy --cc` answers on machines without this GPU.
  const DeviceData table = DeviceData::for_compute_capability(data_.compute_capability_major,
                                                              data_.compute_capability_minor);
  EXPECT_EQ(table.max_threads, data_.max_threads);
  EXPECT_EQ(table.warp_size, data_.warp_size);
  EXPECT_EQ(table.warps_per_mp, data_.warps_per_mp);
  EXPECT_EQ(table.thread_blocks_per_mp, data_.thread_blocks_per_mp);
  EXPECT_EQ(table.registers, data_.registers);
  EXPECT_EQ(table.max_registers_per_block, data_.max_registers_per_block);
  EXPECT_EQ(table.shared_memory, data_.shared_memory);
  EXPECT_EQ(table.max_shared_memory_per_block, data_.max_shared_memory_per_block);
  EXPECT_EQ(table.max_shared_memory_per_block_optin, data_.max_shared_memory_per_block_optin);
  EXPECT_EQ(table.reserved_shared_memory_per_block, data_.reserved_shared_memory_per_block);
}

TEST_P(OccupancyAgreement, BlocksPerSmAgreeWithTheDriverForRealKernels) {
  long long compared = 0;
  long long agreed = 0;
  long long refused = 0;
  std::set<int> registers_seen;
  std::ostringstream mismatches;
  for (const OccupancyKernel& kernel : occupancy_kernels()) {
    const Attributes attributes = prepare(kernel, data_);
    registers_seen.insert(attributes.function.numRegs);
    for (int threads : block_sizes(kernel)) {
      for (std::size_t dynamic : dynamic_sizes(attributes.max_dynamic)) {
        const int expected = driver_blocks(kernel.function, threads, dynamic);
        std::string error_text;
        const int got = record_blocks(data_, threads, attributes.function.sharedSizeBytes + dynamic,
                                      attributes.function.numRegs, -1, &error_text);
        ++compared;
        if (expected == 0) ++refused;
        if (expected == got) {
          ++agreed;
        } else if (compared - agreed <= 25) {
          mismatches << "  " << kernel.name << " (" << attributes.function.numRegs << " regs, "
                     << attributes.function.sharedSizeBytes << " B static), " << threads
                     << " threads, " << dynamic << " B dynamic: driver " << expected
                     << ", OccupancyRecord " << got << (error_text.empty() ? "" : " ") << error_text
                     << '\n';
        }
      }
    }
  }
  const std::string agreement = std::to_string(agreed) + "/" + std::to_string(compared);
  std::cout << "occupancy agreement: " << agreement << " (" << refused
            << " configurations refused by both)\n";
  RecordProperty("occupancy_agreement", agreement);
  // The kernels must really span the register range, or the comparison proves little.
  EXPECT_GE(registers_seen.size(), 10u);
  EXPECT_LE(*registers_seen.begin(), 24);
  EXPECT_GE(*registers_seen.rbegin(), 200);
  EXPECT_GT(refused, 0);
  EXPECT_EQ(agreed, compared) << "first mismatches:\n" << mismatches.str();
}

TEST_P(OccupancyAgreement, PreferredCarveoutsAgreeWithTheDriver) {
  long long compared = 0;
  long long agreed = 0;
  std::ostringstream mismatches;
  for (const OccupancyKernel& kernel : occupancy_kernels()) {
    const Attributes attributes = prepare(kernel, data_);
    for (int carveout : {0, 10, 25, 50, 75, 100}) {
      ASSERT_EQ(cudaFuncSetAttribute(kernel.function,
                                     cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
                cudaSuccess);
      for (int threads : {32, 128, 256, 1024}) {
        if (kernel.launch_bound > 0 && threads > kernel.launch_bound) continue;
        for (std::size_t dynamic : {std::size_t{0}, std::size_t{8192}, std::size_t{40000}}) {
          const int expected = driver_blocks(kernel.function, threads, dynamic);
          const int got =
              record_blocks(data_, threads, attributes.function.sharedSizeBytes + dynamic,
                            attributes.function.numRegs, carveout);
          ++compared;
          if (expected == got) {
            ++agreed;
          } else if (compared - agreed <= 25) {
            mismatches << "  " << kernel.name << ", carve-out " << carveout << "%, " << threads
                       << " threads, " << dynamic << " B dynamic: driver " << expected
                       << ", OccupancyRecord " << got << '\n';
          }
        }
      }
    }
    // Back to the driver's default for the other tests.
    ASSERT_EQ(
        cudaFuncSetAttribute(kernel.function, cudaFuncAttributePreferredSharedMemoryCarveout, -1),
        cudaSuccess);
  }
  const std::string agreement = std::to_string(agreed) + "/" + std::to_string(compared);
  std::cout << "carve-out agreement: " << agreement << '\n';
  RecordProperty("carveout_agreement", agreement);
  EXPECT_EQ(agreed, compared) << "first mismatches:\n" << mismatches.str();
}

TEST_P(OccupancyAgreement, LaunchesSucceedExactlyWhereTheRecordSaysTheyFit) {
  // For each kernel: the largest block that OccupancyRecord accepts with the most shared memory
  // launches; the next block size up, where the record refuses it for its registers, does not.
  int launched = 0;
  int refused = 0;
  for (const OccupancyKernel& kernel : occupancy_kernels()) {
    const Attributes attributes = prepare(kernel, data_);
    const int limit = kernel.launch_bound > 0 ? kernel.launch_bound : data_.max_threads;
    int largest = 0;
    for (int threads = 32; threads <= limit; threads += 32) {
      if (record_blocks(data_, threads, data_.max_shared_memory_per_block_optin,
                        attributes.function.numRegs, -1) > 0) {
        largest = threads;
      }
    }
    ASSERT_GT(largest, 0) << kernel.name;
    EXPECT_EQ(
        launch_occupancy_kernel(kernel, data_.multiprocessors, largest, attributes.max_dynamic),
        cudaSuccess)
        << kernel.name << " with " << largest << " threads";
    ++launched;
    if (largest < limit) {
      const cudaError_t status =
          launch_occupancy_kernel(kernel, 1, largest + 32, attributes.max_dynamic);
      EXPECT_EQ(status, cudaErrorLaunchOutOfResources)
          << kernel.name << " with " << largest + 32
          << " threads: " << polydev::cuda::describe(status);
      ++refused;
    }
  }
  std::cout << "launches: " << launched << " accepted where the record fits, " << refused
            << " refused where it does not\n";
  EXPECT_GT(refused, 0);
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(OccupancyAgreement);

}  // namespace
