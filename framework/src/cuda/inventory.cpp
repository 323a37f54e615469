// Pure functions over CUDA inventories: stable keys. No driver calls here.
#include "polydev/cuda/inventory.hpp"

#include <map>
#include <string>

#include "polydev/key.hpp"

namespace polydev::cuda {

void assign_keys(Inventory& inventory) {
  std::map<std::string, int> uses;
  for (DeviceInfo& device : inventory.devices) {
    std::string where;
    if (auto pci = pci_key_suffix(device.pci_bus_id)) {
      where = *pci;
    } else if (device.uuid.size() > 12) {
      where = "uuid_" + slug(device.uuid.substr(4, 8));  // after "GPU-"
    } else {
      where = std::to_string(device.ordinal);
    }
    device.key = "cuda_" + shorten_slug(slug(device.name), 48) + "_" + where;
    ++uses[device.key];
  }
  for (DeviceInfo& device : inventory.devices) {
    if (uses[device.key] > 1) device.key += "_" + std::to_string(device.ordinal);
  }
}

}  // namespace polydev::cuda
