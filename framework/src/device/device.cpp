// The one device value, made from either inventory.
#include "polydev/device.hpp"

#include <cctype>
#include <cstdio>

namespace polydev {

namespace {

// "OpenCL 3.0 PoCL ..." -> 3.0; nothing when the driver's text does not follow the standard form.
std::optional<DeviceVersion> opencl_version(const std::string& version) {
  const std::string prefix = "OpenCL ";
  if (version.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  int major = 0;
  int minor = 0;
  char dot = 0;
  if (std::sscanf(version.c_str() + prefix.size(), "%3d%c%3d", &major, &dot, &minor) != 3 ||
      dot != '.' || major < 0 || minor < 0) {
    return std::nullopt;
  }
  return DeviceVersion{major, minor};
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

// "OpenCL 3.0 PoCL 3.1+debian  Linux, ...": the release is the word after "PoCL".
std::optional<std::string> pocl_release(const std::string& platform_version) {
  const std::string marker = " PoCL ";
  const auto at = platform_version.find(marker);
  if (at == std::string::npos) return std::nullopt;
  const auto start = at + marker.size();
  return platform_version.substr(start, platform_version.find(' ', start) - start);
}

}  // namespace

std::string_view backend_name(Backend backend) {
  return backend == Backend::opencl ? "opencl" : "cuda";
}

std::string_view backend_label(Backend backend) {
  return backend == Backend::opencl ? "OpenCL" : "CUDA";
}

Device device_of(const opencl::PlatformInfo& platform, const opencl::DeviceInfo& device) {
  Device out;
  out.backend = Backend::opencl;
  out.key = device.key;
  out.name = device.name;
  out.vendor = device.vendor;
  out.platform = platform.name;
  out.platform_vendor = platform.vendor;
  out.type = device.type;
  out.fp64 = device.fp64;
  out.opencl_version = opencl_version(device.version);
  if (device.nv_compute_capability_major > 0) {
    out.compute_capability =
        DeviceVersion{device.nv_compute_capability_major, device.nv_compute_capability_minor};
  }
  out.extensions = words(device.extensions);
  out.memory_bytes = device.global_memory_bytes;
  out.compute_units = device.compute_units;
  out.driver_version = device.driver_version;
  out.pocl_version = pocl_release(platform.version);
  out.opencl_position = {platform.index, device.index};
  return out;
}

Device device_of(const cuda::DeviceInfo& device, int driver_version) {
  Device out;
  out.backend = Backend::cuda;
  out.key = device.key;
  out.name = device.name;
  out.vendor = "NVIDIA Corporation";
  out.type = "gpu";
  out.fp64 = true;
  out.compute_capability =
      DeviceVersion{device.compute_capability_major, device.compute_capability_minor};
  out.memory_bytes = device.total_memory_bytes;
  out.compute_units =
      device.multiprocessors < 0 ? 0u : static_cast<std::uint32_t>(device.multiprocessors);
  out.driver_version =
      std::to_string(driver_version / 1000) + "." + std::to_string(driver_version % 1000 / 10);
  out.cuda_ordinal = device.ordinal;
  return out;
}

std::vector<Device> devices_of(const opencl::Inventory& inventory) {
  std::vector<Device> devices;
  for (const opencl::PlatformInfo& platform : inventory.platforms) {
    for (const opencl::DeviceInfo& device : platform.devices) {
      devices.push_back(device_of(platform, device));
    }
  }
  return devices;
}

std::vector<Device> devices_of(const cuda::Inventory& inventory) {
  std::vector<Device> devices;
  for (const cuda::DeviceInfo& device : inventory.devices) {
    devices.push_back(device_of(device, inventory.driver_version));
  }
  return devices;
}

}  // namespace polydev
