#pragma once

/// @file
/// The CUDA inventory as plain values. Enumeration goes through the CUDA runtime, which loads the
/// driver at run time: on a machine without an NVIDIA driver the inventory is simply unavailable,
/// with the runtime's reason.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace polydev::cuda {

/// One CUDA device.
struct DeviceInfo {
  int ordinal = 0;   ///< runtime ordinal (after `CUDA_VISIBLE_DEVICES`)
  std::string name;  ///< e.g. "NVIDIA H200"
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  std::string uuid;        ///< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string pci_bus_id;  ///< "dddd:bb:dd.f"
  std::uint64_t total_memory_bytes = 0;
  int multiprocessors = 0;
  std::string key;  ///< stable `[a-z0-9_]` name (see key.hpp)
};

/// Every device the runtime reports. `available` is false when the runtime cannot load a driver or
/// finds no device; `reason` says which (with the runtime's error name).
struct Inventory {
  bool available = false;
  std::string reason;
  int driver_version = 0;   ///< `cudaDriverGetVersion`, e.g. 13000; 0 without a driver
  int runtime_version = 0;  ///< `cudaRuntimeGetVersion`; 0 without the CUDA backend
  std::vector<DeviceInfo> devices;
};

/// Fills in `DeviceInfo::key` for every device; see `polydev/key.hpp`.
void assign_keys(Inventory& inventory);

/// Enumerates the CUDA devices. Never throws for a missing driver or device. Without the CUDA
/// backend compiled in, returns an unavailable inventory saying so.
Inventory enumerate();

/// The inventory of this process, enumerated once on first use (thread-safe).
const Inventory& system_inventory();

}  // namespace polydev::cuda
