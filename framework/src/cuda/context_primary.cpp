// Primary-context activation and the process-wide default context (CUDA backend).
#include <cuda_runtime_api.h>

#include <mutex>
#include <optional>

#include "polydev/caches.hpp"
#include "polydev/cuda/context.hpp"
#include "polydev/cuda/error.hpp"
#include "polydev/cuda/memoize.hpp"
#include "polydev/error.hpp"

namespace polydev::cuda {

void activate_primary_context(int ordinal) {
  check(cudaSetDevice(ordinal), "cudaSetDevice", "device " + std::to_string(ordinal));
  // cudaFree(nullptr) is the documented way to force the primary context into existence.
  check(cudaFree(nullptr), "cudaFree(nullptr)",
        "initializing the primary context of device " + std::to_string(ordinal));
}

int current_context_key() noexcept {
  int ordinal = -1;
  if (cudaGetDevice(&ordinal) != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky, but do not leave it for the caller's next check
    return -1;
  }
  return ordinal;
}

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
