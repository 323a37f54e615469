// DeviceData of a present device: what the driver reports, completed by the architecture table
// for the constants it does not report.
#include <cuda_runtime_api.h>

#include <string>

#include "polydev/cuda/context.hpp"
#include "polydev/cuda/device_data.hpp"
#include "polydev/cuda/error.hpp"

namespace polydev::cuda {

namespace {

int attribute(cudaDeviceAttr which, const char* what, int ordinal) {
  int value = 0;
  check(cudaDeviceGetAttribute(&value, which, ordinal), "cudaDeviceGetAttribute",
        std::string(what) + " of device " + std::to_string(ordinal));
  return value;
}

}  // namespace

DeviceData DeviceData::from_device(int ordinal) {
  const int major = attribute(cudaDevAttrComputeCapabilityMajor, "compute capability", ordinal);
  const int minor = attribute(cudaDevAttrComputeCapabilityMinor, "compute capability", ordinal);
  DeviceData data = for_compute_capability(major, minor);
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, ordinal), "cudaGetDeviceProperties",
        "device " + std::to_string(ordinal));
  data.name = "device " + std::to_string(ordinal) + " '" + properties.name +
              "' (compute capability " + std::to_string(major) + "." + std::to_string(minor) + ")";
  data.multiprocessors = properties.multiProcessorCount;
  data.max_threads = properties.maxThreadsPerBlock;
  data.warp_size = properties.warpSize;
  data.max_threads_per_mp = properties.maxThreadsPerMultiProcessor;
  data.warps_per_mp = data.max_threads_per_mp / data.warp_size;
  // Added to cudaDeviceProp in CUDA 11; read as attributes to say which one failed.
  data.thread_blocks_per_mp =
      attribute(cudaDevAttrMaxBlocksPerMultiprocessor, "max blocks per SM", ordinal);
  data.registers = properties.regsPerMultiprocessor;
  data.max_registers_per_block = properties.regsPerBlock;
  data.shared_memory = properties.sharedMemPerMultiprocessor;
  data.max_shared_memory_per_block = properties.sharedMemPerBlock;
  data.max_shared_memory_per_block_optin = static_cast<std::size_t>(attribute(
      cudaDevAttrMaxSharedMemoryPerBlockOptin, "opt-in shared memory per block", ordinal));
  data.reserved_shared_memory_per_block = static_cast<std::size_t>(attribute(
      cudaDevAttrReservedSharedMemoryPerBlock, "reserved shared memory per block", ordinal));
  return data;
}

DeviceData DeviceData::from_device() { return from_device(current_context_device()); }

}  // namespace polydev::cuda
