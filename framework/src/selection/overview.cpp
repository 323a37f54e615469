#include "polydev/overview.hpp"

#include <algorithm>
#include <sstream>

#include "io/json_writer.hpp"
#include "polydev/config.hpp"
#include "polydev/environment.hpp"
#include "polydev/error.hpp"
#include "selection/devices_selector_overview.hpp"

namespace polydev {

Overview make_overview(opencl::Inventory opencl, std::optional<std::string> pyopencl_test,
                       cuda::Inventory cuda, cuda::DeviceSources cuda_sources,
                       std::optional<std::string> polydev_devices) {
  Overview overview;
  overview.opencl = std::move(opencl);
  overview.pyopencl_test = std::move(pyopencl_test);
  overview.cuda = std::move(cuda);
  overview.cuda_sources = std::move(cuda_sources);
  try {
    overview.opencl_selection =
        opencl::select_test_devices(overview.pyopencl_test, overview.opencl);
  } catch (const selection_error& failure) {
    overview.opencl_error = failure.what();
  }
  try {
    overview.cuda_selection = cuda::select_test_devices(overview.cuda_sources, overview.cuda);
  } catch (const selection_error& failure) {
    overview.cuda_error = failure.what();
  }
  detail::apply_devices_selector(overview, std::move(polydev_devices));
  return overview;
}

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

}  // namespace

const Overview& system_overview() {
  // First: the configured profile gives defaults to the selector variables read below.
  static const std::string& config_error = process_config().error;
  static const Overview overview = with_config_error(
      make_overview(opencl::system_inventory(), environment_variable("PYOPENCL_TEST"),
                    cuda::system_inventory(), cuda::read_device_sources(),
                    environment_variable("POLYDEV_DEVICES")),
      config_error);
  return overview;
}

namespace {

std::string selector_text(const Overview& overview) {
  return overview.pyopencl_test && !overview.pyopencl_test->empty()
             ? "PYOPENCL_TEST='" + *overview.pyopencl_test + "'"
             : "PYOPENCL_TEST unset";
}

std::string mebibytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// "[run #N]" for the N-th selected device, "[ skip ]" for one not selected.
template <typename Item>
std::string selection_mark(const std::vector<Item>& selected,
                           typename std::vector<Item>::const_iterator found) {
  return found != selected.end() ? "[run #" + std::to_string(found - selected.begin() + 1) + "]"
                                 : std::string("[ skip ]");
}

std::string opencl_left_out(const Overview& overview, const opencl::DeviceInfo& device) {
  if (const auto left_out = detail::devices_selector_left_out(overview, "opencl", device.key)) {
    return *left_out;
  }
  return overview.opencl_error.empty() ? "not named by " + selector_text(overview)
                                       : std::string("the selector is invalid");
}

std::string cuda_setting_text(const Overview& overview) {
  const auto setting = cuda::effective_setting(overview.cuda_sources);
  return setting ? setting->source + "='" + setting->value + "'" : "CUDA_DEVICE unset";
}

// After "not selected": ": <reason>" or " by <setting>", as the table has always written it.
std::string cuda_left_out(const Overview& overview, const cuda::DeviceInfo& device) {
  if (const auto left_out = detail::devices_selector_left_out(overview, "cuda", device.key)) {
    return ": " + *left_out;
  }
  return " by " + cuda_setting_text(overview);
}

void write_opencl_table(const Overview& overview, std::ostringstream& out) {
  const opencl::Inventory& inventory = overview.opencl;
  out << "OpenCL: ";
  if (inventory.platforms.empty()) {
    out << "unavailable: " << inventory.reason << '\n';
    return;
  }
  out << (inventory.available ? "available" : "unavailable: " + inventory.reason) << "; "
      << selector_text(overview);
  // POLYDEV_DEVICES' error has a line of its own (format_table).
  if (!overview.opencl_error.empty() && overview.opencl_error != overview.devices.error) {
    out << "; selection error: " << overview.opencl_error;
  }
  out << '\n';
  const auto& selected = overview.opencl_selection ? overview.opencl_selection->devices
                                                   : std::vector<opencl::DevicePosition>{};
  for (const opencl::PlatformInfo& platform : inventory.platforms) {
    out << "  platform " << platform.index << " '" << platform.name << "' (" << platform.vendor
        << "; " << platform.version << ")\n";
    if (platform.devices.empty()) out << "    no device: " << platform.devices_error << '\n';
    for (const opencl::DeviceInfo& device : platform.devices) {
      const auto it = std::find(selected.begin(), selected.end(),
                                opencl::DevicePosition{platform.index, device.index});
      out << "    " << selection_mark(selected, it) << ' ' << device.index << " '" << device.name
          << "' " << device.type << ", " << device.version << ", driver " << device.driver_version
          << ", " << device.compute_units << " CUs, " << mebibytes(device.global_memory_bytes)
          << (device.fp64 ? ", fp64" : "") << "\n             key " << device.key;
      if (it == selected.end()) out << "; not selected: " << opencl_left_out(overview, device);
      out << '\n';
    }
  }
}

void write_cuda_table(const Overview& overview, std::ostringstream& out) {
  const cuda::Inventory& inventory = overview.cuda;
  const std::string setting_text = cuda_setting_text(overview);
  out << "CUDA: ";
  if (!inventory.available) {
    out << "unavailable: " << inventory.reason;
  } else {
    out << "available (driver " << inventory.driver_version << ", runtime "
        << inventory.runtime_version << "); " << setting_text;
  }
  if (!overview.cuda_error.empty() && overview.cuda_error != overview.devices.error) {
    out << "; selection error: " << overview.cuda_error;
  }
  out << '\n';
  const auto& selected =
      overview.cuda_selection ? overview.cuda_selection->ordinals : std::vector<int>{};
  for (const cuda::DeviceInfo& device : inventory.devices) {
    const auto it = std::find(selected.begin(), selected.end(), device.ordinal);
    out << "    " << selection_mark(selected, it) << ' ' << device.ordinal << " '" << device.name
        << "' sm_" << device.compute_capability_major << device.compute_capability_minor << ", "
        << device.multiprocessors << " SMs, " << mebibytes(device.total_memory_bytes) << ", "
        << device.pci_bus_id << ", " << device.uuid << "\n             key " << device.key;
    if (it == selected.end()) out << "; not selected" << cuda_left_out(overview, device);
    out << '\n';
  }
}

}  // namespace

