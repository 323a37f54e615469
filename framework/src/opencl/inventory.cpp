// Pure functions over OpenCL inventories: descriptors and stable keys. No driver calls here.
#include "polydev/opencl/inventory.hpp"

#include <map>
#include <string>
#include <string_view>

#include "polydev/detail/opencl_platform_version.hpp"
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

// A driver's string in a message: short, on one line, and printable whatever its bytes are.
std::string quoted_prefix(std::string_view text) {
  constexpr std::size_t shown = 60;
  static const char hex[] = "0123456789abcdef";
  std::string quoted = "'";
  for (const char c : text.substr(0, shown)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '\\' && c != '\'') {
      quoted += c;
    } else {
      quoted += {'\\', 'x', hex[byte >> 4], hex[byte & 0xf]};
    }
  }
  quoted += "'";
  if (text.size() > shown) quoted += " (" + std::to_string(text.size()) + " bytes, cut)";
  return quoted;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Digits at `at`: how many, so that the caller can check the bounds the bindings do not.
std::size_t digits_at(std::string_view text, std::size_t at) {
  std::size_t n = 0;
  while (at + n < text.size() && is_digit(text[at + n])) ++n;
  return n;
}

}  // namespace

}  // namespace polydev::opencl

namespace polydev::detail {

std::optional<std::string> opencl_platform_version_problem(std::string_view version) {
  version = version.substr(0, version.find('\0'));
  const auto problem = [&](const std::string& what) -> std::optional<std::string> {
    return opencl::quoted_prefix(version) + " is not 'OpenCL <major>.<minor> <platform-specific " +
           "information>' (" + what + ")";
  };
  constexpr std::string_view prefix = "OpenCL ";
  if (version.substr(0, prefix.size()) != prefix) {
    return problem(version.empty() ? "it is empty" : "it does not start with 'OpenCL '");
  }
  // The bindings shift the major number by 16 bits into a 32-bit value: four digits keep both
  // numbers in range, and no OpenCL version needs more.
  constexpr std::size_t most_digits = 4;
  const std::size_t major = opencl::digits_at(version, prefix.size());
  if (major == 0 || major > most_digits) {
    return problem("no major version of 1 to 4 digits after 'OpenCL '");
  }
  const std::size_t dot = prefix.size() + major;
  if (dot >= version.size() || version[dot] != '.') {
    return problem("no '.' after the major version");
  }
  const std::size_t minor = opencl::digits_at(version, dot + 1);
  if (minor == 0 || minor > most_digits) {
    return problem("no minor version of 1 to 4 digits after the '.'");
  }
  const std::size_t after = dot + 1 + minor;
  if (after < version.size() && version[after] != ' ') {
    return problem("the minor version is followed by neither a space nor the end");
  }
  return std::nullopt;
}

}  // namespace polydev::detail

namespace polydev::opencl {

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
