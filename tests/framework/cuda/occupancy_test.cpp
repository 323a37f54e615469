// OccupancyRecord without a device: a table of configurations with the
// answers of CUDA 13.0's occupancy calculator (cudaOccupancyMaxActiveBlocksPerMultiprocessor) on an
// H100 row by row, the other architectures, PyCUDA's labels, and every error.
#include "polydev/cuda/occupancy.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "polydev/cuda/device_data.hpp"
#include "polydev/error.hpp"

namespace {

using polydev::cuda::DeviceData;
using polydev::cuda::OccupancyRecord;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const polydev::error& failure) {
    return failure.what();
  }
  ADD_FAILURE() << "no polydev::error was thrown";
  return {};
}

struct CudaAnswer {
  int threads;
  std::size_t smem;  // static + dynamic bytes per block
  int regs;
  int blocks;                      // cudaOccMaxActiveBlocksPerMultiprocessor; 0: cannot launch
  std::set<std::string> limiting;  // the calculator's flags, in polydev's labels
  double occupancy;
};

// CUDA 13.0's occupancy calculator on an H100; the calculator's "blocks" flag is polydev's
// "device".
const std::vector<CudaAnswer>& h100_table() {
  static const std::vector<CudaAnswer> table{
      {32, 0, 16, 32, {"device"}, 0.5},
      {32, 0, 32, 32, {"device"}, 0.5},
      {32, 0, 64, 32, {"regs", "device"}, 0.5},
      {32, 0, 128, 16, {"regs"}, 0.25},
      {32, 16384, 16, 13, {"smem"}, 0.203125},
      {32, 16384, 32, 13, {"smem"}, 0.203125},
      {32, 16384, 64, 13, {"smem"}, 0.203125},
      {32, 16384, 128, 13, {"smem"}, 0.203125},
      {32, 49152, 16, 4, {"smem"}, 0.0625},
      {32, 49152, 32, 4, {"smem"}, 0.0625},
      {32, 49152, 64, 4, {"smem"}, 0.0625},
      {32, 49152, 128, 4, {"smem"}, 0.0625},
      {128, 0, 16, 16, {"warps"}, 1.0},
      {128, 0, 32, 16, {"warps", "regs"}, 1.0},
      {128, 0, 64, 8, {"regs"}, 0.5},
      {128, 0, 128, 4, {"regs"}, 0.25},
      {128, 16384, 16, 13, {"smem"}, 0.8125},
      {128, 16384, 32, 13, {"smem"}, 0.8125},
      {128, 16384, 64, 8, {"regs"}, 0.5},
      {128, 16384, 128, 4, {"regs"}, 0.25},
      {128, 49152, 16, 4, {"smem"}, 0.25},
      {128, 49152, 32, 4, {"smem"}, 0.25},
      {128, 49152, 64, 4, {"smem"}, 0.25},
      {128, 49152, 128, 4, {"regs", "smem"}, 0.25},
      {256, 0, 16, 8, {"warps"}, 1.0},
      {256, 0, 32, 8, {"warps", "regs"}, 1.0},
      {256, 0, 64, 4, {"regs"}, 0.5},
      {256, 0, 128, 2, {"regs"}, 0.25},
      {256, 16384, 16, 8, {"warps"}, 1.0},
      {256, 16384, 32, 8, {"warps", "regs"}, 1.0},
      {256, 16384, 64, 4, {"regs"}, 0.5},
      {256, 16384, 128, 2, {"regs"}, 0.25},
      {256, 49152, 16, 4, {"smem"}, 0.5},
      {256, 49152, 32, 4, {"smem"}, 0.5},
      {256, 49152, 64, 4, {"regs", "smem"}, 0.5},
      {256, 49152, 128, 2, {"regs"}, 0.25},
      {1024, 0, 16, 2, {"warps"}, 1.0},
      {1024, 0, 32, 2, {"warps", "regs"}, 1.0},
      {1024, 0, 64, 1, {"regs"}, 0.5},
      {1024, 0, 128, 0, {"regs"}, 0.0},
      {1024, 16384, 16, 2, {"warps"}, 1.0},
      {1024, 16384, 32, 2, {"warps", "regs"}, 1.0},
      {1024, 16384, 64, 1, {"regs"}, 0.5},
      {1024, 16384, 128, 0, {"regs"}, 0.0},
      {1024, 49152, 16, 2, {"warps"}, 1.0},
      {1024, 49152, 32, 2, {"warps", "regs"}, 1.0},
      {1024, 49152, 64, 1, {"regs"}, 0.5},
      {1024, 49152, 128, 0, {"regs"}, 0.0},
      // The additional cases, dynamic shared memory with the opt-in counted in `smem`.
      {256, 0, 36, 6, {"regs"}, 0.75},
      {64, 0, 33, 24, {"regs"}, 0.75},
      {128, 0, 20, 16, {"warps"}, 1.0},
      {32, 0, 255, 8, {"regs"}, 0.125},
      {128, 6144, 0, 16, {"warps"}, 1.0},
      {128, 102400, 0, 2, {"smem"}, 0.125},
      {256, 65536, 32, 3, {"smem"}, 0.375},
      {1024, 200000, 16, 1, {"smem"}, 0.5},
      {64, 1, 0, 32, {"warps", "device"}, 1.0},
  };
  return table;
}

