#pragma once

// Makes one CUDA device current for a scope and restores the previous one afterwards. Internal to
// the CUDA allocators: it never throws, and reports the status of its switch instead.

#include <cuda_runtime_api.h>

namespace polydev::cuda::detail {

class ScopedDevice {
 public:
  /// Makes `device` current on the calling thread unless it already is. `status()` says whether
  /// that worked (cudaErrorCudartUnloading during process exit, for example).
  explicit ScopedDevice(int device) noexcept {
    status_ = cudaGetDevice(&previous_);
    if (status_ != cudaSuccess || previous_ == device) return;
    status_ = cudaSetDevice(device);
    switched_ = status_ == cudaSuccess;
  }

  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

  /// Restores the device that was current before; a failure to do so is ignored.
  ~ScopedDevice() {
    if (switched_) (void)cudaSetDevice(previous_);
  }

  cudaError_t status() const noexcept { return status_; }

 private:
  int previous_ = -1;
  cudaError_t status_ = cudaSuccess;
  bool switched_ = false;
};

}  // namespace polydev::cuda::detail
