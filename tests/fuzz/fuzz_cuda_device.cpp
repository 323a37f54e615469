// CUDA_DEVICE, ~/.cuda_device and ~/.cuda-device against synthetic CUDA inventories.
//
// Input: one byte picks the inventory (see fuzz_support.hpp), one flags byte (bit 0: CUDA_DEVICE is
// set, bit 1: ~/.cuda_device exists, bit 2: ~/.cuda-device exists, bit 3: go through the real
// environment and real files in a temporary $HOME instead of building the sources in memory), then
// CUDA_DEVICE's value, the underscore file's contents and the hyphen file's contents, separated by
// NUL bytes.
//
// Checked on every input: the sources read back as written (files stripped as Python strips);
// precedence CUDA_DEVICE, then the underscore file, then the hyphen file; a selection or a
// selection_error naming its source; ordinals in range, each once; no setting selects every
// device; default_ordinal agrees with select_test_devices and refuses lists.

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "polydev/cuda/selection.hpp"
#include "selection/python_int.hpp"

namespace {

using polydev::cuda::DeviceSetting;
using polydev::cuda::DeviceSources;
using polydev::cuda::Inventory;
using polydev_fuzz::require;

// A private $HOME for the whole fuzzing run, removed at exit.
class TemporaryHome {
 public:
  TemporaryHome() {
    char pattern[] = "/tmp/polydev-fuzz-home-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) polydev_fuzz::violation("cannot create a temporary $HOME");
    path_ = pattern;
  }
  ~TemporaryHome() {
    std::remove((path_ + "/.cuda_device").c_str());
    std::remove((path_ + "/.cuda-device").c_str());
    ::rmdir(path_.c_str());
  }
  TemporaryHome(const TemporaryHome&) = delete;
  TemporaryHome& operator=(const TemporaryHome&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void write_or_remove(const std::string& path, const std::optional<std::string>& contents) {
  if (!contents) {
    std::remove(path.c_str());
    return;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << *contents;
  require(static_cast<bool>(file), "cannot write " + path);
}

std::optional<DeviceSetting> file_setting(const std::string& path,
                                          const std::optional<std::string>& contents) {
  if (!contents) return std::nullopt;
  return DeviceSetting{path, std::string(polydev::detail::strip_python_whitespace(*contents))};
}

bool same(const std::optional<DeviceSetting>& a, const std::optional<DeviceSetting>& b) {
  return a.has_value() == b.has_value() && (!a || (a->source == b->source && a->value == b->value));
}

// The sources through the real environment and files: what read_device_sources() sees.
DeviceSources read_back(const std::optional<std::string>& variable,
                        const std::optional<std::string>& underscore,
                        const std::optional<std::string>& hyphen) {
  static TemporaryHome home;
  ::setenv("HOME", home.path().c_str(), 1);
  if (variable) {
    ::setenv("CUDA_DEVICE", variable->c_str(), 1);
  } else {
    ::unsetenv("CUDA_DEVICE");
  }
  write_or_remove(home.path() + "/.cuda_device", underscore);
  write_or_remove(home.path() + "/.cuda-device", hyphen);
  const DeviceSources sources = polydev::cuda::read_device_sources();
  require(sources.cuda_device == variable, "CUDA_DEVICE did not read back as set");
  require(same(sources.underscore_file, file_setting(home.path() + "/.cuda_device", underscore)),
          "~/.cuda_device did not read back as its stripped contents");
  require(same(sources.hyphen_file, file_setting(home.path() + "/.cuda-device", hyphen)),
          "~/.cuda-device did not read back as its stripped contents");
  return sources;
}

void check_precedence(const DeviceSources& sources, const std::optional<DeviceSetting>& effective) {
  if (sources.cuda_device) {
    require(
        effective && effective->source == "CUDA_DEVICE" && effective->value == *sources.cuda_device,
        "CUDA_DEVICE must take precedence over the files");
  } else if (sources.underscore_file) {
    require(same(effective, sources.underscore_file),
            "~/.cuda_device must take precedence over ~/.cuda-device");
  } else {
    require(same(effective, sources.hyphen_file), "~/.cuda-device is the last source");
  }
}

bool names_its_source(const std::string& message) {
  return message.rfind("CUDA_DEVICE='", 0) == 0 || message.rfind("file ", 0) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  polydev_fuzz::Input input(data, size);
  const Inventory& inventory = polydev_fuzz::cuda_inventory(input);
  const unsigned flags = input.flags();
  const std::string variable_text = input.field();
  const std::string underscore_text = input.field();
  const std::string hyphen_text = input.rest();
  const auto when = [&](unsigned bit, const std::string& text) {
    return (flags & bit) ? std::optional<std::string>(text) : std::nullopt;
  };

  DeviceSources sources;
  if (flags & 8u) {
    // Files may hold NUL bytes; only the rest of the input can carry one.
    sources = read_back(when(1u, variable_text), when(2u, underscore_text), when(4u, hyphen_text));
  } else {
    sources.cuda_device = when(1u, variable_text);
    sources.underscore_file = file_setting("/home/fuzz/.cuda_device", when(2u, underscore_text));
    sources.hyphen_file = file_setting("/home/fuzz/.cuda-device", when(4u, hyphen_text));
  }

  std::vector<std::string> precedence_warnings;
  const auto effective = polydev::cuda::effective_setting(sources, &precedence_warnings);
  check_precedence(sources, effective);

  std::string message;
  const auto selection = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] { return polydev::cuda::select_test_devices(sources, inventory); }, "select_test_devices",
      &message);
  require(selection || names_its_source(message),
          "a CUDA selection error does not start by naming its source: " + message);
  if (selection) {
    polydev_fuzz::check_warnings(selection->warnings, "select_test_devices");
    require(same(selection->setting, effective), "the selection names another setting");
    const auto& ordinals = selection->ordinals;
    if (!effective) {
      std::vector<int> all;
      for (const auto& device : inventory.devices) all.push_back(device.ordinal);
      require(ordinals == all, "without a setting every device must be selected, in order");
    } else {
      require(!ordinals.empty(), "a setting selected nothing without an error");
    }
    for (std::size_t i = 0; i < ordinals.size(); ++i) {
      require(ordinals[i] >= 0 && static_cast<std::size_t>(ordinals[i]) < inventory.devices.size(),
              "ordinal " + std::to_string(ordinals[i]) + " is not a device of the inventory");
      require(
          std::find(ordinals.begin(), ordinals.begin() + i, ordinals[i]) == ordinals.begin() + i,
          "ordinal " + std::to_string(ordinals[i]) + " is selected twice");
    }
  }

  std::string default_message;
  const auto ordinal = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] { return polydev::cuda::default_ordinal(sources, inventory); }, "default_ordinal",
      &default_message);
  require(ordinal || names_its_source(default_message),
          "a default_ordinal error does not start by naming its source: " + default_message);
  if (!effective) {
    require(ordinal && !ordinal->has_value(), "without a setting there is no default ordinal");
  } else if (!selection) {
    require(!ordinal, "default_ordinal accepted a setting that select_test_devices rejects");
  } else if (effective->value.find(',') != std::string::npos) {
    require(!ordinal, "default_ordinal accepted a list; a default context needs one device");
  } else {
    require(ordinal && ordinal->has_value() && selection->ordinals.size() == 1 &&
                **ordinal == selection->ordinals.front(),
            "default_ordinal and select_test_devices disagree about one ordinal");
  }
  return 0;
}
