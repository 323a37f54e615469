// The `polydev` command-line tool.
#include <cstring>
#include <iostream>
#include <string>

#include "polydev/overview.hpp"

namespace {

constexpr const char* kUsage =
    "usage: polydev devices [--json]\n"
    "\n"
    "  devices         list every OpenCL platform and device and every CUDA device, marking the\n"
    "                  ones that PYOPENCL_TEST and CUDA_DEVICE (or ~/.cuda_device) select\n"
    "  devices --json  the same as JSON, for scripts\n"
    "\n"
    "Exit status: 0 on success, 2 for a malformed or non-matching selector or bad usage.\n";

int usage_error(const std::string& message) {
  std::cerr << "polydev: " << message << "\n\n" << kUsage;
  return 2;
}

int devices(bool json) {
  const polydev::Overview& overview = polydev::system_overview();
  const auto print_warnings = [](const std::vector<std::string>& warnings) {
    for (const std::string& warning : warnings)
      std::cerr << "polydev: warning: " << warning << '\n';
  };
  if (overview.opencl_selection) print_warnings(overview.opencl_selection->warnings);
  if (overview.cuda_selection) print_warnings(overview.cuda_selection->warnings);
  // A selector that is wrong must not look like a usable listing to a script.
  if (!overview.opencl_error.empty() || !overview.cuda_error.empty()) {
    if (!overview.opencl_error.empty()) std::cerr << "polydev: " << overview.opencl_error << '\n';
    if (!overview.cuda_error.empty()) std::cerr << "polydev: " << overview.cuda_error << '\n';
    return 2;
  }
  std::cout << (json ? polydev::format_json(overview) : polydev::format_table(overview));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage_error("no command given");
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command != "devices") return usage_error("unknown command '" + command + "'");
  bool json = false;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else {
      return usage_error("unknown option '" + std::string(argv[i]) + "' for 'devices'");
    }
  }
  try {
    return devices(json);
  } catch (const std::exception& failure) {
    std::cerr << "polydev: " << failure.what() << '\n';
    return 1;
  }
}
