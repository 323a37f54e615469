#pragma once

// Descriptions of what exists, for error messages: "platform 1 'NVIDIA CUDA' has 2 devices: 0
// 'NVIDIA H200', 1 'NVIDIA H200'".

#include <string>

#include "polydev/opencl/inventory.hpp"

namespace polydev::opencl::detail {

inline std::string describe_platform(const PlatformInfo& platform) {
  return std::to_string(platform.index) + " '" + platform.name + "'";
}

inline std::string describe_device(const DeviceInfo& device) {
  return std::to_string(device.index) + " '" + device.name + "'";
}

inline std::string list_devices(const PlatformInfo& platform) {
  std::string text = "platform " + describe_platform(platform) + " has " +
                     std::to_string(platform.devices.size()) +
                     (platform.devices.size() == 1 ? " device" : " devices");
  if (platform.devices.empty()) {
    return platform.devices_error.empty() ? text : text + " (" + platform.devices_error + ")";
  }
  text += ": ";
  for (const DeviceInfo& device : platform.devices) {
    if (device.index > 0) text += ", ";
    text += describe_device(device);
  }
  return text;
}

inline std::string list_platforms(const Inventory& inventory) {
  if (inventory.platforms.empty()) return "there is no OpenCL platform (" + inventory.reason + ")";
  std::string text = "there " + std::string(inventory.platforms.size() == 1 ? "is " : "are ") +
                     std::to_string(inventory.platforms.size()) +
                     (inventory.platforms.size() == 1 ? " platform: " : " platforms: ");
  for (const PlatformInfo& platform : inventory.platforms) {
    if (platform.index > 0) text += "; ";
    text += list_devices(platform);
  }
  return text;
}

}  // namespace polydev::opencl::detail
