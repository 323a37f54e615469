// PYOPENCL_TEST against synthetic inventories.
//
// Input: one byte picks the inventory (see fuzz_support.hpp), one byte '!' leaves the variable
// unset (anything else sets it), the rest is the variable's value.
//
// Checked on every input: a selection or a selection_error with a message that names
// PYOPENCL_TEST; selected devices exist, each once; unset or empty selects every device in
// inventory order; a set selector never selects nothing; and a spec of several entries selects
// what its entries select one by one, in order, each device once (an entry's own failure fails the
// whole spec, an entry that only selects no device adds nothing; checked up to 32 entries).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "io/printable.hpp"
#include "polydev/opencl/selection.hpp"

namespace {

using polydev::opencl::DevicePosition;
using polydev::opencl::Inventory;
using polydev::opencl::Selection;
using polydev_fuzz::require;

std::optional<Selection> select(const std::optional<std::string>& spec, const Inventory& inventory,
                                std::string* message = nullptr) {
  std::string text;
  auto selection = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] { return polydev::opencl::select_test_devices(spec, inventory); }, "select_test_devices",
      &text);
  require(selection || text.rfind("PYOPENCL_TEST", 0) == 0,
          "a PYOPENCL_TEST error does not start by naming PYOPENCL_TEST: " + text);
  if (message) *message = text;
  return selection;
}

std::vector<DevicePosition> every_device(const Inventory& inventory) {
  std::vector<DevicePosition> all;
  for (const auto& platform : inventory.platforms) {
    for (const auto& device : platform.devices) all.push_back({platform.index, device.index});
  }
  return all;
}

std::vector<std::string> entries_of(const std::string& spec) {
  std::vector<std::string> entries;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = spec.find(';', start);
    entries.push_back(
        spec.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return entries;
    start = end + 1;
  }
}

void check_selection(const Selection& selection, const std::optional<std::string>& spec,
                     const Inventory& inventory) {
  polydev_fuzz::check_warnings(selection.warnings, "select_test_devices");
  for (std::size_t i = 0; i < selection.devices.size(); ++i) {
    const DevicePosition position = selection.devices[i];
    require(polydev_fuzz::exists(inventory, position),
            "selected device " + polydev_fuzz::describe(position) + " is not in the inventory");
    require(std::find(selection.devices.begin(), selection.devices.begin() + i, position) ==
                selection.devices.begin() + i,
            "device " + polydev_fuzz::describe(position) + " is selected twice");
  }
  if (!spec || spec->empty()) {
    require(selection.devices == every_device(inventory),
            "an unset or empty PYOPENCL_TEST must select every device in inventory order");
  } else {
    require(!selection.devices.empty(), "a set PYOPENCL_TEST selected nothing without an error");
  }
}

// The whole spec against its entries one by one.
void check_composition(const std::string& spec, const std::optional<Selection>& whole,
                       const Inventory& inventory) {
  const std::vector<std::string> entries = entries_of(spec);
  // The rule does not depend on the number of entries; parsing hundreds of entries one by one
  // would only slow the fuzzer down (the whole spec is still parsed whatever its length).
  if (entries.size() < 2 || entries.size() > 32) return;
  std::vector<DevicePosition> expected;
  bool an_entry_fails = false;
  for (const std::string& entry : entries) {
    // Inside a longer spec an empty entry is the first platform, which alone is "0".
    const std::string alone = entry.empty() ? "0" : entry;
    std::string message;
    const auto part = select(alone, inventory, &message);
    if (!part) {
      // The message quotes the entry as every message quotes a value (escaped, cut when long).
      if (message.rfind("PYOPENCL_TEST " + polydev::detail::quote(alone) + " selects no device: ",
                        0) != 0) {
        an_entry_fails = true;
      }
      continue;
    }
    for (const DevicePosition& position : part->devices) {
      if (std::find(expected.begin(), expected.end(), position) == expected.end()) {
        expected.push_back(position);
      }
    }
  }
  if (an_entry_fails || expected.empty()) {
    require(!whole, "PYOPENCL_TEST '" + spec + "' succeeded although one of its entries fails");
    return;
  }
  require(whole.has_value(),
          "PYOPENCL_TEST '" + spec + "' failed although each of its entries succeeds");
  require(
      whole->devices == expected,
      "PYOPENCL_TEST '" + spec + "' does not select what its entries select one by one, in order");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  polydev_fuzz::Input input(data, size);
  const Inventory& inventory = polydev_fuzz::opencl_inventory(input);
  const bool unset = input.byte() == '!';
  const std::optional<std::string> spec =
      unset ? std::nullopt : std::optional<std::string>(input.rest());

  const auto whole = select(spec, inventory);
  if (whole) check_selection(*whole, spec, inventory);
  // Pure function: the same text gives the same answer.
  const auto again = select(spec, inventory);
  require(whole.has_value() == again.has_value() && (!whole || whole->devices == again->devices),
          "select_test_devices gave two different answers for one input");
  if (spec) check_composition(*spec, whole, inventory);
  return 0;
}
