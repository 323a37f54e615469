#pragma once

// Synthetic inventories for unit tests: no driver involved.
//
// `synthetic_opencl_inventory()` is a fake machine on which PyOpenCL's own selection
// (pyopencl.tools.get_test_platforms_and_devices, create_some_context) was run as an oracle:
//   P0 "Intel(R) OpenCL" / "Intel(R) Corporation": 0 "Intel(R) Core(TM) i5 CPU",
//                                                  1 "Intel(R) Iris(TM) Graphics"
//   P1 "NVIDIA CUDA" / "NVIDIA Corporation":       0 "NVIDIA H100", 1 "NVIDIA A100"
//   P2 "Portable Computing Language" / "The pocl project":
//                                                  0 "cpu-skylake-avx512-Intel(R) Xeon(R)"
// The names are chosen so that the documented needles resolve as in the oracle's tables: "i5" hits
// only the i5 CPU, "iris"/"graphics" only the Iris GPU, "a100"/"h100"/"xeon" only their device,
// "corporation" hits P0 first, "cuda" only P1, "x" no platform, and "o" is in the names of P0 and
// P2 but not P1 (PYOPENCL_CTX's last match is then PoCL).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/selection.hpp"

namespace polydev_test {

struct SyntheticDevice {
  std::string name;
  std::string vendor;
  std::string type = "gpu";
  std::optional<std::string> pci_bus_id = std::nullopt;
};

/// A platform at `index` whose devices are indexed 0, 1, ... in the given order.
inline polydev::opencl::PlatformInfo make_platform(std::size_t index, std::string name,
                                                   std::string vendor, std::string version,
                                                   const std::vector<SyntheticDevice>& devices) {
  polydev::opencl::PlatformInfo platform;
  platform.index = index;
  platform.name = std::move(name);
  platform.vendor = std::move(vendor);
  platform.version = std::move(version);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    polydev::opencl::DeviceInfo device;
    device.index = i;
    device.name = devices[i].name;
    device.vendor = devices[i].vendor;
    device.type = devices[i].type;
    device.version = platform.version;
    device.pci_bus_id = devices[i].pci_bus_id;
    platform.devices.push_back(std::move(device));
  }
  return platform;
}

/// The fake machine: an Intel CPU and GPU, two NVIDIA boards, a PoCL CPU, with keys assigned.
inline polydev::opencl::Inventory synthetic_opencl_inventory() {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  inventory.platforms.push_back(
      make_platform(0, "Intel(R) OpenCL", "Intel(R) Corporation", "OpenCL 3.0",
                    {{"Intel(R) Core(TM) i5 CPU", "Intel(R) Corporation", "cpu"},
                     {"Intel(R) Iris(TM) Graphics", "Intel(R) Corporation", "gpu"}}));
  inventory.platforms.push_back(make_platform(1, "NVIDIA CUDA", "NVIDIA Corporation",
                                              "OpenCL 3.0 CUDA 13.0.88",
                                              {{"NVIDIA H100", "NVIDIA Corporation", "gpu"},
                                               {"NVIDIA A100", "NVIDIA Corporation", "gpu"}}));
  inventory.platforms.push_back(
      make_platform(2, "Portable Computing Language", "The pocl project", "OpenCL 3.0 PoCL 6.0",
                    {{"cpu-skylake-avx512-Intel(R) Xeon(R)", "GenuineIntel", "cpu"}}));
  polydev::opencl::assign_keys(inventory);
  return inventory;
}

/// Replaces every key by "key_<platform>_<device>", for tests of output formats that must not
/// depend on the key rules.
inline polydev::opencl::Inventory with_simple_keys(polydev::opencl::Inventory inventory) {
  for (auto& platform : inventory.platforms) {
    for (auto& device : platform.devices) {
      device.key = "key_" + std::to_string(platform.index) + "_" + std::to_string(device.index);
    }
  }
  return inventory;
}

/// An OpenCL inventory without any platform, as enumeration reports a machine without an ICD.
inline polydev::opencl::Inventory empty_opencl_inventory() {
  polydev::opencl::Inventory inventory;
  inventory.available = false;
  inventory.reason = "no OpenCL ICD loader";
  return inventory;
}

/// Platform 0 lists no device (the driver failed); platform 1 has one device.
inline polydev::opencl::Inventory opencl_inventory_with_empty_platform() {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  inventory.platforms.push_back(make_platform(0, "Empty Platform", "Nobody", "OpenCL 1.2", {}));
  inventory.platforms[0].devices_error = "CL_DEVICE_NOT_FOUND";
  inventory.platforms.push_back(make_platform(1, "Portable Computing Language", "The pocl project",
                                              "OpenCL 3.0 PoCL 6.0",
                                              {{"cpu-haswell", "GenuineIntel", "cpu"}}));
  polydev::opencl::assign_keys(inventory);
  return inventory;
}

/// Two identical H200 boards at different PCI addresses, with keys assigned.
inline polydev::cuda::Inventory synthetic_cuda_inventory() {
  polydev::cuda::Inventory inventory;
  inventory.available = true;
  inventory.driver_version = 13000;
  inventory.runtime_version = 13000;
  for (int ordinal = 0; ordinal < 2; ++ordinal) {
    polydev::cuda::DeviceInfo device;
    device.ordinal = ordinal;
    device.name = "NVIDIA H200";
    device.compute_capability_major = 9;
    device.compute_capability_minor = 0;
    device.pci_bus_id = ordinal == 0 ? "00000000:1B:00.0" : "00000000:2C:00.0";
    device.uuid = ordinal == 0 ? "GPU-11111111-2222-3333-4444-555555555555"
                               : "GPU-66666666-7777-8888-9999-000000000000";
    device.multiprocessors = 132;
    device.total_memory_bytes = 150ull << 30;
    inventory.devices.push_back(std::move(device));
  }
  polydev::cuda::assign_keys(inventory);
  return inventory;
}

