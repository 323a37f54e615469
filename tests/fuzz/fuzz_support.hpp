#pragma once

// Shared pieces of polydev's libFuzzer targets: reading the fuzzer's bytes as fields, the synthetic
// inventories that selectors are parsed against, and the property every target checks: a parser
// either returns a result whose invariants hold or throws the documented polydev error with a
// message. Anything else (another exception, a broken invariant) aborts, which libFuzzer reports as
// a crash together with the input that caused it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/inventory.hpp"
#include "support/synthetic_inventory.hpp"

namespace polydev_fuzz {

/// Prints what was violated and aborts: libFuzzer then saves the input as a crash artifact.
/// Bytes that are not printable ASCII are shown as \xNN, so that a message quoting the input is
/// neither cut at a NUL nor mangled by the terminal.
[[noreturn]] inline void violation(const std::string& what) {
  std::string shown;
  for (char c : what) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      shown += c;
    } else {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\x%02x", byte);
      shown += escape;
    }
  }
  std::fprintf(stderr, "\npolydev fuzz property violated: %s\n", shown.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void require(bool condition, const std::string& what) {
  if (!condition) violation(what);
}

/// Runs `parse` and returns its result, or nothing when it threw `Expected` (a polydev error type)
/// with a non-empty message. Any other exception aborts: the parsers promise polydev errors only.
template <typename Expected, typename Parse>
auto result_or_rejection(Parse&& parse, const char* parser, std::string* message = nullptr)
    -> std::optional<decltype(parse())> {
  try {
    return parse();
  } catch (const Expected& rejection) {
    const std::string text = rejection.what();
    require(!text.empty(), std::string(parser) + " threw a polydev error with an empty message");
    if (message) *message = text;
    return std::nullopt;
  } catch (const std::exception& other) {
    violation(std::string(parser) + " threw an exception that is not the documented polydev " +
              "error type: " + other.what());
  } catch (...) {
    violation(std::string(parser) + " threw something that is not a std::exception");
  }
}

/// Warnings are for people: each says something (non-empty) and none is repeated. Repeats would
/// also let a long selector produce output quadratic in its length.
inline void check_warnings(const std::vector<std::string>& warnings, const char* parser) {
  std::set<std::string> seen;
  for (const std::string& warning : warnings) {
    require(!warning.empty(), std::string(parser) + " gave an empty warning");
    require(seen.insert(warning).second,
            std::string(parser) + " gave the same warning twice: " + warning);
  }
}

/// The fuzzer's bytes, taken from the front as fields. Running out is not an error: missing bytes
/// read as 0 and missing text as empty, so every input means something.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size)
      : text_(reinterpret_cast<const char*>(data), size) {}

  /// One byte as a small number: `(byte - '0') mod count`, so that the seed files can say "0",
  /// "1", ... in readable text.
  std::size_t choice(std::size_t count) {
    if (text_.empty()) return 0;
    const auto byte = static_cast<unsigned char>(text_.front() - '0');
    text_.remove_prefix(1);
    return byte % count;
  }

  /// One raw byte (0 when the input is used up).
  char byte() {
    if (text_.empty()) return 0;
    const char out = text_.front();
    text_.remove_prefix(1);
    return out;
  }

  /// One byte as 4 flag bits, `(byte - '0') & 15` ('0'..'9' then ':' ';' '<' '=' '>' '?').
  unsigned flags() { return static_cast<unsigned>(choice(256)) & 15u; }

  /// Text up to the next NUL byte (which is consumed), or the rest. Selectors come from environment
  /// variables, which cannot hold NUL, so NUL is a safe field separator.
  std::string field() {
    const std::size_t end = text_.find('\0');
    std::string out(text_.substr(0, end));
    text_.remove_prefix(end == std::string_view::npos ? text_.size() : end + 1);
    return out;
  }

  std::string rest() {
    std::string out(text_);
    text_ = {};
    return out;
  }

  bool empty() const { return text_.empty(); }

 private:
  std::string_view text_;
};

// ---- OpenCL inventories ----------------------------------------------------------------------

/// PoCL as `POCL_DEVICES="pthread pthread basic"` shows it: three devices, two with one name.
inline polydev::opencl::Inventory pocl_three_devices() {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  inventory.platforms.push_back(polydev_test::make_platform(
      0, "Portable Computing Language", "The pocl project", "OpenCL 3.0 PoCL 3.1",
      {{"pthread-haswell-AMD EPYC", "AuthenticAMD", "cpu"},
       {"pthread-haswell-AMD EPYC", "AuthenticAMD", "cpu"},
       {"basic-haswell-AMD EPYC", "AuthenticAMD", "cpu"}}));
  polydev::opencl::assign_keys(inventory);
  return inventory;
}

/// One platform, one device.
inline polydev::opencl::Inventory single_device() {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  inventory.platforms.push_back(
      polydev_test::make_platform(0, "Portable Computing Language", "The pocl project",
                                  "OpenCL 3.0 PoCL 6.0", {{"cpu-skylake", "GenuineIntel", "cpu"}}));
  polydev::opencl::assign_keys(inventory);
  return inventory;
}

