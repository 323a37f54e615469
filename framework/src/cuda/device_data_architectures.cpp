// DeviceData for an architecture that is not present: one row per compute capability.
//
// Sources, cited per column below:
//  [PG]   CUDA Programming Guide (CUDA 13), appendix "Compute Capabilities": Table 30 (resident
//         blocks, warps and threads per SM), Table 31 (registers; shared memory per SM and per
//         block), Table 32 (shared-memory capacity sizes). Columns 7.5 to 12.x, 10.3 and 12.1
//         included (12.x and 10.x share a column).
//  [PG12] CUDA 12 C++ Programming Guide, "Technical Specifications per Compute Capability": the
//         same rows for 7.0 and 7.2, which CUDA 13 no longer compiles for.
//  [OCC]  cuda_occupancy.h of the CUDA 13.0 toolkit (CUDA's occupancy calculator): register
//         allocation unit 256 and 4 register partitions for every cc >= 3.0, shared memory
//         allocated in units of 256 bytes on 7.x and 128 bytes from 8.0 on, carve-out steps for
//         7.0 and 7.2.
//  [DEV]  cudaDevAttrReservedSharedMemoryPerBlock: 1024 on an H100 (read with
//  cudaDeviceGetAttribute); the guide
//         shows it as per-SM maximum minus per-block maximum (1 KB from 8.0 on, 0 on 7.x).
// tests/framework/cuda/occupancy_reference_test.cpp checks every row against [OCC] where the
// toolkit is installed, and tests/framework/cuda/occupancy_agreement_test.cpp the present GPU's row
// against the driver.
#include <cstddef>
#include <string>
#include <vector>

#include "polydev/cuda/device_data.hpp"
#include "polydev/error.hpp"

namespace polydev::cuda {

namespace {

constexpr std::size_t kKiB = 1024;

struct Row {
  int major;
  int minor;
  int max_threads_per_mp;                   // [PG] Table 30; [PG12] for 7.x
  int blocks_per_mp;                        // [PG] Table 30; [PG12] for 7.x; equal to [OCC]
  std::size_t smem_per_mp;                  // KiB, [PG] Table 31; [PG12] for 7.x
  std::size_t smem_optin;                   // KiB per block, [PG] Table 31; [PG12] for 7.x
  std::size_t smem_reserved;                // bytes per block, [DEV]
  int smem_alloc_granularity;               // bytes, [OCC]
  std::vector<std::size_t> capacities_kib;  // [PG] Table 32; [OCC] for 7.0 and 7.2
};

const std::vector<Row>& rows() {
  static const std::vector<Row> table = [] {
    const std::vector<std::size_t> volta{0, 8, 16, 32, 64, 96};
    const std::vector<std::size_t> up_to_100{0, 8, 16, 32, 64, 100};
    const std::vector<std::size_t> up_to_164{0, 8, 16, 32, 64, 100, 132, 164};
    const std::vector<std::size_t> up_to_228{0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    return std::vector<Row>{
        {7, 0, 2048, 32, 96, 96, 0, 256, volta},            // Volta (V100)
        {7, 2, 2048, 32, 96, 96, 0, 256, volta},            // Xavier
        {7, 5, 1024, 16, 64, 64, 0, 256, {32, 64}},         // Turing
        {8, 0, 2048, 32, 164, 163, 1024, 128, up_to_164},   // A100
        {8, 6, 1536, 16, 100, 99, 1024, 128, up_to_100},    // GA10x
        {8, 7, 1536, 16, 164, 163, 1024, 128, up_to_164},   // Orin
        {8, 9, 1536, 24, 100, 99, 1024, 128, up_to_100},    // Ada
        {9, 0, 2048, 32, 228, 227, 1024, 128, up_to_228},   // Hopper
        {10, 0, 2048, 32, 228, 227, 1024, 128, up_to_228},  // B200
        {10, 3, 2048, 32, 228, 227, 1024, 128, up_to_228},  // B300
        {11, 0, 1536, 24, 228, 227, 1024, 128, up_to_228},  // Thor
        {12, 0, 1536, 24, 100, 99, 1024, 128, up_to_100},   // RTX 50
        {12, 1, 1536, 24, 100, 99, 1024, 128, up_to_100},   // GB10
    };
  }();
  return table;
}

std::string cc_text(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string supported_list() {
  std::string list;
  for (const Row& row : rows()) {
    if (!list.empty()) list += ", ";
    list += cc_text(row.major, row.minor);
  }
  return list;
}

}  // namespace

DeviceData DeviceData::for_compute_capability(int major, int minor) {
  for (const Row& row : rows()) {
    if (row.major != major || row.minor != minor) continue;
    DeviceData data;
    data.name = "compute capability " + cc_text(major, minor) + " (polydev's table)";
    data.compute_capability_major = major;
    data.compute_capability_minor = minor;
    // Equal on every architecture in the table ([PG] / [PG12]): 1024 threads per block, warps of
    // 32, 64 K registers per SM and per block, 255 registers per thread, 48 KiB per block without
    // the opt-in, 32 shared-memory banks.
    data.max_threads = 1024;
    data.warp_size = 32;
    data.registers = 64 * 1024;
    data.max_registers_per_block = 64 * 1024;
    data.max_registers_per_thread = 255;
    data.max_shared_memory_per_block = 48 * kKiB;
    data.smem_granularity = 32;
    data.register_allocation_unit_size = 256;  // [OCC]
    data.warp_allocation_granularity = 4;      // [OCC]
    data.max_threads_per_mp = row.max_threads_per_mp;
    data.warps_per_mp = row.max_threads_per_mp / data.warp_size;
    data.thread_blocks_per_mp = row.blocks_per_mp;
    data.shared_memory = row.smem_per_mp * kKiB;
    data.max_shared_memory_per_block_optin = row.smem_optin * kKiB;
    data.reserved_shared_memory_per_block = row.smem_reserved;
    data.smem_alloc_granularity = row.smem_alloc_granularity;
    for (std::size_t kib : row.capacities_kib) data.shared_memory_capacities.push_back(kib * kKiB);
    return data;
  }
  throw error("no CUDA architecture data for compute capability " + cc_text(major, minor) +
              "; polydev's table has " + supported_list());
}

std::vector<std::string> DeviceData::supported_compute_capabilities() {
  std::vector<std::string> list;
  for (const Row& row : rows()) list.push_back(cc_text(row.major, row.minor));
  return list;
}

}  // namespace polydev::cuda
