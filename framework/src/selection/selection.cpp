// The selection of a process: the overview (backend selectors, POLYDEV_DEVICES, a configuration
// that cannot be used), then CTest's allocation and the device shard, with the reason for every
// device that does not run.
#include "polydev/selection.hpp"

#include <algorithm>
#include <cctype>

#include "io/printable.hpp"

namespace polydev {

namespace {

// The defaults of a layer above that cannot be known (a polydev.yaml with a schema error, an
// unknown POLYDEV_PROFILE) invalidate both selections, so that every suite fails with its error and
// `polydev devices` exits with status 2.
Overview with_defaults_error(Overview overview, const std::string& defaults_error) {
  if (defaults_error.empty()) return overview;
  overview.opencl_selection.reset();
  overview.opencl_error = defaults_error;
  overview.cuda_selection.reset();
  overview.cuda_error = defaults_error;
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
                               std::to_string(shard->index)};
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

std::vector<Device> DeviceSelection::selected_devices(Backend backend) const {
  const std::vector<Device> all = backend == Backend::opencl ? polydev::devices_of(overview.opencl)
                                                             : polydev::devices_of(overview.cuda);
  std::vector<Device> selected;
  for (const std::string& key : selected_keys) {
    const auto device = std::find_if(all.begin(), all.end(),
                                     [&](const Device& candidate) { return candidate.key == key; });
    if (device != all.end()) selected.push_back(*device);  // (else the other backend's)
  }
  return selected;
}

std::vector<Device> DeviceSelection::chosen_devices(Backend backend) const {
  std::vector<Device> chosen = selected_devices(backend);
  chosen.erase(std::remove_if(chosen.begin(), chosen.end(),
                              [&](const Device& device) {
                                const LeftOutDevice* elsewhere = find_left_out(device.key);
                                return elsewhere != nullptr &&
                                       (elsewhere->by == LeftOutBy::ctest_allocation ||
                                        elsewhere->by == LeftOutBy::ctest_entry);
                              }),
               chosen.end());
  return chosen;
}

namespace {

using Problem = BackendOutcome::Problem;

BackendOutcome failed(Problem problem, std::string message, BackendOutcome before) {
  BackendOutcome outcome;
  outcome.problem = problem;
  outcome.message = std::move(message);
  outcome.left_out = std::move(before.left_out);
  return outcome;
}

// The devices of `backend` that the overview's selectors chose, in run order.
std::vector<Device> selected_devices(const Overview& overview, Backend backend) {
  std::vector<Device> devices;
  if (backend == Backend::opencl && overview.opencl_selection) {
    for (const opencl::DevicePosition& at : overview.opencl_selection->devices) {
      const opencl::DeviceDescriptor described = opencl::describe(overview.opencl, at);
      devices.push_back(device_of(described.platform, described.device));
    }
  }
  if (backend == Backend::cuda && overview.cuda_selection) {
    for (int ordinal : overview.cuda_selection->ordinals) {
      devices.push_back(device_of(overview.cuda.devices.at(static_cast<std::size_t>(ordinal)),
                                  overview.cuda.driver_version));
    }
  }
  return devices;
}

// Stage 1: what the backend selector and POLYDEV_DEVICES choose (`selected`, the overview's
// choice; a broken configuration or driver is the overview's error), or why nothing.
BackendOutcome chosen_by_selectors(const Overview& overview, Backend backend,
                                   std::vector<Device> selected) {
  const bool is_opencl = backend == Backend::opencl;
  const std::string& error = is_opencl ? overview.opencl_error : overview.cuda_error;
  if (!error.empty()) return failed(Problem::invalid_selection, error, {});
  BackendOutcome outcome;
  outcome.devices = std::move(selected);
  if (!outcome.devices.empty()) return outcome;
  const std::string& none = is_opencl ? overview.opencl_none_reason : overview.cuda_none_reason;
  const std::string& unavailable = is_opencl ? overview.opencl.reason : overview.cuda.reason;
  std::string message = !none.empty() ? none
                        : !unavailable.empty()
                            ? unavailable
                            : "no " + std::string(backend_label(backend)) + " device is selected";
  // A CUDA reason names its backend, as the runtime's own words do not.
  if (!is_opencl && none.empty()) message = "CUDA unavailable: " + message;
  return failed(Problem::no_device, std::move(message), {});
}

// The keys of every device of `backend` on this machine, selected or not.
std::vector<std::string> inventory_keys(const Overview& overview, Backend backend) {
  std::vector<std::string> keys;
  if (backend == Backend::opencl) {
    for (const opencl::PlatformInfo& platform : overview.opencl.platforms) {
      for (const opencl::DeviceInfo& device : platform.devices) keys.push_back(device.key);
    }
  } else {
    for (const cuda::DeviceInfo& device : overview.cuda.devices) keys.push_back(device.key);
  }
  return keys;
}

// Stage 2a: every device that the CTest entry or CTest's allocation names is on this machine. One
// that is not (the list was discovered on other devices, or a device has gone since) fails the
// entry: skipped as "held by another entry", it would pass having run nothing. A key of the other
// backend is that backend's to judge; it may not be enumerated in this process.
BackendOutcome with_named_devices_present(BackendOutcome chosen, const SelectionInputs& inputs,
                                          const Overview& overview, Backend backend) {
  if (chosen.problem != Problem::none) return chosen;
  const Backend other = backend == Backend::opencl ? Backend::cuda : Backend::opencl;
  const std::string other_prefix = std::string(backend_name(other)) + "_";
  const std::vector<std::string> here = inventory_keys(overview, backend);
  const std::vector<std::string> there = inventory_keys(overview, other);
  const auto present = [&](const std::string& key) {
    return key.rfind(other_prefix, 0) == 0 ||
           std::find(here.begin(), here.end(), key) != here.end() ||
           std::find(there.begin(), there.end(), key) != there.end();
  };
  const auto absent = [&](const std::string& key, const std::string& named_by) {
    std::string message = named_by + " names the device " + detail::quote(key) + ", which no " +
                          std::string(backend_label(backend)) + " device on this machine has (" +
                          join(here) +
                          "); the CTest list was discovered on other devices or before one went: "
                          "it is discovered again when the test binary changes (rebuild or touch "
                          "it)";
    return failed(Problem::invalid_selection, std::move(message), {});
  };
  if (inputs.ctest_entry && inputs.ctest_entry->kind == CTestEntry::Kind::devices) {
    for (const std::string& key : inputs.ctest_entry->keys) {
      if (!present(key)) {
        return absent(key, "the CTest entry " + detail::quote(inputs.ctest_entry->name));
      }
    }
  }
  if (inputs.ctest_allocated_keys) {
    for (const std::string& key : *inputs.ctest_allocated_keys) {
      if (!present(key)) return absent(key, "CTest's resource allocation");
    }
  }
  return chosen;
}

// Stage 2: CTest's allocation, the CTest entry and the device shard keep the devices that run in
// this process; device positions count the selectors' choice, OpenCL then CUDA.
BackendOutcome kept_for_this_process(BackendOutcome chosen, const SelectionInputs& inputs,
                                     const std::vector<std::string>& selected_keys,
                                     Backend backend) {
  if (chosen.problem != Problem::none) return chosen;
  const ProcessFilter filter{inputs};
  BackendOutcome kept;
  for (Device& device : chosen.devices) {
    const auto at = std::find(selected_keys.begin(), selected_keys.end(), device.key);
    const auto position = static_cast<std::size_t>(at - selected_keys.begin());
    if (auto elsewhere = filter.left_out(backend, device.key, position)) {
      kept.left_out.push_back(std::move(*elsewhere));
    } else {
      kept.devices.push_back(std::move(device));
    }
  }
  if (kept.devices.empty()) {
    return failed(Problem::no_device, filter.why_none(backend_label(backend).data()),
                  std::move(kept));
  }
  return kept;
}

// Stage 3: the process's own inputs (CTest's allocation, the entry, the shard variables) are
// readable; malformed, they fail every backend that has no error of its own.
BackendOutcome with_readable_process_inputs(BackendOutcome outcome, const SelectionInputs& inputs) {
  if (inputs.process_error.empty() || outcome.problem == Problem::invalid_selection) {
    return outcome;
  }
  return failed(Problem::invalid_selection, inputs.process_error, std::move(outcome));
}

// Stage 4: POLYDEV_REQUIRE_DEVICES. Malformed, it fails every backend; a backend it requires
// fails when it has no device.
BackendOutcome required(BackendOutcome outcome, const RequiredBackends& requirement,
                        Backend backend) {
  if (!requirement.error.empty()) {
    return failed(Problem::invalid_requirement, requirement.error, std::move(outcome));
  }
  if (outcome.problem != Problem::no_device || !requirement.requires_backend(backend)) {
    return outcome;
  }
  // (Read before the outcome is moved: the order of arguments is not given.)
  std::string message = "POLYDEV_REQUIRE_DEVICES requires " + std::string(backend_label(backend)) +
                        ", but " + outcome.message;
  return failed(Problem::required_missing, std::move(message), std::move(outcome));
}

// The outcome of every stage for one backend, in order.
BackendOutcome select_backend(const Overview& overview, const SelectionInputs& inputs,
                              std::vector<Device> selected,
                              const std::vector<std::string>& selected_keys, Backend backend) {
  return required(
      with_readable_process_inputs(
          kept_for_this_process(with_named_devices_present(
                                    chosen_by_selectors(overview, backend, std::move(selected)),
                                    inputs, overview, backend),
                                inputs, selected_keys, backend),
          inputs),
      parse_required_backends(inputs.require_devices), backend);
}

}  // namespace

DeviceSelection select_devices(const SelectionInputs& inputs, opencl::Inventory opencl,
                               cuda::Inventory cuda, Backends enumerated) {
  DeviceSelection result;
  result.overview =
      with_defaults_error(make_overview(std::move(opencl), inputs.pyopencl_test, std::move(cuda),
                                        inputs.cuda_sources, inputs.polydev_devices, enumerated),
                          inputs.defaults_error);
  const Overview& overview = result.overview;
  std::vector<Device> opencl_selected = selected_devices(overview, Backend::opencl);
  std::vector<Device> cuda_selected = selected_devices(overview, Backend::cuda);
  for (const std::vector<Device>* selected : {&opencl_selected, &cuda_selected}) {
    for (const Device& device : *selected) result.selected_keys.push_back(device.key);
  }
  // Every device of the inventories that the selectors leave out, with the table's words.
  for (const opencl::PlatformInfo& platform : overview.opencl.platforms) {
    for (const opencl::DeviceInfo& device : platform.devices) {
      if (std::find(result.selected_keys.begin(), result.selected_keys.end(), device.key) ==
          result.selected_keys.end()) {
        result.left_out.push_back({Backend::opencl, device.key, LeftOutBy::selector,
                                   device_standing(overview, device.key).left_out});
      }
    }
  }
  result.opencl = select_backend(overview, inputs, std::move(opencl_selected), result.selected_keys,
                                 Backend::opencl);
  result.left_out.insert(result.left_out.end(), result.opencl.left_out.begin(),
                         result.opencl.left_out.end());
  for (const cuda::DeviceInfo& device : overview.cuda.devices) {
    if (std::find(result.selected_keys.begin(), result.selected_keys.end(), device.key) ==
        result.selected_keys.end()) {
      result.left_out.push_back({Backend::cuda, device.key, LeftOutBy::selector,
                                 device_standing(overview, device.key).left_out});
    }
  }
  result.cuda = select_backend(overview, inputs, std::move(cuda_selected), result.selected_keys,
                               Backend::cuda);
  result.left_out.insert(result.left_out.end(), result.cuda.left_out.begin(),
                         result.cuda.left_out.end());
  if (overview.opencl_selection) result.warnings = overview.opencl_selection->warnings;
  if (overview.cuda_selection) {
    result.warnings.insert(result.warnings.end(), overview.cuda_selection->warnings.begin(),
                           overview.cuda_selection->warnings.end());
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

// The selection with the backends of `enumerate` only: the other's inventory is never read.
DeviceSelection select_enumerated(const SelectionInputs& inputs, Backends enumerate) {
  return select_devices(inputs,
                        enumerate.opencl ? opencl::system_inventory() : unenumerated_opencl(),
                        enumerate.cuda ? cuda::system_inventory() : unenumerated_cuda(), enumerate);
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