/// Two ICDs of one vendor, each listing the same two identical boards: every name occurs four
/// times and only indices (or PCI addresses) tell the devices apart.
inline polydev::opencl::Inventory identical_platforms() {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  for (std::size_t p = 0; p < 2; ++p) {
    inventory.platforms.push_back(polydev_test::make_platform(
        p, "NVIDIA CUDA", "NVIDIA Corporation", "OpenCL 3.0 CUDA 13.0.88",
        {{"NVIDIA H200", "NVIDIA Corporation", "gpu", "0000:1b:00.0"},
         {"NVIDIA H200", "NVIDIA Corporation", "gpu", "0000:2c:00.0"}}));
  }
  polydev::opencl::assign_keys(inventory);
  return inventory;
}

/// Platforms exist but none lists a device (every driver failed).
inline polydev::opencl::Inventory platforms_without_devices() {
  polydev::opencl::Inventory inventory;
  inventory.available = true;
  inventory.platforms.push_back(
      polydev_test::make_platform(0, "Empty A", "Nobody", "OpenCL 1.2", {}));
  inventory.platforms.push_back(
      polydev_test::make_platform(1, "Empty B", "Nobody", "OpenCL 3.0", {}));
  inventory.platforms[0].devices_error = "CL_DEVICE_NOT_FOUND";
  return inventory;
}

/// An inventory shaped by the input: 0 to 4 platforms of 0 to 4 devices, names drawn from a few
/// words that overlap, so that substring needles match several objects.
inline polydev::opencl::Inventory generated_inventory(Input& input) {
  static const char* const words[] = {"NVIDIA", "Intel(R)", "pocl", "CPU", "GPU", "H200",
                                      "a",      "",         "0",    "1",   " ",   ":",
                                      ",",      ";",        "X",    "Ab"};
  // One statement per byte taken: the order of operands would be unspecified.
  const auto word = [&] {
    std::string text = words[input.choice(16)];
    text += " ";
    text += words[input.choice(16)];
    return text;
  };
  polydev::opencl::Inventory inventory;
  const std::size_t platforms = input.choice(5);
  for (std::size_t p = 0; p < platforms; ++p) {
    std::vector<polydev_test::SyntheticDevice> devices(input.choice(5));
    for (auto& device : devices) {
      device.name = word();
      device.vendor = word();
    }
    const std::string name = word();
    const std::string vendor = word();
    inventory.platforms.push_back(
        polydev_test::make_platform(p, name, vendor, "OpenCL 3.0", devices));
  }
  inventory.available = !inventory.platforms.empty();
  inventory.reason = inventory.available ? "" : "no OpenCL platform";
  polydev::opencl::assign_keys(inventory);
  return inventory;
}

/// The OpenCL inventory the first input byte picks:
/// 0 the fake machine of synthetic_opencl_inventory(), 1 no ICD, 2 one device, 3 PoCL with three
/// devices, 4 two identical platforms, 5 a platform without devices next to one with a device, 6
/// platforms without any device, 7 generated from the following bytes. The fixed ones are built
/// once: building them for every input would halve the fuzzer's speed.
inline const polydev::opencl::Inventory& opencl_inventory(Input& input) {
  static const std::vector<polydev::opencl::Inventory> fixed{
      polydev_test::synthetic_opencl_inventory(),
      polydev_test::empty_opencl_inventory(),
      single_device(),
      pocl_three_devices(),
      identical_platforms(),
      polydev_test::opencl_inventory_with_empty_platform(),
      platforms_without_devices()};
  static polydev::opencl::Inventory generated;
  const std::size_t choice = input.choice(fixed.size() + 1);
  if (choice < fixed.size()) return fixed[choice];
  generated = generated_inventory(input);
  return generated;
}

/// Whether `position` names a device of `inventory`.
inline bool exists(const polydev::opencl::Inventory& inventory,
                   polydev::opencl::DevicePosition position) {
  return position.platform < inventory.platforms.size() &&
         inventory.platforms[position.platform].index == position.platform &&
         position.device < inventory.platforms[position.platform].devices.size();
}

inline std::string describe(polydev::opencl::DevicePosition position) {
  return "(" + std::to_string(position.platform) + ", " + std::to_string(position.device) + ")";
}

// ---- CUDA inventories ------------------------------------------------------------------------

inline polydev::cuda::Inventory cuda_boards(int count) {
  polydev::cuda::Inventory inventory;
  // Available even with no device: the selectors must not rely on enumeration never reporting that.
  inventory.available = true;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    polydev::cuda::DeviceInfo device;
    device.ordinal = ordinal;
    device.name = "NVIDIA H100 80GB HBM3";
    device.compute_capability_major = 9;
    device.pci_bus_id = "00000000:" + std::to_string(10 + ordinal) + ":00.0";
    inventory.devices.push_back(std::move(device));
  }
  polydev::cuda::assign_keys(inventory);
  return inventory;
}

/// The CUDA inventory the next input byte picks: 0 two identical H200s, 1 no driver, 2 one device,
/// 3 an available runtime that lists no device, 4 eight identical boards.
inline const polydev::cuda::Inventory& cuda_inventory(Input& input) {
  static const std::vector<polydev::cuda::Inventory> fixed{
      polydev_test::synthetic_cuda_inventory(), polydev_test::unavailable_cuda_inventory(),
      cuda_boards(1), cuda_boards(0), cuda_boards(8)};
  return fixed[input.choice(fixed.size())];
}

}  // namespace polydev_fuzz
