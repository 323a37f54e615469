// `polydev devices --explain`: per device, what each selector decided.
#include <algorithm>
#include <sstream>

#include "polydev/overview.hpp"
#include "selection/devices_selector_overview.hpp"
#include "selection/warning_summary.hpp"

namespace polydev {

namespace {

std::string pyopencl_test_text(const Overview& overview) {
  return overview.pyopencl_test && !overview.pyopencl_test->empty()
             ? "PYOPENCL_TEST=" + detail::quote(*overview.pyopencl_test)
             : "PYOPENCL_TEST unset";
}

std::string cuda_setting_text(const Overview& overview) {
  const auto setting = cuda::effective_setting(overview.cuda_sources);
  return setting ? setting->source + "=" + detail::quote(setting->value) : "CUDA_DEVICE unset";
}

// Continuation lines of a multi-line message, indented under the line that introduces it.
std::string indented(const std::string& text, const std::string& indent) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

// One backend as --explain shows it.
struct BackendView {
  const char* backend;   // "opencl", "cuda"
  std::string selector;  // "PYOPENCL_TEST='...'" or "PYOPENCL_TEST unset"
  bool selector_set;     // whether the backend selector was set at all
  std::string error;     // the backend's own selection error (not POLYDEV_DEVICES')
  std::vector<std::string> backend_selected{};  // keys the backend selector chose, in its order
  std::vector<std::string> running{};           // keys that run, in order
};

void explain_device(const Overview& overview, const BackendView& view, const std::string& key,
                    const Device& device, std::ostringstream& out) {
  const DevicesSelectorOutcome& devices = overview.devices;
  out << "      " << view.selector << ": ";
  const auto chosen = std::find(view.backend_selected.begin(), view.backend_selected.end(), key);
  if (!view.error.empty()) {
    out << "no device: the selection error above\n";
  } else if (chosen == view.backend_selected.end()) {
    out << "does not select it\n";
  } else if (!view.selector_set) {
    out << "every device\n";
  } else {
    out << "selects it (#" << (chosen - view.backend_selected.begin() + 1) << ")\n";
  }
  out << "      POLYDEV_DEVICES: ";
  if (!devices.text) {
    out << "unset, takes every device\n";
  } else if (!devices.selector) {
    out << "invalid (above)\n";
  } else if (const auto index = detail::devices_selector_candidate(devices, view.backend, key)) {
    out << describe_verdict(*devices.selector, devices.verdicts.at(*index), device) << '\n';
  } else {
    out << "not consulted: " << view.selector << " left the device out\n";
  }
  const auto run = std::find(view.running.begin(), view.running.end(), key);
  out << "      => "
      << (run == view.running.end()
              ? std::string("does not run")
              : "runs (#" + std::to_string(run - view.running.begin() + 1) + ")")
      << '\n';
}

// The backend's own error: one that is not POLYDEV_DEVICES' copied in.
std::string own_error(const std::string& error, const Overview& overview) {
  return error == overview.devices.error ? std::string() : error;
}

}  // namespace

std::string format_explanation(const Overview& overview) {
  std::ostringstream out;
  const DevicesSelectorOutcome& devices = overview.devices;
  if (!devices.text) {
    out << "POLYDEV_DEVICES unset: every device the backend selectors select runs\n";
  } else {
    // Whole, as the user wrote it, but escaped: a line feed in the variable must not start a
    // line of this output.
    out << "POLYDEV_DEVICES='" << detail::printable(*devices.text, std::string::npos) << "'\n";
    if (devices.selector) {
      for (std::size_t c = 0; c < devices.selector->clauses.size(); ++c) {
        out << "  clause " << c + 1 << ": "
            << detail::printable(devices.selector->clauses[c].text, std::string::npos) << '\n';
      }
    }
    if (!devices.error.empty()) out << "  error: " << indented(devices.error, "  ") << '\n';
  }

  BackendView opencl{"opencl", pyopencl_test_text(overview),
                     overview.pyopencl_test && !overview.pyopencl_test->empty(),
                     own_error(overview.opencl_error, overview)};
  for (const Device& candidate : devices.candidates) {
    if (candidate.backend == Backend::opencl) opencl.backend_selected.push_back(candidate.key);
  }
  if (overview.opencl_selection) {
    for (const opencl::DevicePosition& position : overview.opencl_selection->devices) {
      const std::string& key =
          overview.opencl.platforms.at(position.platform).devices.at(position.device).key;
      opencl.running.push_back(key);
      if (!devices.text) opencl.backend_selected.push_back(key);
    }
  }
  out << "OpenCL: "
      << (overview.opencl.available ? "available" : "unavailable: " + overview.opencl.reason)
      << "; " << opencl.selector << '\n';
  if (!opencl.error.empty()) {
    out << "  selection error: " << indented(opencl.error, "  ") << '\n';
  }
  for (const opencl::PlatformInfo& platform : overview.opencl.platforms) {
    out << "  platform " << platform.index << " '" << platform.name << "'\n";
    if (platform.devices.empty()) out << "    no device: " << platform.devices_error << '\n';
    for (const opencl::DeviceInfo& device : platform.devices) {
      out << "    " << device.key << ": device " << device.index << " '" << device.name << "'\n";
      explain_device(overview, opencl, device.key, device_of(platform, device), out);
    }
  }

  const bool cuda_set = cuda::effective_setting(overview.cuda_sources).has_value();
  BackendView cuda{"cuda", cuda_setting_text(overview), cuda_set,
                   own_error(overview.cuda_error, overview)};
  for (const Device& candidate : devices.candidates) {
    if (candidate.backend == Backend::cuda) cuda.backend_selected.push_back(candidate.key);
  }
  if (overview.cuda_selection) {
    for (int ordinal : overview.cuda_selection->ordinals) {
      const std::string& key = overview.cuda.devices.at(static_cast<std::size_t>(ordinal)).key;
      cuda.running.push_back(key);
      if (!devices.text) cuda.backend_selected.push_back(key);
    }
  }
  out << "CUDA: "
      << (overview.cuda.available ? "available" : "unavailable: " + overview.cuda.reason) << "; "
      << cuda.selector << '\n';
  if (!cuda.error.empty()) out << "  selection error: " << indented(cuda.error, "  ") << '\n';
  for (const cuda::DeviceInfo& device : overview.cuda.devices) {
    out << "    " << device.key << ": device " << device.ordinal << " '" << device.name << "'\n";
    explain_device(overview, cuda, device.key, device_of(device, overview.cuda.driver_version),
                   out);
  }
  return out.str();
}

}  // namespace polydev