std::string describe(const CudaAnswer& row) {
  return std::to_string(row.threads) + " threads, " + std::to_string(row.smem) + " B, " +
         std::to_string(row.regs) + " regs";
}

TEST(CudaOccupancy, MatchesCudasCalculatorOnTheH100Table) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  for (const CudaAnswer& row : h100_table()) {
    SCOPED_TRACE(describe(row));
    if (row.blocks == 0) {
      EXPECT_THAT(error_of([&] { OccupancyRecord(h100, row.threads, row.smem, row.regs); }),
                  HasSubstr("too many registers"));
      continue;
    }
    const OccupancyRecord record(h100, row.threads, row.smem, row.regs);
    EXPECT_EQ(record.tb_per_mp, row.blocks);
    EXPECT_EQ(std::set<std::string>(record.limiting.begin(), record.limiting.end()), row.limiting);
    // PyCUDA's tie rule: the alphabetically first of the limiting factors.
    EXPECT_EQ(record.limited_by, *row.limiting.begin());
    EXPECT_EQ(record.warps_per_mp, row.blocks * ((row.threads + 31) / 32));
    EXPECT_DOUBLE_EQ(record.occupancy, row.occupancy);
  }
}

TEST(CudaOccupancy, KeepsPyCudasFieldsAndTieRule) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  // 1024 threads x 32 registers: warps and registers both allow 2; PyCUDA says "regs".
  const OccupancyRecord tie(h100, 1024, 0, 32);
  EXPECT_EQ(tie.limited_by, "regs");
  EXPECT_THAT(tie.limiting, ElementsAre("warps", "regs"));
  using Limit = std::pair<int, std::string>;
  EXPECT_THAT(tie.tb_per_mp_limits, ElementsAre(Limit{32, "device"}, Limit{2, "warps"},
                                                Limit{2, "regs"}, Limit{228, "smem"}));
  // No registers and no shared memory on 7.x: neither appears as a limit (as in PyCUDA).
  const OccupancyRecord volta(DeviceData::for_compute_capability(7, 0), 256);
  EXPECT_THAT(volta.tb_per_mp_limits, ElementsAre(Limit{32, "device"}, Limit{8, "warps"}));
  EXPECT_EQ(volta.limited_by, "warps");
}

TEST(CudaOccupancy, ReportsTheAllocations) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  const OccupancyRecord record(h100, 256, 6000, 36);
  EXPECT_EQ(record.warps_per_block, 8);
  EXPECT_EQ(record.allocated_registers_per_block, 8 * 1280);   // 36 * 32 = 1152 -> 1280 per warp
  EXPECT_EQ(record.allocated_shared_memory_per_block, 7040u);  // 6000 + 1024 -> 7040
  EXPECT_EQ(record.shared_memory_per_mp, 233472u);
  EXPECT_FALSE(record.needs_smem_opt_in);
  EXPECT_TRUE(OccupancyRecord(h100, 256, 49153).needs_smem_opt_in);
  EXPECT_FALSE(OccupancyRecord(h100, 256, 49152).needs_smem_opt_in);
}

TEST(CudaOccupancy, OtherArchitecturesUseTheirOwnLimits) {
  // Turing: 32 warps and 16 blocks per SM, 64 KiB carve-out, 256-byte allocation, no reservation.
  const DeviceData turing = DeviceData::for_compute_capability(7, 5);
  EXPECT_EQ(OccupancyRecord(turing, 64).tb_per_mp, 16);
  EXPECT_EQ(OccupancyRecord(turing, 64).limited_by, "device");
  EXPECT_EQ(OccupancyRecord(turing, 1024).tb_per_mp, 1);
  EXPECT_EQ(OccupancyRecord(turing, 128, 10000).tb_per_mp, 6);  // 10240 B per block
  // Ada: 24 blocks, 48 warps, 100 KiB.
  const DeviceData ada = DeviceData::for_compute_capability(8, 9);
  EXPECT_EQ(OccupancyRecord(ada, 32).tb_per_mp, 24);
  EXPECT_EQ(OccupancyRecord(ada, 256).tb_per_mp, 6);
  EXPECT_DOUBLE_EQ(OccupancyRecord(ada, 256).occupancy, 1.0);
  EXPECT_EQ(OccupancyRecord(ada, 128, 32768).tb_per_mp, 3);  // 33792 B per block in 102400
}

TEST(CudaOccupancy, CarveoutIsRoundedToASupportedCapacity) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  // 16384 B take 17408 per block. 50% of 228 KiB is 114 KiB, configured as 132 KiB: 7 blocks.
  const OccupancyRecord half(h100, 128, 16384, 0, 50);
  EXPECT_EQ(half.shared_memory_per_mp, 132u * 1024);
  EXPECT_EQ(half.tb_per_mp, 7);
  // A preference of 0 cannot hold one block: the smallest carve-out that can (32 KiB) is used.
  const OccupancyRecord none(h100, 128, 16384, 0, 0);
  EXPECT_EQ(none.shared_memory_per_mp, 32u * 1024);
  EXPECT_EQ(none.tb_per_mp, 1);
  EXPECT_EQ(OccupancyRecord(h100, 128, 16384, 0, 100).tb_per_mp, 13);
}

