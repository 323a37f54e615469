#include "polydev/cuda/error.hpp"

#include "polydev/error.hpp"

namespace polydev::cuda {

std::string describe(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + " (" + std::to_string(static_cast<int>(status)) +
         "): " + cudaGetErrorString(status);
}

void check(cudaError_t status, const char* api, const std::string& detail) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();
  std::string description = cudaGetErrorString(status);
  if (!detail.empty()) description = detail + ": " + description;
  if (status == cudaErrorMemoryAllocation) {
    throw out_of_memory(std::string(api) + " failed: " + cudaGetErrorName(status) + " (" +
                        std::to_string(static_cast<int>(status)) + "): " + description);
  }
  throw backend_error("CUDA", api, static_cast<long>(status), cudaGetErrorName(status),
                      description);
}

}  // namespace polydev::cuda
