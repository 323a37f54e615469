#pragma once

/// @file
/// The device: one value for an OpenCL and a CUDA device alike. Both inventories produce it
/// (`devices_of`), selection chooses among these values, `POLYDEV_DEVICES` tests their attributes,
/// `polydev.yaml` expectations match them, and every fixture instance holds one (or a set of them).
/// The backend-specific descriptions (`opencl::DeviceInfo`, `cuda::DeviceInfo`) stay what the
/// drivers report; `Device` is what the rest of polydev reasons about.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/opencl/inventory.hpp"

namespace polydev {

/// The API through which a device is driven.
enum class Backend { opencl, cuda };

/// A set of backends.
struct Backends {
  bool opencl = false;
  bool cuda = false;
};

/// "opencl" or "cuda": the word selectors, CTest resources and reports use.
std::string_view backend_name(Backend backend);

/// "OpenCL" or "CUDA": the word of messages and test-instance prefixes.
std::string_view backend_label(Backend backend);

/// A "MAJOR.MINOR" version as selectors compare it (OpenCL versions, compute capabilities).
struct DeviceVersion {
  int major = 0;
  int minor = 0;
  friend bool operator==(DeviceVersion a, DeviceVersion b) {
    return a.major == b.major && a.minor == b.minor;
  }
  friend bool operator<(DeviceVersion a, DeviceVersion b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  }
};

/// One device of this machine, whichever backend drives it.
struct Device {
  Backend backend = Backend::opencl;
  std::string key;  ///< stable `[a-z0-9_]` name, unique on this machine (polydev/key.hpp)
  std::string name;
  std::string vendor;  ///< CUDA devices: "NVIDIA Corporation", as NVIDIA's OpenCL driver says
  std::optional<std::string> platform;         ///< the OpenCL platform's name; none for CUDA
  std::optional<std::string> platform_vendor;  ///< the OpenCL platform's vendor
  std::string type;   ///< "gpu", "cpu", "accelerator", "custom"; CUDA: "gpu"
  bool fp64 = false;  ///< double precision; every CUDA device has it
  std::optional<DeviceVersion> opencl_version;      ///< from `CL_DEVICE_VERSION`; none for CUDA
  std::optional<DeviceVersion> compute_capability;  ///< CUDA's; NVIDIA's OpenCL reports it too
  std::vector<std::string> extensions;              ///< OpenCL extensions; none for CUDA
  std::uint64_t memory_bytes = 0;                   ///< global memory
  std::uint32_t compute_units = 0;                  ///< OpenCL compute units; CUDA multiprocessors
  /// OpenCL: `CL_DRIVER_VERSION`; CUDA: the driver's version as "13.0" (`cudaDriverGetVersion`).
  std::string driver_version;
  /// The PoCL release of a device on a PoCL platform ("3.1+debian", from the platform's version
  /// string); nothing on other platforms and for CUDA.
  std::optional<std::string> pocl_version;

  /// Where the driver finds it: the OpenCL platform's position in `clGetPlatformIDs` and the
  /// device's in that platform's `clGetDeviceIDs(CL_DEVICE_TYPE_ALL)`; unused for CUDA.
  opencl::DevicePosition opencl_position;
  /// Where the driver finds it: the CUDA runtime ordinal (after `CUDA_VISIBLE_DEVICES`); -1 for
  /// OpenCL.
  int cuda_ordinal = -1;
};

/// The device of `platform` described by `device`.
Device device_of(const opencl::PlatformInfo& platform, const opencl::DeviceInfo& device);

/// The CUDA device `device`; `driver_version` is `cudaDriverGetVersion`'s value (13000 is "13.0").
Device device_of(const cuda::DeviceInfo& device, int driver_version = 0);

/// Every device of the inventory, platform by platform, each in its platform's order.
std::vector<Device> devices_of(const opencl::Inventory& inventory);

/// Every device of the inventory, by ordinal.
std::vector<Device> devices_of(const cuda::Inventory& inventory);

}  // namespace polydev
