// PYOPENCL_TEST: PyOpenCL's grammar and results, with errors where PyOpenCL is vague.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "io/printable.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/selection.hpp"
#include "selection/opencl_listing.hpp"
#include "selection/python_int.hpp"
#include "selection/warning_summary.hpp"

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

// An index as written, and its value when written with digits other than ASCII ('٥' (5)).
std::string index_text(std::string_view identifier) {
  const std::string_view written = polydev::detail::strip_python_whitespace(identifier);
  std::string text = polydev::detail::printable(written, polydev::detail::kQuotedBytes);
  const bool ascii =
      std::all_of(written.begin(), written.end(), [](unsigned char c) { return c < 0x80; });
  if (!ascii) text += " (" + std::to_string(*polydev::detail::parse_python_int(identifier)) + ")";
  return text;
}

class TestSpecParser {
 public:
  TestSpecParser(std::string_view spec, const Inventory& inventory)
      : spec_(spec), inventory_(inventory) {}

  Selection parse() {
    const auto entries = split(spec_, ';');
    for (std::size_t i = 0; i < entries.size(); ++i) parse_entry(i + 1, entries[i]);
    if (selection_.devices.empty()) {
      std::string message =
          "PYOPENCL_TEST " + polydev::detail::quote(spec_) + " selects no device: ";
      message +=
          inventory_.platforms.empty() ? inventory_.reason : detail::list_platforms(inventory_);
      throw selection_error(message);
    }
    selection_.warnings = warnings_.lines();
    return std::move(selection_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw selection_error(entry_label() + ": " + what);
  }

  std::string entry_label() const {
    return "PYOPENCL_TEST entry " + std::to_string(entry_number_) + " " +
           polydev::detail::quote(entry_);
  }

  // One line per kind of warning however often the selector repeats it: 100 000 empty entries
  // would otherwise print 100 000 lines, and an entry that repeats a device one line per repeat,
  // each quoting the whole entry. `what()` is the warning for one entry, `many` the summary.
  template <typename What, typename Many>
  void warn(const std::string& kind, What&& what, Many&& many) {
    warnings_.add(
        kind, entry_number_, [&] { return entry_label() + ": " + what(); },
        std::forward<Many>(many));
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
        warn(
            "empty entry",
            [&] {
              return "empty entry (a stray ';'?); like PyOpenCL it selects the first platform, " +
                     detail::describe_platform(info) + ", with all its devices";
            },
            [&info](std::size_t count, const std::string& places) {
              return "PYOPENCL_TEST: " + std::to_string(count) + " empty entries (entries " +
                     places + "; stray ';'?); like PyOpenCL each selects the first platform, " +
                     detail::describe_platform(info) + ", with all its devices";
            });
      }
      if (info.devices.empty()) {
        warn(
            "no device " + std::to_string(platform),
            [&] { return "selects no device: " + detail::list_devices(info); },
            [&info](std::size_t count, const std::string& places) {
              return "PYOPENCL_TEST: " + std::to_string(count) + " entries (entries " + places +
                     ") select no device: " + detail::list_devices(info);
            });
      }
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
      fail("platform index " + index_text(identifier) + " out of range; " +
           detail::list_platforms(inventory_));
    }
    if (!found) {
      fail("no platform matches " + polydev::detail::quote(identifier) +
           " (an index, or a case-insensitive substring of platform name and vendor); " +
           detail::list_platforms(inventory_));
    }
    if (identifier.empty() && !entry_.empty()) {
      const PlatformInfo& first = inventory_.platforms[*found];
      warn(
          "empty platform name",
          [&] {
            return "empty platform name; like PyOpenCL it selects the first platform, " +
                   detail::describe_platform(first);
          },
          [&first](std::size_t count, const std::string& places) {
            return "PYOPENCL_TEST: " + std::to_string(count) +
                   " entries with an empty platform name (entries " + places +
                   "); like PyOpenCL each selects the first platform, " +
                   detail::describe_platform(first);
          });
    }
    return *found;
  }

  std::size_t resolve_device(const PlatformInfo& platform, std::string_view identifier) {
    bool out_of_range = false;
    const auto found = find_object(platform.devices, identifier, out_of_range);
    if (out_of_range) {
      fail("device index " + index_text(identifier) + " out of range; " +
           detail::list_devices(platform));
    }
    if (!found) {
      fail("no device matches " + polydev::detail::quote(identifier) +
           " (an index, or a case-insensitive substring of device name and vendor); " +
           detail::list_devices(platform));
    }
    if (identifier.empty()) {
      const DeviceInfo& first = platform.devices[*found];
      warn(
          "empty device name " + std::to_string(platform.index),
          [&] {
            return "empty device name; like PyOpenCL it selects the first device, " +
                   detail::describe_device(first);
          },
          [&first, &platform](std::size_t count, const std::string& places) {
            return "PYOPENCL_TEST: " + std::to_string(count) +
                   " entries with an empty device name for platform " +
                   std::to_string(platform.index) + " (entries " + places +
                   "); like PyOpenCL each selects its first device, " +
                   detail::describe_device(first);
          });
    }
    return *found;
  }

  void add(DevicePosition position) {
    auto& devices = selection_.devices;
    if (std::find(devices.begin(), devices.end(), position) != devices.end()) {
      const PlatformInfo& platform = inventory_.platforms[position.platform];
      const DeviceInfo& device = platform.devices[position.device];
      warn(
          "again " + std::to_string(platform.index) + " " + std::to_string(device.index),
          [&] {
            return "device " + detail::describe_device(device) + " of platform " +
                   std::to_string(platform.index) + " is already selected; it runs once";
          },
          [&device, &platform](std::size_t count, const std::string& places) {
            return "PYOPENCL_TEST: device " + detail::describe_device(device) + " of platform " +
                   std::to_string(platform.index) + " is selected again by " +
                   std::to_string(count) + " entries (entries " + places + "); it runs once";
          });
      return;
    }
    devices.push_back(position);
  }

  std::string_view spec_;
  const Inventory& inventory_;
  Selection selection_;
  polydev::detail::WarningSummary warnings_;
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

}  // namespace polydev::opencl
