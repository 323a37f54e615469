#pragma once

/// @file
/// The OpenCL inventory as plain values: what the ICD loader reports, copied out of the driver
/// once. Selection (`polydev/opencl/selection.hpp`) is a pure function over these values, so it can
/// be tested and fuzzed on synthetic inventories without any driver.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polydev::opencl {

/// Bits of `CL_DEVICE_SVM_CAPABILITIES` (OpenCL 2.0), kept as plain numbers so that this header
/// does not need the OpenCL headers.
enum svm_capability : std::uint64_t {
  svm_coarse_grain_buffer = 1u << 0,
  svm_fine_grain_buffer = 1u << 1,
  svm_fine_grain_system = 1u << 2,
  svm_atomics = 1u << 3,
};

/// One OpenCL device, as its driver describes it.
struct DeviceInfo {
  std::size_t index = 0;       ///< position in its platform's `clGetDeviceIDs(CL_DEVICE_TYPE_ALL)`
  std::string name;            ///< `CL_DEVICE_NAME`, trimmed
  std::string vendor;          ///< `CL_DEVICE_VENDOR`, trimmed
  std::string type;            ///< "cpu", "gpu", "accelerator", "custom" or "default"
  std::string version;         ///< `CL_DEVICE_VERSION`, e.g. "OpenCL 3.0 PoCL ..."
  std::string driver_version;  ///< `CL_DRIVER_VERSION`
  std::uint32_t compute_units = 0;
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t local_memory_bytes = 0;
  std::size_t max_work_group_size = 0;
  bool fp64 = false;                   ///< double precision supported (fp config or `cl_khr_fp64`)
  std::uint64_t svm_capabilities = 0;  ///< `svm_capability` bits; 0 before OpenCL 2.0
  std::string extensions;              ///< `CL_DEVICE_EXTENSIONS`
  /// NVIDIA's compute capability (`cl_nv_device_attribute_query`); 0 where the driver has none.
  int nv_compute_capability_major = 0;
  int nv_compute_capability_minor = 0;
  std::optional<std::string> pci_bus_id;  ///< "dddd:bb:dd.f" when the driver reports it
  std::string key;  ///< stable `[a-z0-9_]` name, unique on this machine (see key.hpp)
};

/// One OpenCL platform and its devices.
struct PlatformInfo {
  std::size_t index = 0;  ///< position in `clGetPlatformIDs`
  std::string name;       ///< `CL_PLATFORM_NAME`, trimmed
  std::string vendor;     ///< `CL_PLATFORM_VENDOR`, trimmed
  std::string version;    ///< `CL_PLATFORM_VERSION`
  std::vector<DeviceInfo> devices;
  std::string devices_error;  ///< why `devices` is empty when the driver failed to list them
};

/// Everything the ICD loader reported. `available` is false when there is no loader, no platform or
/// no device at all; `reason` then says which, in words a person can act on.
struct Inventory {
  bool available = false;
  std::string reason;
  std::vector<PlatformInfo> platforms;
  /// Set when a listing call failed with a status that does not mean "none" (anything but
  /// `CL_PLATFORM_NOT_FOUND_KHR` from `clGetPlatformIDs` and `CL_DEVICE_NOT_FOUND` from
  /// `clGetDeviceIDs`): the call, the status's name and number, and what it means. The backend is
  /// then broken, not empty: its selection fails with this text instead of skipping.
  std::string failure;
};

/// Position of a device in an inventory: indices, not handles, so that selections are plain values.
struct DevicePosition {
  std::size_t platform = 0;
  std::size_t device = 0;
  friend bool operator==(const DevicePosition& a, const DevicePosition& b) {
    return a.platform == b.platform && a.device == b.device;
  }
};

/// What a test instance is parametrized with: the platform and device descriptions of one device.
struct DeviceDescriptor {
  PlatformInfo platform;  ///< the device's platform (its `devices` member is left empty)
  DeviceInfo device;
  DevicePosition position() const { return {platform.index, device.index}; }
};

/// Builds the descriptor of the device at `position` (which must exist in `inventory`).
DeviceDescriptor describe(const Inventory& inventory, DevicePosition position);

/// Fills in `DeviceInfo::key` for every device of `inventory`; see `polydev/key.hpp` for the rules.
void assign_keys(Inventory& inventory);

/// Enumerates every platform and device through the ICD loader. Never throws for a missing loader,
/// platform or device: that is reported through `Inventory::available` and `Inventory::reason`.
/// Without the OpenCL backend compiled in, returns an unavailable inventory saying so.
Inventory enumerate();

/// The inventory of this process, enumerated once on first use (thread-safe); what fixtures and the
/// `polydev` tool select from.
const Inventory& system_inventory();

}  // namespace polydev::opencl
