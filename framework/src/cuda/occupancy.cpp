// OccupancyRecord: CUDA's occupancy calculation (warps, blocks, registers, shared memory) with
// PyCUDA's fields and labels. The rules are summarized in occupancy.hpp.
#include "polydev/cuda/occupancy.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "polydev/error.hpp"

namespace polydev::cuda {

namespace {

[[noreturn]] void fail(const std::string& message) { throw error("OccupancyRecord: " + message); }

std::string on(const DeviceData& devdata) { return " on " + devdata.name; }

long long round_up(long long value, long long multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

void check_complete(const DeviceData& devdata) {
  const std::pair<const char*, long long> limits[] = {
      {"max_threads", devdata.max_threads},
      {"warp_size", devdata.warp_size},
      {"warps_per_mp", devdata.warps_per_mp},
      {"thread_blocks_per_mp", devdata.thread_blocks_per_mp},
      {"registers", devdata.registers},
      {"shared_memory", static_cast<long long>(devdata.shared_memory)},
      {"smem_alloc_granularity", devdata.smem_alloc_granularity},
      {"max_registers_per_block", devdata.max_registers_per_block},
      {"max_registers_per_thread", devdata.max_registers_per_thread},
      {"register_allocation_unit_size", devdata.register_allocation_unit_size},
      {"warp_allocation_granularity", devdata.warp_allocation_granularity},
      {"max_shared_memory_per_block_optin",
       static_cast<long long>(devdata.max_shared_memory_per_block_optin)},
  };
  for (const auto& [field, value] : limits) {
    if (value <= 0) {
      fail("DeviceData '" + devdata.name + "' has " + field + " = " + std::to_string(value) +
           "; every limit must be positive (DeviceData::from_device and "
           "DeviceData::for_compute_capability fill them all)");
    }
  }
  if (devdata.shared_memory_capacities.empty()) {
    fail("DeviceData '" + devdata.name +
         "' lists no shared_memory_capacities; expected the SM's carve-out sizes");
  }
}

// The smallest carve-out that holds `bytes`, as the driver configures an SM.
std::size_t capacity_for(const DeviceData& devdata, std::size_t bytes, const char* what) {
  for (std::size_t capacity : devdata.shared_memory_capacities) {
    if (capacity >= bytes) return capacity;
  }
  fail(std::string(what) + " of " + std::to_string(bytes) +
       " bytes is larger than the largest shared-memory carve-out (" +
       std::to_string(devdata.shared_memory_capacities.back()) + " bytes)" + on(devdata));
}

// The arguments against the device's per-block maxima, before anything is computed.
void check_arguments(const DeviceData& devdata, int threads, int registers, int smem_carveout) {
  check_complete(devdata);
  if (threads < 1) {
    fail("threads per block must be at least 1, got " + std::to_string(threads));
  }
  if (threads > devdata.max_threads) {
    fail("too many threads: " + std::to_string(threads) + " per block, the maximum is " +
         std::to_string(devdata.max_threads) + on(devdata));
  }
  if (registers < 0) {
    fail("registers per thread must be 0 or more, got " + std::to_string(registers));
  }
  if (registers > devdata.max_registers_per_thread) {
    fail("too many registers: " + std::to_string(registers) + " per thread, the maximum is " +
         std::to_string(devdata.max_registers_per_thread) + on(devdata));
  }
  if (smem_carveout < -1 || smem_carveout > 100) {
    fail("shared-memory carve-out " + std::to_string(smem_carveout) +
         " is out of range; expected a percentage 0..100, or -1 for the driver's default");
  }
}

// Registers go to warps in units; the per-block check counts warps as the hardware does, in whole
// groups of register partitions.
void limit_by_registers(OccupancyRecord& record, const DeviceData& devdata, int threads,
                        int registers) {
  const long long partitions = devdata.warp_allocation_granularity;
  const long long registers_per_warp = round_up(
      static_cast<long long>(registers) * devdata.warp_size, devdata.register_allocation_unit_size);
  const long long registers_checked =
      registers_per_warp * round_up(record.warps_per_block, partitions);
  if (registers_checked > devdata.max_registers_per_block) {
    fail("too many registers: " + std::to_string(threads) + " threads with " +
         std::to_string(registers) + " registers each need " + std::to_string(registers_checked) +
         " registers per block (" + std::to_string(registers_per_warp) + " per warp, for " +
         std::to_string(record.warps_per_block) + " warps counted in multiples of " +
         std::to_string(partitions) + "), more than the " +
         std::to_string(devdata.max_registers_per_block) + " a block may hold" + on(devdata));
  }
  record.allocated_registers_per_block =
      static_cast<int>(registers_per_warp * record.warps_per_block);
  if (registers_per_warp > 0) {
    const long long warps_per_partition = devdata.registers / partitions / registers_per_warp;
    record.tb_per_mp_limits.emplace_back(
        static_cast<int>(warps_per_partition * partitions / record.warps_per_block), "regs");
  }
}

// Shared memory: the block's bytes with the driver's reservation, in allocation units, against
// the SM's carve-out.
void limit_by_shared_memory(OccupancyRecord& record, const DeviceData& devdata,
                            std::size_t shared_mem, int smem_carveout) {
  const std::size_t reserved = devdata.reserved_shared_memory_per_block;
  const std::size_t block_limit = devdata.max_shared_memory_per_block_optin + reserved;
  if (shared_mem > devdata.max_shared_memory_per_block_optin) {
    fail("too much shared memory: " + std::to_string(shared_mem) +
         " bytes per block, the maximum is " +
         std::to_string(devdata.max_shared_memory_per_block_optin) + on(devdata) + " (above " +
         std::to_string(devdata.max_shared_memory_per_block) +
         " bytes only for a kernel that opts in through "
         "cudaFuncAttributeMaxDynamicSharedMemorySize)");
  }
  record.allocated_shared_memory_per_block = static_cast<std::size_t>(
      round_up(static_cast<long long>(shared_mem + reserved), devdata.smem_alloc_granularity));
  if (record.allocated_shared_memory_per_block > block_limit) {
    fail("too much shared memory: " + std::to_string(shared_mem) + " bytes per block take " +
         std::to_string(record.allocated_shared_memory_per_block) + " bytes with the driver's " +
         std::to_string(reserved) + "-byte reservation, rounded to units of " +
         std::to_string(devdata.smem_alloc_granularity) + ", more than the " +
         std::to_string(block_limit) + " a block may take" + on(devdata));
  }
  record.needs_smem_opt_in = shared_mem > devdata.max_shared_memory_per_block;
  const std::size_t preferred = capacity_for(
      devdata,
      smem_carveout < 0 ? devdata.shared_memory
                        : static_cast<std::size_t>(smem_carveout) * devdata.shared_memory / 100,
      "the preferred carve-out");
  // A preference too small for one block does not stop the launch: the driver takes the smallest
  // carve-out that fits one.
  record.shared_memory_per_mp =
      preferred >= record.allocated_shared_memory_per_block
          ? preferred
          : capacity_for(devdata, record.allocated_shared_memory_per_block,
                         "a block's shared memory");
  if (record.allocated_shared_memory_per_block > 0) {
    record.tb_per_mp_limits.emplace_back(
        static_cast<int>(record.shared_memory_per_mp / record.allocated_shared_memory_per_block),
        "smem");
  }
}

// The smallest limit; among equal ones, PyCUDA's tuple order (alphabetical by label).
void choose_limit(OccupancyRecord& record, const DeviceData& devdata, int threads) {
  const auto best =
      std::min_element(record.tb_per_mp_limits.begin(), record.tb_per_mp_limits.end());
  record.tb_per_mp = best->first;
  record.limited_by = best->second;
  for (const auto& [blocks, label] : record.tb_per_mp_limits) {
    if (blocks == record.tb_per_mp) record.limiting.push_back(label);
  }
  if (record.tb_per_mp < 1) {
    std::string limits;
    for (const auto& [blocks, label] : record.tb_per_mp_limits) {
      limits += (limits.empty() ? "" : ", ") + label + " " + std::to_string(blocks);
    }
    fail("no block of " + std::to_string(threads) + " threads fits" + on(devdata) +
         "; blocks per SM allowed by each limit: " + limits);
  }
}

}  // namespace

OccupancyRecord::OccupancyRecord(const DeviceData& devdata, int threads, std::size_t shared_mem,
                                 int registers, int smem_carveout) {
  check_arguments(devdata, threads, registers, smem_carveout);
  warps_per_block = static_cast<int>(round_up(threads, devdata.warp_size) / devdata.warp_size);
  tb_per_mp_limits.emplace_back(devdata.thread_blocks_per_mp, "device");
  tb_per_mp_limits.emplace_back(devdata.warps_per_mp / warps_per_block, "warps");
  limit_by_registers(*this, devdata, threads, registers);
  limit_by_shared_memory(*this, devdata, shared_mem, smem_carveout);
  choose_limit(*this, devdata, threads);
  warps_per_mp = tb_per_mp * warps_per_block;
  occupancy = static_cast<double>(warps_per_mp) / devdata.warps_per_mp;
}

}  // namespace polydev::cuda