DeviceStanding device_standing(const Overview& overview, const std::string& key) {
  DeviceStanding standing;
  for (const opencl::PlatformInfo& platform : overview.opencl.platforms) {
    for (const opencl::DeviceInfo& device : platform.devices) {
      if (device.key != key) continue;
      standing.backend = "opencl";
      const opencl::DevicePosition position{platform.index, device.index};
      const auto& selected = overview.opencl_selection ? overview.opencl_selection->devices
                                                       : std::vector<opencl::DevicePosition>{};
      standing.selected = std::find(selected.begin(), selected.end(), position) != selected.end();
      if (!standing.selected) standing.left_out = opencl_left_out(overview, device);
      return standing;
    }
  }
  for (const cuda::DeviceInfo& device : overview.cuda.devices) {
    if (device.key != key) continue;
    standing.backend = "cuda";
    const auto& selected =
        overview.cuda_selection ? overview.cuda_selection->ordinals : std::vector<int>{};
    standing.selected =
        std::find(selected.begin(), selected.end(), device.ordinal) != selected.end();
    if (!standing.selected) {
      const auto left_out = detail::devices_selector_left_out(overview, "cuda", device.key);
      standing.left_out = left_out ? *left_out
                          : overview.cuda_error.empty()
                              ? "not named by " + cuda_setting_text(overview)
                              : std::string("the selector is invalid");
    }
    return standing;
  }
  return standing;
}

std::string format_table(const Overview& overview) {
  std::ostringstream out;
  write_opencl_table(overview, out);
  write_cuda_table(overview, out);
  if (overview.devices.text) {
    out << "POLYDEV_DEVICES='" << *overview.devices.text << "'";
    if (!overview.devices.error.empty()) out << "; selection error: " << overview.devices.error;
    out << '\n';
  }
  return out.str();
}

std::string format_json(const Overview& overview) {
  detail::JsonWriter json;
  json.begin_object().key("opencl").begin_object();
  json.key("available").value(overview.opencl.available).key("reason");
  overview.opencl.available ? json.null() : json.value(overview.opencl.reason);
  json.key("platforms").begin_array();
  for (const opencl::PlatformInfo& platform : overview.opencl.platforms) {
    json.begin_object()
        .key("index")
        .value(static_cast<std::int64_t>(platform.index))
        .key("name")
        .value(platform.name)
        .key("vendor")
        .value(platform.vendor)
        .key("version")
        .value(platform.version)
        .key("devices")
        .begin_array();
    for (const opencl::DeviceInfo& device : platform.devices) {
      json.begin_object()
          .key("index")
          .value(static_cast<std::int64_t>(device.index))
          .key("name")
          .value(device.name)
          .key("vendor")
          .value(device.vendor)
          .key("key")
          .value(device.key)
          .end_object();
    }
    json.end_array().key("devices_error");
    // Why a platform has no device (a driver that failed to list them, a malformed version).
    platform.devices_error.empty() ? json.null() : json.value(platform.devices_error);
    json.end_object();
  }
  json.end_array().key("selected");
  if (overview.opencl_selection) {
    json.begin_array();
    for (const opencl::DevicePosition& position : overview.opencl_selection->devices) {
      json.begin_array()
          .value(static_cast<std::int64_t>(position.platform))
          .value(static_cast<std::int64_t>(position.device))
          .end_array();
    }
    json.end_array();
  } else {
    json.null();
  }
  json.end_object();

  json.key("cuda").begin_object();
  json.key("available").value(overview.cuda.available).key("reason");
  overview.cuda.available ? json.null() : json.value(overview.cuda.reason);
  json.key("devices").begin_array();
  for (const cuda::DeviceInfo& device : overview.cuda.devices) {
    json.begin_object()
        .key("ordinal")
        .value(static_cast<std::int64_t>(device.ordinal))
        .key("name")
        .value(device.name)
        .key("key")
        .value(device.key)
        .end_object();
  }
  json.end_array().key("selected");
  if (overview.cuda_selection) {
    json.begin_array();
    for (int ordinal : overview.cuda_selection->ordinals)
      json.value(static_cast<std::int64_t>(ordinal));
    json.end_array();
  } else {
    json.null();
  }
  json.end_object().end_object();
  return json.text() + "\n";
}

}  // namespace polydev
