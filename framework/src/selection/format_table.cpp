// `polydev devices` and the test main: the overview as a table for people.
#include <algorithm>
#include <sstream>

#include "io/printable.hpp"
#include "polydev/overview.hpp"
#include "selection/devices_selector_overview.hpp"
#include "selection/overview_words.hpp"

namespace polydev {

namespace {

std::string mebibytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// Every string in the table comes from a driver, a variable or a file: names are quoted and cut at
// detail::kQuotedBytes, other fields cut at detail::kQuoteLimit, and reasons and errors (which
// quote their own values) shown on one line, so that no byte of them reaches the terminal raw.
using detail::printable;
using detail::quote;
std::string line(const std::string& text) { return printable(text, std::string::npos); }

// "[run #N]" for the N-th selected device, "[ skip ]" for one not selected.
template <typename Item>
std::string selection_mark(const std::vector<Item>& selected,
                           typename std::vector<Item>::const_iterator found) {
  return found != selected.end() ? "[run #" + std::to_string(found - selected.begin() + 1) + "]"
                                 : std::string("[ skip ]");
}

// After "not selected": ": <reason>" or " by <setting>", as the table has always written it.
std::string cuda_left_out(const Overview& overview, const cuda::DeviceInfo& device) {
  if (const auto left_out = detail::devices_selector_left_out(overview, "cuda", device.key)) {
    return ": " + *left_out;
  }
  return " by " + detail::cuda_setting_words(overview);
}

void write_opencl_table(const Overview& overview, std::ostringstream& out) {
  const opencl::Inventory& inventory = overview.opencl;
  out << "OpenCL: ";
  if (inventory.platforms.empty()) {
    out << "unavailable: " << line(inventory.reason) << '\n';
    return;
  }
  out << (inventory.available ? "available" : "unavailable: " + line(inventory.reason)) << "; "
      << detail::pyopencl_test_words(overview);
  // POLYDEV_DEVICES' error has a line of its own (format_table).
  if (!overview.opencl_error.empty() && overview.opencl_error != overview.devices.error) {
    out << "; selection error: " << line(overview.opencl_error);
  }
  out << '\n';
  const auto& selected = overview.opencl_selection ? overview.opencl_selection->devices
                                                   : std::vector<opencl::DevicePosition>{};
  for (const opencl::PlatformInfo& platform : inventory.platforms) {
    out << "  platform " << platform.index << " " << quote(platform.name) << " ("
        << printable(platform.vendor) << "; " << printable(platform.version) << ")\n";
    if (platform.devices.empty()) out << "    no device: " << line(platform.devices_error) << '\n';
    for (const opencl::DeviceInfo& device : platform.devices) {
      const auto it = std::find(selected.begin(), selected.end(),
                                opencl::DevicePosition{platform.index, device.index});
      out << "    " << selection_mark(selected, it) << ' ' << device.index << " "
          << quote(device.name) << " " << printable(device.type) << ", "
          << printable(device.version) << ", driver " << printable(device.driver_version) << ", "
          << device.compute_units << " CUs, " << mebibytes(device.global_memory_bytes)
          << (device.fp64 ? ", fp64" : "") << "\n             key " << device.key;
      if (it == selected.end())
        out << "; not selected: " << line(detail::opencl_left_out(overview, device));
      out << '\n';
    }
  }
}

void write_cuda_table(const Overview& overview, std::ostringstream& out) {
  const cuda::Inventory& inventory = overview.cuda;
  const std::string setting_text = detail::cuda_setting_words(overview);
  out << "CUDA: ";
  if (!inventory.available) {
    out << "unavailable: " << line(inventory.reason);
  } else {
    out << "available (driver " << inventory.driver_version << ", runtime "
        << inventory.runtime_version << "); " << setting_text;
  }
  if (!overview.cuda_error.empty() && overview.cuda_error != overview.devices.error) {
    out << "; selection error: " << line(overview.cuda_error);
  }
  out << '\n';
  const auto& selected =
      overview.cuda_selection ? overview.cuda_selection->ordinals : std::vector<int>{};
  for (const cuda::DeviceInfo& device : inventory.devices) {
    const auto it = std::find(selected.begin(), selected.end(), device.ordinal);
    out << "    " << selection_mark(selected, it) << ' ' << device.ordinal << " "
        << quote(device.name) << " sm_" << device.compute_capability_major
        << device.compute_capability_minor << ", " << device.multiprocessors << " SMs, "
        << mebibytes(device.total_memory_bytes) << ", " << printable(device.pci_bus_id) << ", "
        << printable(device.uuid) << "\n             key " << device.key;
    if (it == selected.end()) out << "; not selected" << line(cuda_left_out(overview, device));
    out << '\n';
  }
}

}  // namespace

std::string format_table(const Overview& overview) {
  std::ostringstream out;
  write_opencl_table(overview, out);
  write_cuda_table(overview, out);
  if (overview.devices.text) {
    out << "POLYDEV_DEVICES=" << quote(*overview.devices.text);
    if (!overview.devices.error.empty())
      out << "; selection error: " << line(overview.devices.error);
    out << '\n';
  }
  return out.str();
}

}  // namespace polydev
