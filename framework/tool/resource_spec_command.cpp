// `polydev resource-spec [--slots N] [--every-device] [--output FILE]`: the CTest resource spec of
// the devices the selectors choose, or of every device of the machine (one resource type per device
// key).
#include <iostream>

#include "commands.hpp"
#include "io/printable.hpp"
#include "io/replace_file.hpp"
#include "polydev/ctest_resources.hpp"
#include "polydev/selection.hpp"

namespace polydev::tool {

namespace {

constexpr const char* kResourceSpecUsage =
    "usage: polydev resource-spec [--slots N] [--every-device] [--output FILE]\n"
    "  writes the CTest resource spec of the selected OpenCL and CUDA devices (PYOPENCL_TEST,\n"
    "  CUDA_DEVICE): one resource type per device key, N slots each (default 1, one test per\n"
    "  device at a time), to FILE or stdout; use it with 'ctest -j J --resource-spec-file FILE'\n"
    "  --every-device: every device of the machine, whatever the selectors choose; a selector\n"
    "  error is then a warning (what CTest entries of polydev_discover_device_tests read, so that\n"
    "  an entry whose device the selection leaves out runs and says why)\n";

}  // namespace

const CommandSyntax kResourceSpecSyntax{
    kResourceSpecUsage,
    {{"--slots", "a number from 1 to 9999"}, {"--every-device"}, {"--output", "a file name"}}};

namespace {

// The keys of every device of both inventories, OpenCL then CUDA, in inventory order.
std::vector<std::string> every_device_key(const Overview& overview) {
  std::vector<std::string> keys;
  for (const auto& platform : overview.opencl.platforms) {
    for (const auto& device : platform.devices) keys.push_back(device.key);
  }
  for (const auto& device : overview.cuda.devices) keys.push_back(device.key);
  return keys;
}

}  // namespace

int resource_spec_command(const ParsedArguments& parsed) {
  unsigned slots = 1;
  if (const auto text = parsed.value("--slots")) {
    if (text->size() > 4 || text->find_first_not_of("0123456789") != text->npos ||
        std::stoul(*text) == 0) {
      return usage_error("resource-spec",
                         "--slots " + detail::quote(*text) + ": expected a number from 1 to 9999",
                         kResourceSpecUsage);
    }
    slots = static_cast<unsigned>(std::stoul(*text));
  }
  const bool every_device = parsed.has("--every-device");
  if (!report_selection_problems()) {
    if (!every_device) return 2;
    std::cerr << "polydev resource-spec: the spec lists every device all the same "
                 "(--every-device); the tests of this selection fail with the message above\n";
  }
  const DeviceSelection& selection = process_selection();
  const std::string spec = ctest_resource_spec(
      every_device ? every_device_key(selection.overview) : selection.selected_keys, slots);
  const std::optional<std::string> output = parsed.value("--output");
  if (!output) {
    std::cout << spec;
    return 0;
  }
  if (const auto problem = detail::replace_file(*output, spec)) {
    std::cerr << "polydev resource-spec: cannot write '" << detail::printable(*output)
              << "': " << *problem << '\n';
    return 1;
  }
  return 0;
}

}  // namespace polydev::tool
