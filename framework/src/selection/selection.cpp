// The selection of a process: the overview (backend selectors, POLYDEV_DEVICES, a configuration
// that cannot be used), then CTest's allocation and the device shard, with the reason for every
// device that does not run.
#include "polydev/selection.hpp"

#include <algorithm>
#include <cctype>

namespace polydev {

namespace {

// polydev.yaml (config.hpp): a configuration that cannot be used (a schema error, an unknown
// POLYDEV_PROFILE) invalidates both selections, so that every suite fails with its error and
// `polydev devices` exits with status 2.
Overview with_config_error(Overview overview, const std::string& config_error) {
  if (config_error.empty()) return overview;
  overview.opencl_selection.reset();
  overview.opencl_error = config_error;
  overview.cuda_selection.reset();
  overview.cuda_error = config_error;
  return overview;
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text.empty() ? "none" : text;
}

// The filters that split the selected devices among processes: CTest's allocation, then the
// device shard, over positions counted OpenCL then CUDA.
struct ProcessFilter {
  const SelectionInputs& inputs;

  // Why the selected device with `key` at `position` runs in another process; nothing when it
  // runs in this one.
  std::optional<LeftOutDevice> left_out(Backend backend, const std::string& key,
                                        std::size_t position) const {
    const auto& allocated = inputs.ctest_allocated_keys;
    if (allocated && std::find(allocated->begin(), allocated->end(), key) == allocated->end()) {
      return LeftOutDevice{backend, key, LeftOutBy::ctest_allocation,
                           "CTest allocated other devices to this test (" + join(*allocated) + ")"};
    }
    const auto& entry = inputs.ctest_entry;
    if (entry && entry->kind == CTestEntry::Kind::devices &&
        std::find(entry->keys.begin(), entry->keys.end(), key) == entry->keys.end()) {
      return LeftOutDevice{backend, key, LeftOutBy::ctest_entry,
                           "the CTest entry " + entry->name + " holds other devices"};
    }
    const auto& shard = inputs.shard;
    if (shard && !shard->takes(position)) {
      return LeftOutDevice{backend, key, LeftOutBy::shard,
                           "POLYDEV_SHARD_BY=device gives it to shard " +
                               std::to_string(position % static_cast<std::size_t>(shard->total)) +
                               " of " + std::to_string(shard->total) + ", and this is shard " +
                               std::to_string(shard->index) + " (GTEST_SHARD_INDEX)"};
    }
    return std::nullopt;
  }

