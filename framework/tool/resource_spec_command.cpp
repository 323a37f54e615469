// `polydev resource-spec [--slots N] [--output FILE]`: the CTest resource spec of the devices the
// selectors choose (one resource type per device key).
#include <iostream>

#include "commands.hpp"
#include "io/printable.hpp"
#include "io/replace_file.hpp"
#include "polydev/ctest_resources.hpp"
#include "polydev/selection.hpp"

namespace polydev::tool {

namespace {

constexpr const char* kResourceSpecUsage =
    "usage: polydev resource-spec [--slots N] [--output FILE]\n"
    "  writes the CTest resource spec of the selected OpenCL and CUDA devices (PYOPENCL_TEST,\n"
    "  CUDA_DEVICE): one resource type per device key, N slots each (default 1, one test per\n"
    "  device at a time), to FILE or stdout; use it with 'ctest -j J --resource-spec-file FILE'\n";

const CommandSyntax kSyntax{kResourceSpecUsage,
                            {{"--slots", "a number from 1 to 9999"}, {"--output", "a file name"}}};

}  // namespace

int resource_spec_command(const Arguments& arguments) {
  const ParsedArguments parsed = parse_arguments(arguments, kSyntax);
  if (parsed.help) {
    std::cout << kResourceSpecUsage;
    return 0;
  }
  unsigned slots = 1;
  if (const auto text = parsed.value("--slots")) {
    if (text->size() > 4 || text->find_first_not_of("0123456789") != text->npos ||
        std::stoul(*text) == 0) {
      return usage_error("resource-spec", "--slots '" + *text + "': expected a number from 1",
                         kResourceSpecUsage);
    }
    slots = static_cast<unsigned>(std::stoul(*text));
  }
  if (!report_selection_problems()) return 2;
  const std::string spec = ctest_resource_spec(process_selection().selected_keys, slots);
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
