// Driver side of the CUDA inventory, through the runtime API (which loads libcuda at run time, so
// a machine without the driver gets an error code here instead of a loader failure).
#include <cuda_runtime_api.h>

#include <array>
#include <cstdio>
#include <string>

#include "polydev/cuda/error.hpp"
#include "polydev/cuda/inventory.hpp"

namespace polydev::cuda {

namespace {

std::string uuid_text(const cudaUUID_t& uuid) {
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    std::array<char, 3> byte{};
    std::snprintf(byte.data(), byte.size(), "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    text += byte.data();
    if (i == 3 || i == 5 || i == 7 || i == 9) text += '-';
  }
  return text;
}

}  // namespace

Inventory enumerate() {
  Inventory inventory;
  (void)cudaRuntimeGetVersion(&inventory.runtime_version);
  (void)cudaDriverGetVersion(&inventory.driver_version);
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    inventory.reason = describe(status);
    // cudart says "insufficient driver" when there is no driver at all; say that plainly.
    if (status == cudaErrorInsufficientDriver && inventory.driver_version == 0) {
      inventory.reason = "no NVIDIA driver is loaded (" + inventory.reason + ")";
    }
    return inventory;
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, ordinal), "cudaGetDeviceProperties",
          "device " + std::to_string(ordinal));
    DeviceInfo device;
    device.ordinal = ordinal;
    device.name = properties.name;
    device.compute_capability_major = properties.major;
    device.compute_capability_minor = properties.minor;
    device.uuid = uuid_text(properties.uuid);
    std::array<char, 32> pci{};
    if (cudaDeviceGetPCIBusId(pci.data(), static_cast<int>(pci.size()), ordinal) == cudaSuccess) {
      device.pci_bus_id = pci.data();
    } else {
      (void)cudaGetLastError();
    }
    device.total_memory_bytes = properties.totalGlobalMem;
    device.multiprocessors = properties.multiProcessorCount;
    inventory.devices.push_back(std::move(device));
  }
  assign_keys(inventory);
  inventory.available = count > 0;
  if (!inventory.available) inventory.reason = "the CUDA runtime reports no device";
  return inventory;
}

}  // namespace polydev::cuda
