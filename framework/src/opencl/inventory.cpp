// Pure functions over OpenCL inventories: descriptors and stable keys. No driver calls here.
#include "polydev/opencl/inventory.hpp"

#include <map>
#include <string>

#include "polydev/key.hpp"

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
  return shorten_slug(word, 48);
}

}  // namespace

void assign_keys(Inventory& inventory) {
  std::map<std::string, int> uses;
  for (PlatformInfo& platform : inventory.platforms) {
    const std::string platform_word = opencl_platform_word(platform.name);
    // Ranked by the name as it appears in the key, so that names that differ only in punctuation
    // or beyond the cut (which give the same word) still get different ranks.
    std::map<std::string, int> rank_by_word;
    for (DeviceInfo& device : platform.devices) {
      const std::string word = device_word(platform_word, device.name);
      std::string key = "opencl_" + platform_word + "_" + word;
      const int rank = rank_by_word[word]++;
      const auto pci = device.pci_bus_id ? pci_key_suffix(*device.pci_bus_id) : std::nullopt;
      key += "_" + (pci ? *pci : std::to_string(rank));
      device.key = key;
      ++uses[key];
    }
  }
  // Two ICDs of the same platform would collide: the platform index keeps such keys apart.
  std::map<std::string, int> uses_with_platform;
  for (PlatformInfo& platform : inventory.platforms) {
    for (DeviceInfo& device : platform.devices) {
      if (uses[device.key] > 1) device.key += "_p" + std::to_string(platform.index);
      ++uses_with_platform[device.key];
    }
  }
  // A driver reporting one PCI address for two devices of one platform: the device index does.
  for (PlatformInfo& platform : inventory.platforms) {
    for (DeviceInfo& device : platform.devices) {
      if (uses_with_platform[device.key] > 1) device.key += "_d" + std::to_string(device.index);
    }
  }
}

}  // namespace polydev::opencl
