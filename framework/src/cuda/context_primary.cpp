// Primary-context activation and the process-wide default context (CUDA backend).
#include <cuda_runtime_api.h>

#include <mutex>
#include <optional>

#include "polydev/caches.hpp"
#include "polydev/cuda/context.hpp"
#include "polydev/cuda/error.hpp"
#include "polydev/error.hpp"

namespace polydev::cuda {

void activate_primary_context(int ordinal) {
  check(cudaSetDevice(ordinal), "cudaSetDevice", "device " + std::to_string(ordinal));
  // cudaFree(nullptr) is the documented way to force the primary context into existence.
  check(cudaFree(nullptr), "cudaFree(nullptr)",
        "initializing the primary context of device " + std::to_string(ordinal));
}

// is_sticky_error (context.cpp) lists these by number.
static_assert(cudaErrorContained == 226 && cudaErrorIllegalAddress == 700 &&
              cudaErrorLaunchTimeout == 702 && cudaErrorHardwareStackError == 714 &&
              cudaErrorIllegalInstruction == 715 && cudaErrorMisalignedAddress == 716 &&
              cudaErrorInvalidAddressSpace == 717 && cudaErrorInvalidPc == 718 &&
              cudaErrorLaunchFailure == 719 && cudaErrorTensorMemoryLeak == 721 &&
              cudaErrorExternalDevice == 911);

namespace {

class DefaultContext {
 public:
  const ContextChoice& get() {
    std::call_once(once_, [this] {
      try {
        choice_ = make_default_context();
      } catch (...) {
        failure_ = std::current_exception();
      }
    });
    if (failure_) std::rethrow_exception(failure_);
    activate_primary_context(choice_->ordinal);
    return *choice_;
  }

  ~DefaultContext() {
    if (!choice_) return;
    clear_context_caches();
    // At exit the runtime may already be unloading (cudaErrorCudartUnloading); nothing useful can
    // be done about any error here, and throwing from a destructor would terminate.
    (void)cudaDeviceSynchronize();
    (void)cudaGetLastError();
  }

 private:
  std::once_flag once_;
  std::optional<ContextChoice> choice_;
  std::exception_ptr failure_;
};

}  // namespace

const ContextChoice& autoinit() {
  static DefaultContext context;
  return context.get();
}

}  // namespace polydev::cuda