TEST(CudaOccupancy, RejectsZeroOrNegativeThreads) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  EXPECT_THAT(error_of([&] { OccupancyRecord(h100, 0); }),
              HasSubstr("threads per block must be at least 1, got 0"));
  EXPECT_THAT(error_of([&] { OccupancyRecord(h100, -32); }), HasSubstr("got -32"));
}

TEST(CudaOccupancy, RejectsTooManyThreads) {
  EXPECT_THAT(error_of([] { OccupancyRecord(DeviceData::for_compute_capability(9, 0), 1025); }),
              HasSubstr("too many threads: 1025 per block, the maximum is 1024 on compute "
                        "capability 9.0"));
}

TEST(CudaOccupancy, RejectsRegistersOutOfRange) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  EXPECT_THAT(error_of([&] { OccupancyRecord(h100, 32, 0, 256); }),
              HasSubstr("too many registers: 256 per thread, the maximum is 255"));
  EXPECT_THAT(error_of([&] { OccupancyRecord(h100, 32, 0, -1); }),
              HasSubstr("registers per thread must be 0 or more, got -1"));
}

TEST(CudaOccupancy, RejectsBlocksThatExceedTheRegistersOfABlock) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  EXPECT_THAT(error_of([&] { OccupancyRecord(h100, 1024, 0, 128); }),
              HasSubstr("1024 threads with 128 registers each need 131072 registers per block"));
  // The warp count is rounded up to 4 for this check: 10 warps at 192 registers (6144 per warp)
  // hold 61440 of 65536 registers, but count as 12 warps, 73728 registers: too many for CUDA.
  EXPECT_EQ(OccupancyRecord(h100, 256, 0, 192).tb_per_mp, 1);
  EXPECT_THAT(error_of([&] { OccupancyRecord(h100, 320, 0, 192); }),
              HasSubstr("need 73728 registers per block (6144 per warp, for 10 warps counted in "
                        "multiples of 4)"));
}

TEST(CudaOccupancy, RejectsTooMuchSharedMemory) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  EXPECT_EQ(OccupancyRecord(h100, 128, 232448).tb_per_mp, 1);
  EXPECT_THAT(error_of([&] { OccupancyRecord(h100, 128, 232449); }),
              HasSubstr("too much shared memory: 232449 bytes per block, the maximum is 232448"));
  EXPECT_THAT(error_of([&] { OccupancyRecord(h100, 128, 232449); }),
              HasSubstr("cudaFuncAttributeMaxDynamicSharedMemorySize"));
}

TEST(CudaOccupancy, RejectsABlockThatRoundsPastThePerBlockLimit) {
  // A hand-made device whose per-block maximum is not a multiple of the allocation unit.
  DeviceData odd = DeviceData::for_compute_capability(7, 0);
  odd.max_shared_memory_per_block_optin = 1000;
  EXPECT_THAT(error_of([&] { OccupancyRecord(odd, 32, 1000); }),
              HasSubstr("1000 bytes per block take 1024 bytes"));
}

TEST(CudaOccupancy, RejectsACarveoutOutOfRange) {
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  for (int carveout : {-2, 101}) {
    EXPECT_THAT(error_of([&] { OccupancyRecord(h100, 32, 0, 0, carveout); }),
                HasSubstr("carve-out " + std::to_string(carveout) + " is out of range"));
  }
}

TEST(CudaOccupancy, RejectsAnIncompleteDeviceData) {
  EXPECT_THAT(error_of([] { OccupancyRecord(DeviceData{}, 32); }),
              HasSubstr("has max_threads = 0; every limit must be positive"));
  DeviceData no_capacities = DeviceData::for_compute_capability(9, 0);
  no_capacities.shared_memory_capacities.clear();
  EXPECT_THAT(error_of([&] { OccupancyRecord(no_capacities, 32); }),
              HasSubstr("lists no shared_memory_capacities"));
}

TEST(CudaOccupancy, RejectsASharedMemorySizeWithNoCapacity) {
  DeviceData larger = DeviceData::for_compute_capability(9, 0);
  larger.shared_memory = 256 * 1024;  // more than the largest carve-out, 228 KiB
  EXPECT_THAT(error_of([&] { OccupancyRecord(larger, 32); }),
              HasSubstr("the preferred carve-out of 262144 bytes is larger than the largest"));
}

TEST(CudaOccupancy, ABlockThatFitsNowhereIsAnError) {
  DeviceData narrow = DeviceData::for_compute_capability(9, 0);
  narrow.warps_per_mp = 16;  // fewer warp slots than one block of 1024 threads needs
  EXPECT_THAT(error_of([&] { OccupancyRecord(narrow, 1024); }),
              HasSubstr("no block of 1024 threads fits on compute capability 9.0"));
}

}  // namespace
