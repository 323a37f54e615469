#pragma once

/// @file
/// The counterpart of PyCUDA's `pycuda.tools.DeviceData`: the per-multiprocessor limits of a CUDA
/// device, as the occupancy calculation (`polydev/cuda/occupancy.hpp`) needs them.
///
/// PyCUDA fills these from a Kepler-era model: 8 blocks per SM, 64 warps per SM for every compute
/// capability from 3.0 on, and the *per-block* register and shared-memory limits used as if they
/// were the SM's. polydev keeps PyCUDA's attribute names but gives them the values that CUDA's own
/// occupancy calculator uses: read from the device when there is one, and otherwise from a table
/// per architecture (`for_compute_capability`), so that a machine without the GPU can still answer
/// for it. `docs/characterization.md` lists every difference from PyCUDA.
///
/// Pure C++: usable without the CUDA toolkit, except `from_device`, which needs the CUDA backend.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace polydev::cuda {

/// Per-SM and per-block limits of one CUDA architecture or device. A plain value: every field is
/// public, as PyCUDA's attributes are. Make one with `from_device` or `for_compute_capability`;
/// a hand-filled one must have every limit positive, or `OccupancyRecord` rejects it.
struct DeviceData {
  /// Where the values come from, e.g. "compute capability 9.0 (polydev's table)" or
  /// "device 0 'NVIDIA H100 80GB HBM3' (compute capability 9.0)".
  std::string name;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessors = 0;  ///< SM count of the device; 0 when made from the table

  // PyCUDA's attributes, with the values CUDA's calculator uses.
  int max_threads = 0;           ///< threads per block (PyCUDA: the same)
  int warp_size = 0;             ///< threads per warp (PyCUDA: the same)
  int warps_per_mp = 0;          ///< resident warps per SM (PyCUDA: 64 for every cc >= 3.0)
  int thread_blocks_per_mp = 0;  ///< resident blocks per SM (PyCUDA: always 8)
  int registers = 0;             ///< 32-bit registers per SM (PyCUDA: registers per *block*)
  /// Shared memory per SM in bytes, the largest carve-out (PyCUDA: the 48 KiB per-*block* default).
  std::size_t shared_memory = 0;
  int smem_granularity = 0;        ///< threads taking part in one banked access: the bank count
  int smem_alloc_granularity = 0;  ///< bytes; shared memory is allocated per block in these units
  std::string register_allocation_unit = "warp";  ///< PyCUDA's attribute; "warp" for cc >= 2.0

  // What CUDA's calculator needs beyond PyCUDA's attributes.
  int max_threads_per_mp = 0;             ///< resident threads per SM (= warps_per_mp * warp_size)
  int max_registers_per_block = 0;        ///< 32-bit registers one block may hold
  int max_registers_per_thread = 0;       ///< 255: what the compiler can assign to one thread
  int register_allocation_unit_size = 0;  ///< registers are given to a warp in multiples of this
  /// The register file is split into this many partitions, and the per-block register check
  /// rounds a block's warp count up to a multiple of it (the calculator's "warp allocation
  /// granularity").
  int warp_allocation_granularity = 0;
  std::size_t max_shared_memory_per_block = 0;        ///< without opting in (48 KiB)
  std::size_t max_shared_memory_per_block_optin = 0;  ///< with cudaFuncSetAttribute's opt-in
  std::size_t reserved_shared_memory_per_block = 0;   ///< taken by the driver per block (cc >= 8.0)
  /// The shared-memory carve-outs an SM can be configured to, in bytes, ascending. The driver
  /// rounds a request up to one of these.
  std::vector<std::size_t> shared_memory_capacities;

  /// The table's values for an architecture, citing the CUDA Programming Guide's "Compute
  /// Capabilities" appendix and CUDA 13's `cuda_occupancy.h` (see the table's source).
  /// @throws polydev::error for a compute capability that is not in the table, listing those that
  /// are.
  static DeviceData for_compute_capability(int major, int minor);

  /// The same from text such as "9.0" or "12.1". @throws polydev::error for text that is not
  /// `MAJOR.MINOR`, or an architecture not in the table.
  static DeviceData for_compute_capability(std::string_view text);

  /// The values of a present device: limits read through `cudaDeviceGetAttribute`, and the
  /// architecture constants the driver does not report (allocation granularities, register
  /// partitions, carve-out sizes, 255 registers per thread) from the table. @throws
  /// polydev::backend_error when the runtime fails, polydev::error without the CUDA backend or for
  /// an architecture not in the table.
  static DeviceData from_device(int ordinal);

  /// PyCUDA's `DeviceData()` without a device: the values of the device of the context current
  /// on the calling thread (`current_context_device()` in `polydev/cuda/context.hpp`).
  /// @throws polydev::error when no context is current on the calling thread, or without the CUDA
  /// backend; what `from_device(int)` throws.
  static DeviceData from_device();

  /// "7.0", "7.2", ..., "12.1": every architecture in the table.
  static std::vector<std::string> supported_compute_capabilities();

  /// Alignment in bytes for coalesced fetches of `word_size`-byte words: 64 for 4, 128 for 8 and
  /// 16 (PyCUDA's rule). @throws polydev::error for any other size.
  int align_bytes(int word_size = 4) const;

  /// `bytes` rounded up to a multiple of `align_bytes(word_size)`.
  std::size_t align(std::size_t bytes, int word_size = 4) const;

  /// `align_bytes(word_size) / word_size`: the alignment counted in words.
  int align_words(int word_size) const;

  /// `elements` rounded up to a multiple of `align_words(dtype_size)`.
  std::size_t align_dtype(std::size_t elements, int dtype_size) const;

  /// `thread_count` rounded up to a multiple of 16 (PyCUDA's `coalesce`). @throws polydev::error
  /// for a negative count.
  int coalesce(int thread_count) const;

  /// The smallest texture channel count (1, 2 or 4) that holds `size` channels. @throws
  /// polydev::error for sizes outside 1..4 (PyCUDA silently answers 1 for 0 and negatives).
  static int make_valid_tex_channel_count(int size);
};

}  // namespace polydev::cuda