/// Capability facts of a synthetic OpenCL device (what `POLYDEV_DEVICES` terms test).
struct SyntheticCapabilities {
  std::string version;  ///< `CL_DEVICE_VERSION`
  bool fp64 = false;
  std::string extensions;
  std::uint64_t global_memory_bytes = 0;
  int nv_compute_capability_major = 0;
  int nv_compute_capability_minor = 0;
};

inline void set_capabilities(polydev::opencl::DeviceInfo& device,
                             const SyntheticCapabilities& capabilities) {
  device.version = capabilities.version;
  device.fp64 = capabilities.fp64;
  device.extensions = capabilities.extensions;
  device.global_memory_bytes = capabilities.global_memory_bytes;
  device.nv_compute_capability_major = capabilities.nv_compute_capability_major;
  device.nv_compute_capability_minor = capabilities.nv_compute_capability_minor;
}

/// A machine for cross-backend selection, OpenCL side, with keys and capabilities:
///   P0 "NVIDIA CUDA":                 0 "NVIDIA H200" gpu, OpenCL 3.0, fp64, fp16, 141 GiB, cc 9.0
///   P1 "Portable Computing Language": 0 "pthread-AMD EPYC 7B13" cpu, OpenCL 3.0, fp64, 8 GiB
///                                     1 "basic" cpu, OpenCL 3.0, no fp64, 8 GiB
///   P2 "Intel(R) FPGA Emulation Platform for OpenCL(TM)":
///                                     0 "Intel(R) FPGA Emulation Device" accelerator, OpenCL 1.2,
///                                       fp64, 4 GiB
inline polydev::opencl::Inventory mixed_opencl_inventory() {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  inventory.platforms.push_back(make_platform(0, "NVIDIA CUDA", "NVIDIA Corporation",
                                              "OpenCL 3.0 CUDA 13.0.88",
                                              {{"NVIDIA H200", "NVIDIA Corporation", "gpu"}}));
  set_capabilities(
      inventory.platforms[0].devices[0],
      {"OpenCL 3.0 CUDA", true,
       "cl_khr_fp64 cl_khr_fp16 cl_khr_int64_base_atomics cl_nv_device_attribute_query",
       141ull << 30, 9, 0});
  inventory.platforms.push_back(make_platform(
      1, "Portable Computing Language", "The pocl project", "OpenCL 3.0 PoCL 3.1",
      {{"pthread-AMD EPYC 7B13", "AuthenticAMD", "cpu"}, {"basic", "AuthenticAMD", "cpu"}}));
  set_capabilities(inventory.platforms[1].devices[0],
                   {"OpenCL 3.0 PoCL HSTR: pthread-x86_64", true,
                    "cl_khr_fp64 cl_khr_int64_base_atomics", 8ull << 30});
  set_capabilities(inventory.platforms[1].devices[1], {"OpenCL 3.0 PoCL HSTR: basic-x86_64", false,
                                                       "cl_khr_int64_base_atomics", 8ull << 30});
  inventory.platforms.push_back(make_platform(
      2, "Intel(R) FPGA Emulation Platform for OpenCL(TM)", "Intel(R) Corporation", "OpenCL 1.2",
      {{"Intel(R) FPGA Emulation Device", "Intel(R) Corporation", "accelerator"}}));
  set_capabilities(inventory.platforms[2].devices[0],
                   {"OpenCL 1.2 Intel(R) FPGA SDK", true, "cl_khr_fp64", 4ull << 30});
  polydev::opencl::assign_keys(inventory);
  return inventory;
}

/// The CUDA side of that machine: `synthetic_cuda_inventory()`'s two H200 (cc 9.0, 150 GiB), then
/// an "NVIDIA A100-SXM4-80GB" (cc 8.0, 80 GiB) at ordinal 2.
inline polydev::cuda::Inventory mixed_cuda_inventory() {
  polydev::cuda::Inventory inventory = synthetic_cuda_inventory();
  polydev::cuda::DeviceInfo device;
  device.ordinal = 2;
  device.name = "NVIDIA A100-SXM4-80GB";
  device.compute_capability_major = 8;
  device.compute_capability_minor = 0;
  device.pci_bus_id = "00000000:3D:00.0";
  device.uuid = "GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
  device.multiprocessors = 108;
  device.total_memory_bytes = 80ull << 30;
  inventory.devices.push_back(std::move(device));
  polydev::cuda::assign_keys(inventory);
  return inventory;
}

/// A CUDA inventory of a machine without a driver.
inline polydev::cuda::Inventory unavailable_cuda_inventory() {
  polydev::cuda::Inventory inventory;
  inventory.available = false;
  inventory.reason = "cudaGetDeviceCount failed: cudaErrorInsufficientDriver (35)";
  return inventory;
}

using Positions = std::vector<std::pair<std::size_t, std::size_t>>;

/// The selected devices as (platform, device) pairs, which GoogleTest prints readably.
inline Positions positions(const polydev::opencl::Selection& selection) {
  Positions out;
  for (const auto& position : selection.devices)
    out.emplace_back(position.platform, position.device);
  return out;
}

}  // namespace polydev_test
