#pragma once
// The keys of this machine's OpenCL devices, in inventory order: what the tests that run probes
// through CTest entries, shards and specs compare their results with.
#include <string>
#include <vector>

#include "polydev/device.hpp"
#include "polydev/opencl/inventory.hpp"

namespace polydev::test_support {

inline std::vector<std::string> opencl_device_keys() {
  std::vector<std::string> keys;
  for (const Device& device : devices_of(opencl::system_inventory())) keys.push_back(device.key);
  return keys;
}

}  // namespace polydev::test_support
