// PYOPENCL_TEST: PyOpenCL's grammar and results, with errors where PyOpenCL is vague.
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include "listing.hpp"
#include "polydev/environment.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/selection.hpp"
#include "python_int.hpp"

namespace polydev::opencl {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? text.npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// PyOpenCL's _find_cl_obj: an int is a Python list index, otherwise the first object whose
// "name vendor" contains the identifier, ignoring case.
template <typename Object>
std::optional<std::size_t> find_object(const std::vector<Object>& objects,
                                       std::string_view identifier, bool& index_out_of_range) {
  index_out_of_range = false;
  if (const auto index = polydev::detail::parse_python_int(identifier)) {
    const auto count = static_cast<long long>(objects.size());
    if (*index >= count || *index < -count) {
      index_out_of_range = true;
      return std::nullopt;
    }
    return static_cast<std::size_t>(*index < 0 ? *index + count : *index);
  }
  const std::string needle = lowered(identifier);
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (lowered(objects[i].name + " " + objects[i].vendor).find(needle) != std::string::npos) {
      return i;
    }
  }
  return std::nullopt;
}

class TestSpecParser {
 public:
  TestSpecParser(std::string_view spec, const Inventory& inventory)
      : spec_(spec), inventory_(inventory) {}

  Selection parse() {
    const auto entries = split(spec_, ';');
    for (std::size_t i = 0; i < entries.size(); ++i) parse_entry(i + 1, entries[i]);
    if (selection_.devices.empty()) {
      std::string message = "PYOPENCL_TEST '" + std::string(spec_) + "' selects no device: ";
      message +=
          inventory_.platforms.empty() ? inventory_.reason : detail::list_platforms(inventory_);
      throw selection_error(message);
    }
    return std::move(selection_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw selection_error("PYOPENCL_TEST entry " + std::to_string(entry_number_) + " '" +
                          std::string(entry_) + "': " + what);
  }

  // Each warning once: an entry that repeats a device (or an empty name) many times would
  // otherwise print one line per repeat, each quoting the whole entry (quadratic in its length).
  void warn(const std::string& what) {
    std::string warning = "PYOPENCL_TEST entry " + std::to_string(entry_number_) + " '" +
                          std::string(entry_) + "': " + what;
    if (given_warnings_.insert(warning).second) selection_.warnings.push_back(std::move(warning));
  }

  void parse_entry(std::size_t number, std::string_view entry) {
    entry_number_ = number;
    entry_ = entry;
    const auto parts = split(entry, ':');
    if (parts.size() > 2) {
      fail(
          "more than one ':'; an entry is PLATFORM or PLATFORM:DEVICE[,DEVICE...] and entries are "
          "separated by ';'");
    }
    if (parts.size() == 1 && entry.find('=') != std::string_view::npos) {
      std::string suggestion(entry);
      suggestion[suggestion.find('=')] = ':';
      fail(
          "'=' is not a separator; PYOPENCL_TEST separates the platform from its devices with "
          "':' (did you mean '" +
          suggestion + "'?)");
    }
    if (inventory_.platforms.empty()) fail("there is no OpenCL platform: " + inventory_.reason);

    const std::size_t platform = resolve_platform(parts[0]);
    const PlatformInfo& info = inventory_.platforms[platform];
    if (parts.size() == 1) {
      if (entry.empty()) {
        warn("empty entry (a stray ';'?); like PyOpenCL it selects the first platform, " +
             detail::describe_platform(info) + ", with all its devices");
      }
      if (info.devices.empty()) warn("selects no device: " + detail::list_devices(info));
      for (const DeviceInfo& device : info.devices) add({platform, device.index});
      return;
    }
    for (std::string_view identifier : split(parts[1], ',')) {
      add({platform, resolve_device(info, identifier)});
    }
  }

  std::size_t resolve_platform(std::string_view identifier) {
    bool out_of_range = false;
    const auto found = find_object(inventory_.platforms, identifier, out_of_range);
    if (out_of_range) {
      fail("platform index " + std::string(polydev::detail::strip_python_whitespace(identifier)) +
           " out of range; " + detail::list_platforms(inventory_));
    }
    if (!found) {
      fail("no platform matches '" + std::string(identifier) +
           "' (an index, or a case-insensitive substring of platform name and vendor); " +
           detail::list_platforms(inventory_));
    }
    if (identifier.empty() && !entry_.empty()) {
      warn("empty platform name; like PyOpenCL it selects the first platform, " +
           detail::describe_platform(inventory_.platforms[*found]));
    }
    return *found;
  }

  std::size_t resolve_device(const PlatformInfo& platform, std::string_view identifier) {
    bool out_of_range = false;
    const auto found = find_object(platform.devices, identifier, out_of_range);
    if (out_of_range) {
      fail("device index " + std::string(polydev::detail::strip_python_whitespace(identifier)) +
           " out of range; " + detail::list_devices(platform));
    }
    if (!found) {
      fail("no device matches '" + std::string(identifier) +
           "' (an index, or a case-insensitive substring of device name and vendor); " +
           detail::list_devices(platform));
    }
    if (identifier.empty()) {
      warn("empty device name; like PyOpenCL it selects the first device, " +
           detail::describe_device(platform.devices[*found]));
    }
    return *found;
  }

  void add(DevicePosition position) {
    auto& devices = selection_.devices;
    if (std::find(devices.begin(), devices.end(), position) != devices.end()) {
      const PlatformInfo& platform = inventory_.platforms[position.platform];
      warn("device " + detail::describe_device(platform.devices[position.device]) +
           " of platform " + std::to_string(platform.index) + " is already selected; it runs once");
      return;
    }
    devices.push_back(position);
  }

  std::string_view spec_;
  const Inventory& inventory_;
  Selection selection_;
  std::set<std::string> given_warnings_;
  std::size_t entry_number_ = 0;
  std::string_view entry_;
};

}  // namespace

Selection select_test_devices(const std::optional<std::string>& pyopencl_test,
                              const Inventory& inventory) {
  if (!pyopencl_test || pyopencl_test->empty()) {
    Selection all;
    for (const PlatformInfo& platform : inventory.platforms) {
      for (const DeviceInfo& device : platform.devices) {
        all.devices.push_back({platform.index, device.index});
      }
    }
    return all;
  }
  return TestSpecParser(*pyopencl_test, inventory).parse();
}

Selection select_test_devices_from_environment(const Inventory& inventory) {
  return select_test_devices(environment_variable("PYOPENCL_TEST"), inventory);
}

}  // namespace polydev::opencl
