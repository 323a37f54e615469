// `polydev devices [--json | --explain | --check]`: the inventory and what the selectors choose, or
// only what is wrong with the selection.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io/printable.hpp"
#include "polydev/detail/environment.hpp"
#include "polydev/selection.hpp"

namespace polydev::tool {

namespace {

constexpr const char* kDevicesUsage =
    "usage: polydev devices [--json | --explain | --check]\n"
    "  lists every OpenCL platform and device and every CUDA device, marking the ones that the\n"
    "  selectors select: PYOPENCL_TEST, CUDA_DEVICE (or ~/.cuda_device), and POLYDEV_DEVICES on\n"
    "  top of both (docs/selectors.md)\n"
    "  --json     the same for scripts\n"
    "  --explain  for each device, what each selector and each POLYDEV_DEVICES clause decided;\n"
    "             printed also when a selector is wrong (the exit status is then still 2),\n"
    "             and the variables that bind this process to some devices (a scheduler's\n"
    "             CUDA_VISIBLE_DEVICES: Slurm's GPU binding)\n"
    "  --check    only what is wrong with the selection, on stderr (nothing when it is right;\n"
    "             exit status 2 when it is wrong); reads the drivers of the backends that an\n"
    "             input selects on only (what CTest runs when it starts)\n";

}  // namespace

const CommandSyntax kDevicesSyntax{kDevicesUsage, {{"--json"}, {"--explain"}, {"--check"}}};

namespace {

// What hides devices from the inventories before any selector: the variables through which a
// scheduler (Slurm's GPU binding, `srun --gpus-per-task`) or a person binds a process to some of
// the machine's devices. Each note names the variable and, under Slurm, the task's own GPUs.
std::string binding_notes() {
  struct Binding {
    const char* variable;
    const char* hides;
  };
  constexpr Binding kBindings[] = {
      {"CUDA_VISIBLE_DEVICES", "every other GPU of the machine from CUDA"},
      {"ROCR_VISIBLE_DEVICES", "every other GPU of the machine from AMD's drivers"},
      {"ZE_AFFINITY_MASK", "every other device of the machine from Intel's drivers"},
      {"GPU_DEVICE_ORDINAL", "every other GPU of the machine from AMD's OpenCL driver"},
  };
  const auto slurm_gpus = polydev::detail::environment_variable("SLURM_STEP_GPUS");
  const auto slurm_job = polydev::detail::environment_variable("SLURM_JOB_ID");
  std::string notes;
  for (const Binding& binding : kBindings) {
    const auto value = polydev::detail::environment_variable(binding.variable);
    if (!value) continue;
    notes += std::string("bound: ") + binding.variable + "=" + detail::quote(*value) + " hides " +
             binding.hides + ": those are in no inventory here, and no selector can choose them";
    if (slurm_job) {
      notes +=
          " (this is Slurm job " + detail::quote(*slurm_job) +
          (slurm_gpus ? ", whose task holds the GPUs SLURM_STEP_GPUS=" + detail::quote(*slurm_gpus)
                      : std::string()) +
          ")";
    }
    notes += '\n';
  }
  return notes;
}

// The backends that an input of this process selects on. Only their drivers can show an input to
// be wrong (a selector that matches no device, a required backend without one), so `--check`
// enumerates these only: without selectors it loads no driver. `PYOPENCL_CTX` chooses default
// contexts, not the tests' devices, and CTest's allocation and device shards do not reach the
// tool.
Backends backends_selected_on(const SelectionInputs& inputs) {
  const bool both = inputs.polydev_devices.has_value() || !inputs.defaults_error.empty();
  const RequiredBackends required = parse_required_backends(inputs.require_devices);
  const bool malformed_requirement = !required.error.empty();
  const cuda::DeviceSources& cuda = inputs.cuda_sources;
  const bool cuda_named = cuda.cuda_device.has_value() || cuda.underscore_file.has_value() ||
                          cuda.hyphen_file.has_value() || !cuda.unreadable_files.empty();
  return Backends{
      both || malformed_requirement || required.opencl || inputs.pyopencl_test.has_value(),
      both || malformed_requirement || required.cuda || cuda_named};
}

// Prints the selection's warnings, then each of its problems once: the backends' errors (one, of
// POLYDEV_DEVICES or a configuration, may stand for both), a malformed POLYDEV_REQUIRE_DEVICES
// (an input as wrong as a malformed selector: every instance fails with it) and, with
// `failing_outcomes`, what else fails the instances (an unmet requirement). Whether there was
// none.
bool report_problems_of(const DeviceSelection& selection, bool failing_outcomes) {
  for (const std::string& warning : selection.warnings) {
    std::cerr << "polydev: warning: " << detail::printable_text(warning) << '\n';
  }
  std::vector<std::string> problems = {selection.overview.opencl_error,
                                       selection.overview.cuda_error};
  for (const Backend backend : {Backend::opencl, Backend::cuda}) {
    const BackendOutcome& outcome = selection.outcome(backend);
    const bool malformed = outcome.problem == BackendOutcome::Problem::invalid_requirement;
    if ((failing_outcomes && outcome.fails()) || malformed) problems.push_back(outcome.message);
  }
  std::vector<std::string> said;
  for (const std::string& problem : problems) {
    if (problem.empty() || std::find(said.begin(), said.end(), problem) != said.end()) continue;
    std::cerr << "polydev: " << detail::printable_text(problem) << '\n';
    said.push_back(problem);
  }
  return said.empty();
}

}  // namespace

bool report_selection_problems() {
  // The selectors' verdict, not CTest's allocation or a device shard: the tool runs outside them.
  return report_problems_of(process_selection(), false);
}

int devices_command(const ParsedArguments& parsed) {
  const bool json = parsed.has("--json");
  const bool explain = parsed.has("--explain");
  const bool check = parsed.has("--check");
  if (int{json} + int{explain} + int{check} > 1) {
    return usage_error("devices", "--json, --explain and --check exclude each other; give one",
                       kDevicesUsage);
  }
  if (check) {
    const Backends selected_on = backends_selected_on(process_selection_inputs());
    return report_problems_of(process_selection(selected_on), true) ? 0 : 2;
  }
  const bool selection_ok = report_selection_problems();
  const Overview& overview = process_selection().overview;
  if (explain) {
    // The explanation is what a person needs when a selector is wrong: print it anyway.
    std::cout << detail::printable_text(format_explanation(overview) + binding_notes());
    return selection_ok ? 0 : 2;
  }
  if (!selection_ok) return 2;
  // Driver strings are in the table: shown with their control characters escaped. The JSON
  // writer escapes them itself.
  std::cout << (json ? format_json(overview) : detail::printable_text(format_table(overview)));
  return 0;
}

}  // namespace polydev::tool
