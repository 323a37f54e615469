// `polydev devices` and the test main: the overview as a table for people.
#include <algorithm>
#include <optional>
#include <sstream>

#include "io/printable.hpp"
#include "polydev/overview.hpp"
#include "polydev/selection.hpp"
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

// Why a device that the selectors choose does not run in this process (CTest allocated it other
// devices, or a device shard gives it to another shard), when the table is of a process's
// selection; nothing otherwise.
std::optional<std::string> runs_elsewhere(const DeviceSelection* selection,
                                          const std::string& key) {
  if (selection == nullptr) return std::nullopt;
  const LeftOutDevice* left_out = selection->find_left_out(key);
  if (left_out == nullptr || left_out->by == LeftOutBy::selector) return std::nullopt;
  return left_out->reason;
}

// "[run #N]" for the N-th selected device, "[ skip ]" for one not selected or run elsewhere.
template <typename Item>
std::string selection_mark(const std::vector<Item>& selected,
                           typename std::vector<Item>::const_iterator found, bool elsewhere) {
  return found != selected.end() && !elsewhere
             ? "[run #" + std::to_string(found - selected.begin() + 1) + "]"
             : std::string("[ skip ]");
}

// After "not selected": ": <reason>" or " by <setting>", as the table has always written it.
std::string cuda_left_out(const Overview& overview, const cuda::DeviceInfo& device) {
  if (const auto left_out = detail::devices_selector_left_out(overview, "cuda", device.key)) {
    return ": " + *left_out;
  }
  return " by " + detail::cuda_setting_words(overview);
}

void write_opencl_table(const Overview& overview, const DeviceSelection* selection,
                        std::ostringstream& out) {
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
      const auto elsewhere = runs_elsewhere(selection, device.key);
      out << "    " << selection_mark(selected, it, elsewhere.has_value()) << ' ' << device.index
          << " " << quote(device.name) << " " << printable(device.type) << ", "
          << printable(device.version) << ", driver " << printable(device.driver_version) << ", "
          << device.compute_units << " CUs, " << mebibytes(device.global_memory_bytes)
          << (device.fp64 ? ", fp64" : "") << "\n             key " << device.key;
      if (it == selected.end()) {
        out << "; not selected: " << line(detail::opencl_left_out(overview, device));
      } else if (elsewhere) {
        out << "; not run here: " << line(*elsewhere);
      }
      out << '\n';
    }
  }
}

void write_cuda_table(const Overview& overview, const DeviceSelection* selection,
                      std::ostringstream& out) {
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
    const auto elsewhere = runs_elsewhere(selection, device.key);
    out << "    " << selection_mark(selected, it, elsewhere.has_value()) << ' ' << device.ordinal
        << " " << quote(device.name) << " sm_" << device.compute_capability_major
        << device.compute_capability_minor << ", " << device.multiprocessors << " SMs, "
        << mebibytes(device.total_memory_bytes) << ", " << printable(device.pci_bus_id) << ", "
        << printable(device.uuid) << "\n             key " << device.key;
    if (it == selected.end()) {
      out << "; not selected" << line(cuda_left_out(overview, device));
    } else if (elsewhere) {
      out << "; not run here: " << line(*elsewhere);
    }
    out << '\n';
  }
}

// The table of `overview`, marking what runs elsewhere where `selection` is given.
std::string table(const Overview& overview, const DeviceSelection* selection) {
  std::ostringstream out;
  write_opencl_table(overview, selection, out);
  write_cuda_table(overview, selection, out);
  if (overview.devices.text) {
    out << "POLYDEV_DEVICES=" << quote(*overview.devices.text);
    if (!overview.devices.error.empty())
      out << "; selection error: " << line(overview.devices.error);
    out << '\n';
  }
  return out.str();
}

}  // namespace

std::string format_table(const Overview& overview) { return table(overview, nullptr); }

std::string format_table(const DeviceSelection& selection) {
  return table(selection.overview, &selection);
}

}  // namespace polydev
