// make_default_context's device choice, independent of the driver (the maker is a parameter).
#include "polydev/cuda/context.hpp"

#include "io/printable.hpp"
#include "polydev/error.hpp"
#include "polydev/selection.hpp"

namespace polydev::cuda {

ContextChoice make_default_context(const DeviceSources& sources, const Inventory& inventory,
                                   const ContextMaker& make) {
  if (const auto ordinal = default_ordinal(sources, inventory)) {
    make(*ordinal);  // a configured device is used or fails; PyCUDA does not fall back either
    return {*ordinal,
            effective_setting(sources)->source == "CUDA_DEVICE"
                ? "CUDA_DEVICE=" + polydev::detail::quote(sources.cuda_device.value_or(""))
                : "file " + polydev::detail::printable(effective_setting(sources)->source)};
  }
  if (!inventory.available || inventory.devices.empty()) {
    throw error("make_default_context: no CUDA device: " + inventory.reason);
  }
  std::string failures;
  for (const DeviceInfo& device : inventory.devices) {
    try {
      make(device.ordinal);
      return {device.ordinal, "first device on which a context could be made"};
    } catch (const error& failure) {
      failures += "; " + std::to_string(device.ordinal) + " " +
                  polydev::detail::quote(device.name) + ": " + failure.what();
    }
  }
  throw error("make_default_context could not make a context on any of the " +
              std::to_string(inventory.devices.size()) + " CUDA devices" + failures);
}

// The device sources as the selection reads them: a polydev.yaml profile's CUDA_DEVICE included.
ContextChoice make_default_context() {
  return make_default_context(process_selection_inputs().cuda_sources, system_inventory());
}

bool is_sticky_error(long status) noexcept {
  // The runtime statuses whose documentation says "this leaves the process in an inconsistent
  // state and any further CUDA work will return the same error" (CUDA 13's driver_types.h). As
  // numbers, so that the answer is the same in a build without CUDA.
  switch (status) {
    case 226:  // cudaErrorContained
    case 700:  // cudaErrorIllegalAddress
    case 702:  // cudaErrorLaunchTimeout
    case 714:  // cudaErrorHardwareStackError
    case 715:  // cudaErrorIllegalInstruction
    case 716:  // cudaErrorMisalignedAddress
    case 717:  // cudaErrorInvalidAddressSpace
    case 718:  // cudaErrorInvalidPc
    case 719:  // cudaErrorLaunchFailure
    case 721:  // cudaErrorTensorMemoryLeak
    case 911:  // cudaErrorExternalDevice
      return true;
    default:
      return false;
  }
}

int get_default_device(int fallback) {
  return default_ordinal(process_selection_inputs().cuda_sources, system_inventory())
      .value_or(fallback);
}

}  // namespace polydev::cuda
