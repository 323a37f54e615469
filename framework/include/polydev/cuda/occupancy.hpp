#pragma once

/// @file
/// The counterpart of PyCUDA's `pycuda.tools.OccupancyRecord`: how many blocks of a kernel fit on
/// one SM, and which resource limits them.
///
/// PyCUDA's model stops at Kepler (see `device_data.hpp`); for an H100 it disagrees with CUDA in
/// most configurations. polydev keeps the record's fields and `limited_by` labels and computes what
/// CUDA's occupancy calculator (`cuda_occupancy.h`,
/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor`) computes for a kernel with one block barrier in
/// the default device state:
///
/// - warps: a block takes ceil(threads / warp_size) warp slots out of `warps_per_mp`;
/// - device: at most `thread_blocks_per_mp` blocks;
/// - regs: a warp gets registers * warp_size registers rounded up to
///   `register_allocation_unit_size` (256); a block's warp count is rounded up to
///   `warp_allocation_granularity` (4) for the per-block check, and the SM's registers are split
///   into that many partitions, each holding a whole number of warps;
/// - smem: a block takes shared_mem + `reserved_shared_memory_per_block` bytes, rounded up to
///   `smem_alloc_granularity`; the SM's carve-out is the preferred one (the largest by default)
///   rounded up to a supported capacity, or the smallest capacity that holds one block if the
///   preferred one does not.
///
/// `shared_mem` is everything the block uses: static plus dynamic. Above the 48 KiB per-block
/// default the kernel is assumed to have opted in (`cudaFuncSetAttribute` with
/// `cudaFuncAttributeMaxDynamicSharedMemorySize`), up to `max_shared_memory_per_block_optin`.
/// A launch that CUDA would refuse (0 blocks) is an error here, as in PyCUDA.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "polydev/cuda/device_data.hpp"

namespace polydev::cuda {

/// The occupancy of a kernel launch on one SM.
class OccupancyRecord {
 public:
  /// @param devdata the device or architecture (`DeviceData::from_device`,
  ///   `DeviceData::for_compute_capability`)
  /// @param threads threads per block, 1..`devdata.max_threads`
  /// @param shared_mem shared memory per block in bytes, static plus dynamic, at most
  ///   `devdata.max_shared_memory_per_block_optin`
  /// @param registers registers per thread as the compiler assigned them
  ///   (`cudaFuncAttributes::numRegs`), 0..`devdata.max_registers_per_thread`; 0 imposes no limit
  /// @param smem_carveout the preferred shared-memory carve-out in percent of
  ///   `devdata.shared_memory` (`cudaFuncAttributePreferredSharedMemoryCarveout`), or -1 for the
  ///   driver's default
  /// @throws polydev::error naming the value and the limit it exceeds, for threads, registers or
  ///   shared memory out of range, for a block whose registers exceed `max_registers_per_block`,
  ///   for a carve-out outside -1..100, and for a `devdata` with a limit that is not positive.
  OccupancyRecord(const DeviceData& devdata, int threads, std::size_t shared_mem = 0,
                  int registers = 0, int smem_carveout = -1);

  int tb_per_mp = 0;  ///< resident blocks per SM
  /// The limiting factor: "device" (blocks per SM), "warps", "regs" or "smem". Ties go to the
  /// first in that (PyCUDA's alphabetical) order; `limiting` lists all of them.
  std::string limited_by;
  int warps_per_mp = 0;    ///< resident warps per SM: tb_per_mp * warps per block
  double occupancy = 0.0;  ///< warps_per_mp / devdata.warps_per_mp

  /// Blocks per SM each factor allows, as PyCUDA's `tb_per_mp_limits` (device, warps, then regs
  /// and smem where they limit at all: not for 0 registers, nor for 0 bytes without a per-block
  /// reservation).
  std::vector<std::pair<int, std::string>> tb_per_mp_limits;
  /// Every factor that allows exactly `tb_per_mp`, in the order of `tb_per_mp_limits` (CUDA's
  /// `limitingFactors`).
  std::vector<std::string> limiting;

  int warps_per_block = 0;                            ///< ceil(threads / warp_size)
  int allocated_registers_per_block = 0;              ///< after the per-warp rounding
  std::size_t allocated_shared_memory_per_block = 0;  ///< with the reservation and rounding
  std::size_t shared_memory_per_mp = 0;               ///< the carve-out the calculation used
  /// True when the block needs more than `max_shared_memory_per_block`, so that the kernel must
  /// opt in for the launch to succeed.
  bool needs_smem_opt_in = false;
};

}  // namespace polydev::cuda
