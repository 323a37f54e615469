// CUDA_DEVICE and the ~/.cuda_device files: pure selection over an inventory.
#include <sys/stat.h>

#include <algorithm>

#include "io/printable.hpp"
#include "polydev/cuda/selection.hpp"
#include "polydev/detail/environment.hpp"
#include "polydev/detail/regular_file.hpp"
#include "polydev/error.hpp"
#include "selection/python_int.hpp"

namespace polydev::cuda {

namespace {

// A file that exists but is no readable regular file of at most kSettingFileLimit bytes (a
// directory, a FIFO, /dev/zero, a dangling link, a link loop) is recorded, not skipped: the person
// who made it meant to select a device, and selecting every device instead would hide that.
std::optional<DeviceSetting> read_setting_file(const std::string& path,
                                               std::vector<std::string>& unreadable) {
  try {
    const auto contents = detail::read_regular_file_if_present(path, detail::kSettingFileLimit);
    if (!contents) return std::nullopt;
    return DeviceSetting{path, std::string(detail::strip_python_whitespace(*contents))};
  } catch (const detail::file_error& failure) {
    unreadable.push_back(failure.what());
    return std::nullopt;
  }
}

bool is_directory(const std::string& path) {
  struct stat status {};
  return !path.empty() && ::stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
}

std::string describe_source(const DeviceSetting& setting) {
  return setting.source == "CUDA_DEVICE"
             ? "CUDA_DEVICE=" + detail::quote(setting.value)
             : "file " + setting.source + " (" + detail::quote(setting.value) + ")";
}

// The files count only where CUDA_DEVICE is unset, as in PyCUDA, which then reads them.
void check_files(const DeviceSources& sources) {
  if (sources.cuda_device || sources.unreadable_files.empty()) return;
  throw selection_error("cannot read the CUDA device setting " + sources.unreadable_files.front() +
                        "; expected a regular file of at most " +
                        std::to_string(detail::kSettingFileLimit) +
                        " bytes holding a device ordinal, or no file to use every device");
}

std::string list_devices(const Inventory& inventory) {
  std::string text = "there " + std::string(inventory.devices.size() == 1 ? "is " : "are ") +
                     std::to_string(inventory.devices.size()) + " CUDA device" +
                     (inventory.devices.size() == 1 ? "" : "s") + ": ";
  for (const DeviceInfo& device : inventory.devices) {
    if (device.ordinal > 0) text += ", ";
    text += std::to_string(device.ordinal) + " " + detail::quote(device.name);
  }
  return text;
}

std::string valid_range(const Inventory& inventory) {
  return "an ordinal 0.." + std::to_string(inventory.devices.size() - 1);
}

std::vector<int> parse_ordinals(const DeviceSetting& setting, const Inventory& inventory,
                                std::vector<std::string>& warnings) {
  if (!inventory.available || inventory.devices.empty()) {
    throw selection_error(describe_source(setting) +
                          " selects a CUDA device, but CUDA is "
                          "unavailable: " +
                          inventory.reason);
  }
  if (setting.value.empty()) {
    throw selection_error(describe_source(setting) + " is empty; expected " +
                          valid_range(inventory) +
                          " (or a ',' list of them for tests), or no "
                          "setting at all to use every device");
  }
  std::vector<int> ordinals;
  std::size_t start = 0;
  while (start <= setting.value.size()) {
    const std::size_t end = std::min(setting.value.find(',', start), setting.value.size());
    const std::string item = setting.value.substr(start, end - start);
    const auto value = detail::parse_python_int(item);
    if (!value) {
      throw selection_error(describe_source(setting) + ": " + detail::quote(item) +
                            " is not a device ordinal; "
                            "expected " +
                            valid_range(inventory) + " (or a ',' list of them)");
    }
    if (*value < 0 || *value >= static_cast<long long>(inventory.devices.size())) {
      throw selection_error(describe_source(setting) + ": device ordinal " +
                            std::to_string(*value) + " out of range; expected " +
                            valid_range(inventory) + "; " + list_devices(inventory));
    }
    const int ordinal = static_cast<int>(*value);
    if (std::find(ordinals.begin(), ordinals.end(), ordinal) != ordinals.end()) {
      // One warning per repeated device, however often it repeats: each quotes the whole value.
      std::string warning = describe_source(setting) + ": device " + std::to_string(ordinal) +
                            " is listed more than once; it runs once";
      if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) {
        warnings.push_back(std::move(warning));
      }
    } else {
      ordinals.push_back(ordinal);
    }
    start = end + 1;
  }
  return ordinals;
}

}  // namespace

DeviceSources read_device_sources() {
  DeviceSources sources;
  sources.cuda_device = detail::environment_variable("CUDA_DEVICE");
  // A HOME that is no directory (HOME=/dev/null for a service account, a path that is gone) holds
  // no device file: the person chose no device, and the file paths under it cannot exist.
  if (const auto home = detail::environment_variable("HOME"); home && is_directory(*home)) {
    sources.underscore_file = read_setting_file(*home + "/.cuda_device", sources.unreadable_files);
    sources.hyphen_file = read_setting_file(*home + "/.cuda-device", sources.unreadable_files);
  }
  return sources;
}

std::optional<DeviceSetting> effective_setting(const DeviceSources& sources,
                                               std::vector<std::string>* warnings) {
  if (sources.cuda_device) return DeviceSetting{"CUDA_DEVICE", *sources.cuda_device};
  if (sources.underscore_file && sources.hyphen_file && warnings &&
      sources.underscore_file->value != sources.hyphen_file->value) {
    warnings->push_back("both " + sources.underscore_file->source + " (" +
                        detail::quote(sources.underscore_file->value) + ") and " +
                        sources.hyphen_file->source + " (" +
                        detail::quote(sources.hyphen_file->value) + ") exist; using " +
                        sources.underscore_file->source + ", the file PyCUDA reads");
  }
  if (sources.underscore_file) return sources.underscore_file;
  return sources.hyphen_file;
}

Selection select_test_devices(const DeviceSources& sources, const Inventory& inventory) {
  check_files(sources);
  Selection selection;
  selection.setting = effective_setting(sources, &selection.warnings);
  if (!selection.setting) {
    for (const DeviceInfo& device : inventory.devices) selection.ordinals.push_back(device.ordinal);
    return selection;
  }
  selection.ordinals = parse_ordinals(*selection.setting, inventory, selection.warnings);
  return selection;
}

std::optional<int> default_ordinal(const DeviceSources& sources, const Inventory& inventory) {
  check_files(sources);
  const auto setting = effective_setting(sources);
  if (!setting) return std::nullopt;
  std::vector<std::string> ignored;
  const auto ordinals = parse_ordinals(*setting, inventory, ignored);
  if (setting->value.find(',') != std::string::npos) {
    throw selection_error(describe_source(*setting) +
                          " lists several devices; a default context "
                          "needs one: " +
                          valid_range(inventory));
  }
  return ordinals.front();
}

}  // namespace polydev::cuda
