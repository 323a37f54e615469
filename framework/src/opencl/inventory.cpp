// Pure functions over OpenCL inventories: descriptors and stable keys. No driver calls here.
#include <map>
#include <string>

#include "polydev/key.hpp"
#include "polydev/opencl/inventory.hpp"

namespace polydev::opencl {

DeviceDescriptor describe(const Inventory& inventory, DevicePosition position) {
  const PlatformInfo& platform = inventory.platforms.at(position.platform);
  DeviceDescriptor descriptor;
  descriptor.platform.index = platform.index;
  descriptor.platform.name = platform.name;
  descriptor.platform.vendor = platform.vendor;
  descriptor.platform.version = platform.version;
  descriptor.device = platform.devices.at(position.device);
  return descriptor;
}

namespace {

std::string device_word(const std::string& platform_word, const std::string& device_name) {
  std::string word = slug(device_name);
  const std::string repeated = platform_word + "_";
  if (word.size() > repeated.size() && word.compare(0, repeated.size(), repeated) == 0) {
    word.erase(0, repeated.size());
  }
  return word.substr(0, 48);
}

}  // namespace

void assign_keys(Inventory& inventory) {
  std::map<std::string, int> uses;
  for (PlatformInfo& platform : inventory.platforms) {
    const std::string platform_word = opencl_platform_word(platform.name);
    std::map<std::string, int> rank_by_name;
    for (DeviceInfo& device : platform.devices) {
      std::string key = "opencl_" + platform_word + "_" + device_word(platform_word, device.name);
      const int rank = rank_by_name[device.name]++;
      const auto pci = device.pci_bus_id ? pci_key_suffix(*device.pci_bus_id) : std::nullopt;
      key += "_" + (pci ? *pci : std::to_string(rank));
      device.key = key;
      ++uses[key];
    }
  }
  // Two ICDs of the same platform (or a driver reporting one PCI address twice) would collide:
  // the platform index keeps such keys apart.
  for (PlatformInfo& platform : inventory.platforms) {
    for (DeviceInfo& device : platform.devices) {
      if (uses[device.key] > 1) device.key += "_p" + std::to_string(platform.index);
    }
  }
}

}  // namespace polydev::opencl
