// Stable device keys: slug, pci_key_suffix, opencl_platform_word and assign_keys over inventories
// whose names and PCI addresses come from the input.
//
// Input, read twice. As an OpenCL inventory: a platform count byte, then per platform its name, a
// device count byte and per device its name, a byte whose bit 0 says whether a PCI address follows,
// and the address (names and addresses end at a NUL byte). As a CUDA inventory: a device count
// byte, then per device its name, PCI address and UUID. The whole input is also given to each
// function of key.hpp as one text.
//
// Checked: slugs and keys hold only [a-z0-9_], with no '_' leading, trailing or doubled; slug is
// idempotent; a PCI suffix exists exactly for a well-formed address with bus, device and function
// in PCI's ranges, and says the same numbers (so two addresses never share one); keys are unique
// within an inventory and the same when assigned again.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "polydev/key.hpp"

namespace {

using polydev_fuzz::require;

bool is_clean_slug(const std::string& text) {
  if (text.empty() || text.front() == '_' || text.back() == '_') return false;
  if (text.find("__") != std::string::npos) return false;
  for (char c : text) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// An independent reading of "domain:bus:device.function" (hexadecimal, up to 8 digits each) with
// PCI's limits (bus 8 bits, device 5 bits, function 3 bits), written as the key rules say.
std::optional<std::string> expected_pci_suffix(const std::string& text) {
  static const std::regex address(
      "([0-9a-fA-F]{1,8}):([0-9a-fA-F]{1,8}):([0-9a-fA-F]{1,8})\\.([0-9a-fA-F]{1,8})");
  std::smatch match;
  if (text.size() > 64 || !std::regex_match(text, match, address)) return std::nullopt;
  const auto number = [&](int group) { return std::stoul(match[group].str(), nullptr, 16); };
  const unsigned long domain = number(1), bus = number(2), device = number(3), function = number(4);
  if (bus > 0xff || device > 0x1f || function > 7) return std::nullopt;
  char buffer[64];
  std::string out = "pci_";
  if (domain != 0) {
    std::snprintf(buffer, sizeof buffer, "%04lx_", domain);
    out += buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%02lx_%02lx", bus, device);
  out += buffer;
  if (function != 0) out += "_" + std::to_string(function);
  return out;
}

void check_text_functions(const std::string& text) {
  const std::string slug = polydev::slug(text);
  require(is_clean_slug(slug), "slug('" + text + "') = '" + slug + "' is not a clean slug");
  require(polydev::slug(slug) == slug, "slug is not idempotent on '" + slug + "'");

  const std::string word = polydev::opencl_platform_word(text);
  require(
      is_clean_slug(word) && word.size() <= 24,
      "opencl_platform_word('" + text + "') = '" + word + "' is not a clean slug of 24 or less");

  const auto suffix = polydev::pci_key_suffix(text);
  const auto expected = expected_pci_suffix(text);
  require(suffix == expected, "pci_key_suffix('" + text + "') is '" + suffix.value_or("none") +
                                  "', expected '" + expected.value_or("none") + "'");
}

template <typename Keys>
void check_keys(const Keys& keys, const char* prefix) {
  std::set<std::string> seen;
  for (const std::string& key : keys) {
    require(key.rfind(prefix, 0) == 0, "key '" + key + "' does not start with " + prefix);
    require(is_clean_slug(key), "key '" + key + "' is not made of clean [a-z0-9_] words");
    require(seen.insert(key).second, "two devices have the key '" + key + "'");
  }
}

std::vector<std::string> keys_of(const polydev::opencl::Inventory& inventory) {
  std::vector<std::string> keys;
  for (const auto& platform : inventory.platforms) {
    for (const auto& device : platform.devices) keys.push_back(device.key);
  }
  return keys;
}

std::vector<std::string> keys_of(const polydev::cuda::Inventory& inventory) {
  std::vector<std::string> keys;
  for (const auto& device : inventory.devices) keys.push_back(device.key);
  return keys;
}

polydev::opencl::Inventory opencl_inventory_named_by(polydev_fuzz::Input& input) {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  const std::size_t platforms = input.choice(4);
  for (std::size_t p = 0; p < platforms; ++p) {
    const std::string name = input.field();
    std::vector<polydev_test::SyntheticDevice> devices(input.choice(5));
    for (auto& device : devices) {
      device.name = input.field();
      if (input.flags() & 1u) device.pci_bus_id = input.field();
    }
    inventory.platforms.push_back(polydev_test::make_platform(p, name, "", "", devices));
  }
  return inventory;
}

polydev::cuda::Inventory cuda_inventory_named_by(polydev_fuzz::Input& input) {
  polydev::cuda::Inventory inventory;
  inventory.available = true;
  const std::size_t count = input.choice(6);
  for (std::size_t ordinal = 0; ordinal < count; ++ordinal) {
    polydev::cuda::DeviceInfo device;
    device.ordinal = static_cast<int>(ordinal);
    device.name = input.field();
    device.pci_bus_id = input.field();
    device.uuid = input.field();
    inventory.devices.push_back(std::move(device));
  }
  return inventory;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_text_functions(std::string(reinterpret_cast<const char*>(data), size));

  polydev_fuzz::Input opencl_input(data, size);
  polydev::opencl::Inventory opencl = opencl_inventory_named_by(opencl_input);
  polydev::opencl::assign_keys(opencl);
  const auto opencl_keys = keys_of(opencl);
  check_keys(opencl_keys, "opencl_");
  polydev::opencl::assign_keys(opencl);
  require(keys_of(opencl) == opencl_keys, "OpenCL keys changed when assigned again");

  polydev_fuzz::Input cuda_input(data, size);
  polydev::cuda::Inventory cuda = cuda_inventory_named_by(cuda_input);
  polydev::cuda::assign_keys(cuda);
  const auto cuda_keys = keys_of(cuda);
  check_keys(cuda_keys, "cuda_");
  polydev::cuda::assign_keys(cuda);
  require(keys_of(cuda) == cuda_keys, "CUDA keys changed when assigned again");
  return 0;
}
