#pragma once

// Real kernels for the occupancy agreement test, with register budgets from a dozen to 255 per
// thread and 0, 4 KiB or 48 KiB of static shared memory. Host code sees them as function pointers
// for cudaFuncGetAttributes, cudaFuncSetAttribute and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

struct OccupancyKernel {
  const char* name;
  const void* function;
  int launch_bound;  ///< the block size declared in __launch_bounds__, or 0 when none is declared
};

/// Every kernel of the test.
std::vector<OccupancyKernel> occupancy_kernels();

/// Launches `kernel` on the current device with `blocks` blocks of `threads` threads and
/// `dynamic_smem` bytes of dynamic shared memory, waits for it, and returns the launch's status.
cudaError_t launch_occupancy_kernel(const OccupancyKernel& kernel, int blocks, int threads,
                                    std::size_t dynamic_smem);
