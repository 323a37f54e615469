// `polydev devices [--json | --explain]`: the inventory and what the selectors choose.
#include <iostream>

#include "commands.hpp"
#include "io/printable.hpp"
#include "polydev/selection.hpp"

namespace polydev::tool {

namespace {

constexpr const char* kDevicesUsage =
    "usage: polydev devices [--json | --explain]\n"
    "  lists every OpenCL platform and device and every CUDA device, marking the ones that the\n"
    "  selectors select: PYOPENCL_TEST, CUDA_DEVICE (or ~/.cuda_device), and POLYDEV_DEVICES on\n"
    "  top of both (docs/selectors.md)\n"
    "  --json     the same for scripts\n"
    "  --explain  for each device, what each selector and each POLYDEV_DEVICES clause decided;\n"
    "             printed also when a selector is wrong (the exit status is then still 2)\n";

const CommandSyntax kSyntax{kDevicesUsage, {{"--json"}, {"--explain"}}};

}  // namespace

bool report_selection_problems() {
  // The selectors' verdict, not CTest's allocation or a device shard: the tool runs outside them.
  const DeviceSelection& selection = process_selection();
  const Overview& overview = selection.overview;
  for (const std::string& warning : selection.warnings) {
    std::cerr << "polydev: warning: " << detail::printable_text(warning) << '\n';
  }
  if (!overview.opencl_error.empty()) {
    std::cerr << "polydev: " << detail::printable_text(overview.opencl_error) << '\n';
  }
  // One error (POLYDEV_DEVICES', a configuration's) may stand for both backends: print it once.
  if (!overview.cuda_error.empty() && overview.cuda_error != overview.opencl_error) {
    std::cerr << "polydev: " << detail::printable_text(overview.cuda_error) << '\n';
  }
  return overview.opencl_error.empty() && overview.cuda_error.empty();
}

int devices_command(const Arguments& arguments) {
  const ParsedArguments parsed = parse_arguments(arguments, kSyntax);
  if (parsed.help) {
    std::cout << kDevicesUsage;
    return 0;
  }
  const bool json = parsed.has("--json");
  const bool explain = parsed.has("--explain");
  if (json && explain) {
    return usage_error("devices", "--json and --explain exclude each other; give one",
                       kDevicesUsage);
  }
  const bool selection_ok = report_selection_problems();
  const Overview& overview = process_selection().overview;
  if (explain) {
    // The explanation is what a person needs when a selector is wrong: print it anyway.
    std::cout << detail::printable_text(format_explanation(overview));
    return selection_ok ? 0 : 2;
  }
  if (!selection_ok) return 2;
  // Driver strings are in the table: shown with their control characters escaped. The JSON
  // writer escapes them itself.
  std::cout << (json ? format_json(overview) : detail::printable_text(format_table(overview)));
  return 0;
}

}  // namespace polydev::tool
