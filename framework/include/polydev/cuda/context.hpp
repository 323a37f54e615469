#pragma once

/// @file
/// Default CUDA context: the counterparts of PyCUDA's `make_default_context`,
/// `get_default_device` and `pycuda.autoinit`.
///
/// polydev uses the CUDA runtime, where "a context" is a device's primary context made current on
/// the calling thread (`cudaSetDevice` followed by a call that initializes it). This is what
/// `pycuda.autoprimaryctx` does, and it shares the context with every other runtime user in the
/// process.

#include <functional>
#include <string>

#include "polydev/cuda/inventory.hpp"
#include "polydev/cuda/selection.hpp"

namespace polydev::cuda {

/// Which device the default context is on and why.
struct ContextChoice {
  int ordinal = -1;
  std::string how;  ///< e.g. "CUDA_DEVICE='1'" or "first device on which a context could be made"
};

/// Makes the primary context of `ordinal` current and initialized on the calling thread.
/// @throws polydev::backend_error when the device cannot be used (exclusive-process mode, a
/// broken device, no driver), or when polydev was built without CUDA.
void activate_primary_context(int ordinal);

/// The driver's ID of the CUDA context current on the calling thread (`cuCtxGetId`): unique for
/// the life of the process, so a context made later (a primary context made again after
/// `cudaDeviceReset`, a new `cuCtxCreate` at a reused address) never gets an earlier one's ID.
/// The primary context counts like any other: `activate_primary_context` makes it current.
/// @throws polydev::error when no context is current on the calling thread (with how to make one
/// current); polydev::backend_error when the driver cannot be reached (no NVIDIA driver, or one
/// older than the runtime) or fails; polydev::error when polydev was built without CUDA.
unsigned long long current_context_id();

/// The runtime ordinal of the device of the context current on the calling thread (PyCUDA's
/// `Context.get_device()`). Unlike `cudaGetDevice`, which answers 0 when no context is current,
/// it refuses to guess. @throws what `current_context_id` throws.
int current_context_device();

/// Whether a CUDA runtime status (a `cudaError_t`) is one of the errors that the CUDA
/// documentation calls sticky: a fault of a kernel (illegal address or instruction, misaligned
/// address, launch failure or timeout, hardware stack error, ...) that leaves the context
/// unusable, so that every later call returns it. The driver does not give such a device back to
/// the process: a reset of the primary context succeeds, but every context made on the device
/// afterwards is refused (`cudaErrorDevicesUnavailable`); only a new process can use it again.
bool is_sticky_error(long status) noexcept;

/// Something that makes a context on a device, throwing `polydev::error` when it cannot.
using ContextMaker = std::function<void(int ordinal)>;

/// PyCUDA's rule: the device named by `CUDA_DEVICE` / `~/.cuda_device` / `~/.cuda-device` if one
/// is set (no fallback), otherwise the first device, in ordinal order, on which `make` succeeds.
/// @throws polydev::selection_error for a bad setting; polydev::error when CUDA has no device or
/// no device accepts a context (the message lists each device and its failure).
ContextChoice make_default_context(const DeviceSources& sources, const Inventory& inventory,
                                   const ContextMaker& make = activate_primary_context);

/// `make_default_context` over the live inventory and the real environment.
ContextChoice make_default_context();

/// PyCUDA's `get_default_device`: the configured ordinal if set, else `fallback`; makes no context.
/// @throws polydev::selection_error for a bad setting.
int get_default_device(int fallback = 0);

/// The process-wide default context (`pycuda.autoinit`): chosen by `make_default_context()` on
/// the first call (thread-safe), made current on the calling thread at every call. At process exit
/// the context caches are cleared and the device is synchronized; errors during exit, including
/// the runtime already unloading, are ignored rather than crashing the process.
/// @throws what `make_default_context()` throws, on every call if the first one failed.
const ContextChoice& autoinit();

}  // namespace polydev::cuda