  // Why a backend whose selected devices all run elsewhere has none here.
  std::string why_none(const char* backend) const {
    std::string reason = std::string("no selected ") + backend + " device runs in this process:";
    if (inputs.ctest_entry && inputs.ctest_entry->kind == CTestEntry::Kind::devices) {
      reason += " its CTest entry holds other devices;";
    }
    if (inputs.ctest_allocated_keys) reason += " CTest allocated other devices to this test;";
    if (inputs.shard) {
      reason += " POLYDEV_SHARD_BY=device gives shard " + std::to_string(inputs.shard->index) +
                " of " + std::to_string(inputs.shard->total) + " other devices;";
    }
    reason.back() = '.';
    return reason;
  }
};

}  // namespace

const LeftOutDevice* DeviceSelection::find_left_out(const std::string& key) const {
  const auto found = std::find_if(left_out.begin(), left_out.end(),
                                  [&](const LeftOutDevice& device) { return device.key == key; });
  return found == left_out.end() ? nullptr : &*found;
}

std::vector<Device> DeviceSelection::devices_of(Backend backend) const {
  std::vector<Device> of_backend;
  for (const Device& device : devices) {
    if (device.backend == backend) of_backend.push_back(device);
  }
  return of_backend;
}

std::vector<Device> DeviceSelection::chosen_devices(Backend backend) const {
  const std::vector<Device> all = backend == Backend::opencl ? polydev::devices_of(overview.opencl)
                                                             : polydev::devices_of(overview.cuda);
  std::vector<Device> chosen;
  for (const std::string& key : selected_keys) {
    const auto device = std::find_if(all.begin(), all.end(),
                                     [&](const Device& candidate) { return candidate.key == key; });
    if (device == all.end()) continue;  // the other backend's
    const LeftOutDevice* elsewhere = find_left_out(key);
    if (elsewhere != nullptr &&
        (elsewhere->by == LeftOutBy::ctest_allocation || elsewhere->by == LeftOutBy::ctest_entry)) {
      continue;
    }
    chosen.push_back(*device);
  }
  return chosen;
}

DeviceSelection select_devices(const SelectionInputs& inputs, opencl::Inventory opencl,
                               cuda::Inventory cuda) {
  DeviceSelection result;
  result.overview =
      with_config_error(make_overview(std::move(opencl), inputs.pyopencl_test, std::move(cuda),
                                      inputs.cuda_sources, inputs.polydev_devices),
                        inputs.config_error);
  const Overview& overview = result.overview;
  const ProcessFilter filter{inputs};
  std::size_t position = 0;  // over OpenCL then CUDA, so that device shards deal both backends

  const std::vector<opencl::DevicePosition> no_positions;
  const auto& opencl_selected =
      overview.opencl_selection ? overview.opencl_selection->devices : no_positions;
  if (overview.opencl_selection) {
    result.warnings = overview.opencl_selection->warnings;
  }
  for (const opencl::PlatformInfo& platform : overview.opencl.platforms) {
    for (const opencl::DeviceInfo& device : platform.devices) {
      const opencl::DevicePosition at{platform.index, device.index};
      if (std::find(opencl_selected.begin(), opencl_selected.end(), at) == opencl_selected.end()) {
        result.left_out.push_back({Backend::opencl, device.key, LeftOutBy::selector,
                                   device_standing(overview, device.key).left_out});
      }
    }
  }
  for (const opencl::DevicePosition& at : opencl_selected) {
    const std::string& key = opencl::describe(overview.opencl, at).device.key;
    result.selected_keys.push_back(key);
    if (auto elsewhere = filter.left_out(Backend::opencl, key, position++)) {
      result.left_out.push_back(std::move(*elsewhere));
    } else {
      const opencl::DeviceDescriptor described = opencl::describe(overview.opencl, at);
      result.devices.push_back(device_of(described.platform, described.device));
    }
  }
  result.opencl_error =
      overview.opencl_error.empty() ? inputs.process_error : overview.opencl_error;
  const std::size_t opencl_running = result.devices.size();
  if (opencl_running == 0) {
    result.opencl_no_device_reason =
        !opencl_selected.empty() ? filter.why_none("OpenCL") : overview.opencl_none_reason;
  }

  const std::vector<int> no_ordinals;
  const auto& cuda_selected =
      overview.cuda_selection ? overview.cuda_selection->ordinals : no_ordinals;
  if (overview.cuda_selection) {
    result.warnings.insert(result.warnings.end(), overview.cuda_selection->warnings.begin(),
                           overview.cuda_selection->warnings.end());
  }
  for (const cuda::DeviceInfo& device : overview.cuda.devices) {
    if (std::find(cuda_selected.begin(), cuda_selected.end(), device.ordinal) ==
        cuda_selected.end()) {
      result.left_out.push_back({Backend::cuda, device.key, LeftOutBy::selector,
                                 device_standing(overview, device.key).left_out});
    }
  }
  for (int ordinal : cuda_selected) {
    const std::string& key = overview.cuda.devices.at(static_cast<std::size_t>(ordinal)).key;
    result.selected_keys.push_back(key);
    if (auto elsewhere = filter.left_out(Backend::cuda, key, position++)) {
      result.left_out.push_back(std::move(*elsewhere));
    } else {
      result.devices.push_back(
          device_of(overview.cuda.devices.at(static_cast<std::size_t>(ordinal)),
                    overview.cuda.driver_version));
    }
  }
  result.cuda_error = overview.cuda_error.empty() ? inputs.process_error : overview.cuda_error;
  if (result.devices.size() == opencl_running) {
    result.cuda_no_device_reason =
        !cuda_selected.empty() ? filter.why_none("CUDA") : overview.cuda_none_reason;
  }
  return result;
}

Backends backends_to_enumerate(const SelectionInputs& inputs, Backends wanted) {
  const bool devices_selector =
      inputs.polydev_devices &&
      !std::all_of(inputs.polydev_devices->begin(), inputs.polydev_devices->end(),
                   [](unsigned char c) { return std::isspace(c) != 0; });
  const bool any = wanted.opencl || wanted.cuda;
  Backends needed = wanted;
  if (any && devices_selector) needed = {true, true};
  if (wanted.cuda && inputs.shard_by_device) needed.opencl = true;
  return needed;
}

namespace {

// Why a backend that the process does not enumerate has no inventory.
const char* const kOpenCLNotEnumerated = "not enumerated: this process runs no OpenCL test";
const char* const kCudaNotEnumerated = "not enumerated: this process runs no CUDA test";

opencl::Inventory unenumerated_opencl() {
  opencl::Inventory inventory;
  inventory.reason = kOpenCLNotEnumerated;
  return inventory;
}

cuda::Inventory unenumerated_cuda() {
  cuda::Inventory inventory;
  inventory.reason = kCudaNotEnumerated;
  return inventory;
}

// The selection with the backends of `enumerate` only; the other's selector is not applied to
// an inventory that was never read.
DeviceSelection select_enumerated(const SelectionInputs& inputs, Backends enumerate) {
  DeviceSelection selection =
      select_devices(inputs, enumerate.opencl ? opencl::system_inventory() : unenumerated_opencl(),
                     enumerate.cuda ? cuda::system_inventory() : unenumerated_cuda());
  Overview& overview = selection.overview;
  if (!enumerate.opencl) {
    overview.opencl_selection.reset();
    overview.opencl_error.clear();
    overview.opencl_none_reason = kOpenCLNotEnumerated;
    selection.opencl_error.clear();
    selection.opencl_no_device_reason = kOpenCLNotEnumerated;
  }
  if (!enumerate.cuda) {
    overview.cuda_selection.reset();
    overview.cuda_error.clear();
    overview.cuda_none_reason = kCudaNotEnumerated;
    selection.cuda_error.clear();
    selection.cuda_no_device_reason = kCudaNotEnumerated;
  }
  selection.warnings.clear();
  if (overview.opencl_selection) selection.warnings = overview.opencl_selection->warnings;
  if (overview.cuda_selection) {
    selection.warnings.insert(selection.warnings.end(), overview.cuda_selection->warnings.begin(),
                              overview.cuda_selection->warnings.end());
  }
  return selection;
}

}  // namespace

const DeviceSelection& process_selection() { return process_selection(Backends{true, true}); }

const DeviceSelection& process_selection(Backends wanted) {
  const SelectionInputs& inputs = process_selection_inputs();
  const Backends enumerate = backends_to_enumerate(inputs, wanted);
  // One selection per set of enumerated backends; a static each, so each is made once.
  if (enumerate.opencl && enumerate.cuda) {
    static const DeviceSelection both = select_enumerated(inputs, {true, true});
    return both;
  }
  if (enumerate.opencl) {
    static const DeviceSelection opencl_only = select_enumerated(inputs, {true, false});
    return opencl_only;
  }
  if (enumerate.cuda) {
    static const DeviceSelection cuda_only = select_enumerated(inputs, {false, true});
    return cuda_only;
  }
  static const DeviceSelection none = select_enumerated(inputs, {false, false});
  return none;
}

}  // namespace polydev
