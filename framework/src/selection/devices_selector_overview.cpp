// POLYDEV_DEVICES on top of the backend selections of the overview.
#include "selection/devices_selector_overview.hpp"

#include <algorithm>
#include <cctype>

#include "polydev/error.hpp"
#include "selection/warning_summary.hpp"

namespace polydev {

namespace {

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return std::isspace(c) != 0; });
}

// Why there was nothing for POLYDEV_DEVICES to choose from, per backend.
std::string why_no_candidate(const Overview& overview) {
  const auto why = [](const std::string& error, bool available, const std::string& reason) {
    if (!error.empty()) return std::string("its selector is invalid");
    return available ? std::string("its selector selects no device") : reason;
  };
  return "POLYDEV_DEVICES=" + detail::quote(*overview.devices.text) +
         " takes no device: the backend selectors select none (OpenCL: " +
         why(overview.opencl_error, overview.opencl.available, overview.opencl.reason) +
         "; CUDA: " + why(overview.cuda_error, overview.cuda.available, overview.cuda.reason) + ")";
}

std::string none_reason(const Overview& overview, std::size_t chosen, const char* backend,
                        const char* selector) {
  return "POLYDEV_DEVICES=" + detail::quote(*overview.devices.text) + " takes none of the " +
         std::to_string(chosen) + " " + backend + " device" + (chosen == 1 ? "" : "s") + " that " +
         selector + " selects ('polydev devices --explain' says why)";
}

}  // namespace

namespace detail {

// The candidate index of a device, or nothing when the backend selector did not choose it.
std::optional<std::size_t> devices_selector_candidate(const DevicesSelectorOutcome& devices,
                                                      const std::string& backend,
                                                      const std::string& key) {
  for (std::size_t i = 0; i < devices.candidates.size(); ++i) {
    if (backend_name(devices.candidates[i].backend) == backend && devices.candidates[i].key == key)
      return i;
  }
  return std::nullopt;
}

void apply_devices_selector(Overview& overview, std::optional<std::string> text) {
  if (!text || blank(*text)) return;
  DevicesSelectorOutcome& devices = overview.devices;
  devices.text = std::move(text);
  std::size_t opencl_chosen = 0;
  if (overview.opencl_selection) {
    for (const opencl::DevicePosition& position : overview.opencl_selection->devices) {
      const opencl::PlatformInfo& platform = overview.opencl.platforms.at(position.platform);
      devices.candidates.push_back(device_of(platform, platform.devices.at(position.device)));
    }
    opencl_chosen = devices.candidates.size();
  }
  if (overview.cuda_selection) {
    for (int ordinal : overview.cuda_selection->ordinals) {
      devices.candidates.push_back(
          device_of(overview.cuda.devices.at(static_cast<std::size_t>(ordinal)),
                    overview.cuda.driver_version));
    }
  }
  const std::size_t cuda_chosen = devices.candidates.size() - opencl_chosen;
  try {
    devices.selector = parse_devices_selector(*devices.text);
  } catch (const selection_error& failure) {
    devices.error = failure.what();
  }
  if (devices.selector) {
    devices.verdicts = evaluate(*devices.selector, devices.candidates);
    const bool any = std::any_of(devices.verdicts.begin(), devices.verdicts.end(),
                                 [](const DeviceVerdict& verdict) { return verdict.taken; });
    if (!any) {
      devices.error =
          devices.candidates.empty()
              ? why_no_candidate(overview)
              : nothing_taken_message(*devices.selector, devices.candidates, devices.verdicts);
    }
  }
  if (!devices.error.empty()) {
    if (overview.opencl_error.empty()) {
      overview.opencl_selection.reset();
      overview.opencl_error = devices.error;
    }
    if (overview.cuda_error.empty()) {
      overview.cuda_selection.reset();
      overview.cuda_error = devices.error;
    }
    return;
  }
  if (overview.opencl_selection) {
    std::vector<opencl::DevicePosition> kept;
    for (std::size_t i = 0; i < opencl_chosen; ++i) {
      if (devices.verdicts[i].taken) kept.push_back(overview.opencl_selection->devices[i]);
    }
    overview.opencl_selection->devices = std::move(kept);
    if (opencl_chosen > 0 && overview.opencl_selection->devices.empty()) {
      overview.opencl_none_reason = none_reason(overview, opencl_chosen, "OpenCL", "PYOPENCL_TEST");
    }
  }
  if (overview.cuda_selection) {
    std::vector<int> kept;
    for (std::size_t i = 0; i < cuda_chosen; ++i) {
      if (devices.verdicts[opencl_chosen + i].taken) {
        kept.push_back(overview.cuda_selection->ordinals[i]);
      }
    }
    overview.cuda_selection->ordinals = std::move(kept);
    if (cuda_chosen > 0 && overview.cuda_selection->ordinals.empty()) {
      overview.cuda_none_reason =
          none_reason(overview, cuda_chosen, "CUDA", "CUDA_DEVICE (or ~/.cuda_device)");
    }
  }
}

std::optional<std::string> devices_selector_left_out(const Overview& overview,
                                                     const std::string& backend,
                                                     const std::string& key) {
  const DevicesSelectorOutcome& devices = overview.devices;
  const auto index = devices_selector_candidate(devices, backend, key);
  if (!devices.text || !index) return std::nullopt;
  if (!devices.selector) return "POLYDEV_DEVICES is invalid";
  const DeviceVerdict& verdict = devices.verdicts.at(*index);
  if (verdict.taken) return std::nullopt;
  return "POLYDEV_DEVICES " + describe_verdict(*devices.selector, verdict,
                                               devices.candidates[*index], kClausesInAMessage);
}

}  // namespace detail

}  // namespace polydev
