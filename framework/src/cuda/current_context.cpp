// The context current on the calling thread, read from the driver (the runtime has no notion of a
// context, and cudaGetDevice answers 0 when none is current).
#include <string>

#include "cuda/driver_entry_points.hpp"
#include "polydev/cuda/context.hpp"
#include "polydev/error.hpp"

namespace polydev::cuda {

namespace {

CUcontext current_context(const char* asked_by) {
  const detail::DriverEntryPoints& driver = detail::driver_entry_points();
  CUcontext context = nullptr;
  detail::check_driver(driver.ctx_get_current(&context), "cuCtxGetCurrent", asked_by);
  if (context == nullptr) {
    throw error(std::string(asked_by) +
                ": no CUDA context is current on this thread; make one current first "
                "(polydev::cuda::activate_primary_context(ordinal) or polydev::cuda::autoinit(), "
                "in a test the CudaTest fixture does it; each thread needs its own)");
  }
  return context;
}

}  // namespace

unsigned long long current_context_id() {
  constexpr const char* asked_by = "current_context_id";
  const CUcontext context = current_context(asked_by);
  unsigned long long id = 0;
  detail::check_driver(detail::driver_entry_points().ctx_get_id(context, &id), "cuCtxGetId",
                       asked_by);
  return id;
}

int current_context_device() {
  constexpr const char* asked_by = "current_context_device";
  (void)current_context(asked_by);
  CUdevice device = -1;
  detail::check_driver(detail::driver_entry_points().ctx_get_device(&device), "cuCtxGetDevice",
                       asked_by);
  // A CUdevice is the device's ordinal, the same number the runtime uses for it.
  return static_cast<int>(device);
}

}  // namespace polydev::cuda
