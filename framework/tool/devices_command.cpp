// `polydev devices [--json]`: the inventory and what the selectors choose.
#include <iostream>

#include "commands.hpp"
#include "polydev/overview.hpp"

namespace polydev::tool {

namespace {

constexpr const char* kDevicesUsage =
    "usage: polydev devices [--json]\n"
    "  lists every OpenCL platform and device and every CUDA device, marking the ones that\n"
    "  PYOPENCL_TEST and CUDA_DEVICE (or ~/.cuda_device) select; --json for scripts\n";

}  // namespace

bool report_selection_problems() {
  const Overview& overview = system_overview();
  const auto print_warnings = [](const std::vector<std::string>& warnings) {
    for (const std::string& warning : warnings)
      std::cerr << "polydev: warning: " << warning << '\n';
  };
  if (overview.opencl_selection) print_warnings(overview.opencl_selection->warnings);
  if (overview.cuda_selection) print_warnings(overview.cuda_selection->warnings);
  if (!overview.opencl_error.empty()) std::cerr << "polydev: " << overview.opencl_error << '\n';
  if (!overview.cuda_error.empty()) std::cerr << "polydev: " << overview.cuda_error << '\n';
  return overview.opencl_error.empty() && overview.cuda_error.empty();
}

int devices_command(const Arguments& arguments) {
  bool json = false;
  for (const std::string& argument : arguments) {
    if (argument == "--json") {
      json = true;
    } else {
      return usage_error("devices", "unknown option '" + argument + "'", kDevicesUsage);
    }
  }
  if (!report_selection_problems()) return 2;
  const Overview& overview = system_overview();
  std::cout << (json ? format_json(overview) : format_table(overview));
  return 0;
}

}  // namespace polydev::tool
