// OccupancyRecord against CUDA's own calculator, `cuda_occupancy.h` of the installed toolkit, for
// every architecture of polydev's table over a grid of block sizes, register counts, shared-memory
// sizes and carve-outs. The header is plain host code, so this needs the toolkit but no GPU; the
// driver's answer for real kernels is checked by occupancy_agreement_test.cpp.
#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "polydev/cuda/device_data.hpp"
#include "polydev/cuda/occupancy.hpp"
#include "polydev/error.hpp"

namespace {

using polydev::cuda::DeviceData;
using polydev::cuda::OccupancyRecord;

struct Reference {
  int blocks = 0;
  std::set<std::string> limiting;
};

// The calculator's answer for a kernel that uses `shared_mem` bytes, all of them dynamic and
// opted in, one block barrier, in the given carve-out.
Reference reference(const DeviceData& data, int threads, std::size_t shared_mem, int registers,
                    int carveout) {
  cudaOccDeviceProp properties;
  properties.computeMajor = data.compute_capability_major;
  properties.computeMinor = data.compute_capability_minor;
  properties.maxThreadsPerBlock = data.max_threads;
  properties.maxThreadsPerMultiprocessor = data.max_threads_per_mp;
  properties.regsPerBlock = data.max_registers_per_block;
  properties.regsPerMultiprocessor = data.registers;
  properties.warpSize = data.warp_size;
  properties.sharedMemPerBlock = data.max_shared_memory_per_block;
  properties.sharedMemPerMultiprocessor = data.shared_memory;
  properties.numSms = 1;
  properties.sharedMemPerBlockOptin = data.max_shared_memory_per_block_optin;
  properties.reservedSharedMemPerBlock = data.reserved_shared_memory_per_block;
  cudaOccFuncAttributes attributes;
  attributes.maxThreadsPerBlock = data.max_threads;
  attributes.numRegs = registers;
  attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  attributes.maxDynamicSharedSizeBytes = data.max_shared_memory_per_block_optin;
  attributes.numBlockBarriers = 1;
  cudaOccDeviceState state;
  state.carveoutConfig = carveout;
  cudaOccResult result{};
  const cudaOccError status = cudaOccMaxActiveBlocksPerMultiprocessor(
      &result, &properties, &attributes, &state, threads, shared_mem);
  EXPECT_EQ(status, CUDA_OCC_SUCCESS) << data.name;
  Reference answer;
  answer.blocks = result.activeBlocksPerMultiprocessor;
  // The barrier flag is left out: with one barrier it can only tie with the blocks limit.
  if (result.limitingFactors & OCC_LIMIT_WARPS) answer.limiting.insert("warps");
  if (result.limitingFactors & OCC_LIMIT_REGISTERS) answer.limiting.insert("regs");
  if (result.limitingFactors & OCC_LIMIT_SHARED_MEMORY) answer.limiting.insert("smem");
  if (result.limitingFactors & OCC_LIMIT_BLOCKS) answer.limiting.insert("device");
  return answer;
}

TEST(CudaOccupancyReference, AgreesWithCudaOccupancyHeaderOnEveryArchitecture) {
  const int thread_counts[] = {1,   31,  32,  33,  64,  96,  100, 128, 160, 192,  224,  256, 288,
                               320, 384, 416, 480, 512, 544, 640, 672, 768, 1000, 1024, 1025};
  // 256 is left out: the calculator accepts it, but no compiler assigns more than 255.
  const int register_counts[] = {0,  1,  16,  24,  32,  33,  40,  48,  56,  64, 72,
                                 80, 96, 128, 160, 168, 192, 200, 232, 248, 255};
  const std::size_t smem_sizes[] = {0,      1,      127,    128,    1024,   6144,   16384,
                                    32768,  49152,  49153,  65536,  98304,  101376, 102400,
                                    131072, 166912, 167936, 200000, 232448, 232449};
  const int carveouts[] = {-1, 0, 10, 25, 50, 75, 100};
  long long compared = 0;
  long long agreed = 0;
  std::ostringstream first_mismatches;
  for (const std::string& cc : DeviceData::supported_compute_capabilities()) {
    const DeviceData data = DeviceData::for_compute_capability(cc);
    for (int threads : thread_counts) {
      for (int registers : register_counts) {
        for (std::size_t smem : smem_sizes) {
          for (int carveout : carveouts) {
            const Reference expected = reference(data, threads, smem, registers, carveout);
            std::string got;
            bool same = false;
            try {
              const OccupancyRecord record(data, threads, smem, registers, carveout);
              const std::set<std::string> limiting(record.limiting.begin(), record.limiting.end());
              same = record.tb_per_mp == expected.blocks && limiting == expected.limiting;
              got = std::to_string(record.tb_per_mp) + " blocks";
            } catch (const polydev::error& failure) {
              // A launch CUDA cannot make (0 blocks) is an error in polydev.
              same = expected.blocks == 0;
              got = failure.what();
            }
            ++compared;
            if (same) {
              ++agreed;
            } else if (compared - agreed <= 20) {
              first_mismatches << "  cc " << cc << ", " << threads << " threads, " << registers
                               << " regs, " << smem << " B, carve-out " << carveout
                               << ": cuda_occupancy.h " << expected.blocks << " blocks; polydev "
                               << got << '\n';
            }
          }
        }
      }
    }
  }
  std::cout << "cuda_occupancy.h agreement: " << agreed << "/" << compared << '\n';
  RecordProperty("reference_agreement", std::to_string(agreed) + "/" + std::to_string(compared));
  EXPECT_EQ(agreed, compared) << "first mismatches:\n" << first_mismatches.str();
}

}  // namespace
