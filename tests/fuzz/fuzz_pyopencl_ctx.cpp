// PYOPENCL_CTX (with and without PYOPENCL_TEST) against synthetic inventories.
//
// Input: one byte picks the inventory (see fuzz_support.hpp), one flags byte (bit 0: PYOPENCL_CTX
// is set, bit 1: PYOPENCL_TEST is set; '3' sets both), PYOPENCL_CTX's value up to a NUL byte, then
// PYOPENCL_TEST's value.
//
// Checked on every input: a selection or a selection_error with a message that names the variable
// at fault; selected devices exist and share one platform; a set PYOPENCL_TEST that selects
// devices wins with its first device (and its errors are choose_devices' errors); otherwise a
// platform answer that is an index in range picks that platform, an empty one platform 0, and the
// device answer gives one device per ',' item, in-range indices as written.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "polydev/opencl/selection.hpp"
#include "selection/python_int.hpp"

namespace {

using polydev::opencl::DevicePosition;
using polydev::opencl::Inventory;
using polydev::opencl::Selection;
using polydev_fuzz::require;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

// PyOpenCL's choose_devices takes an int answer only when it is an index in range.
std::optional<std::size_t> index_in_range(const std::string& answer, std::size_t count) {
  const auto value = polydev::detail::parse_python_int(answer);
  if (!value || *value < 0 || static_cast<unsigned long long>(*value) >= count) return std::nullopt;
  return static_cast<std::size_t>(*value);
}

void check_context_answers(const Selection& chosen, const std::string& ctx,
                           const Inventory& inventory) {
  const std::vector<std::string> answers = split(ctx, ':');
  require(answers.size() <= 2, "PYOPENCL_CTX '" + ctx + "' with " + std::to_string(answers.size()) +
                                   " answers succeeded; answers left over must be an error");
  const std::size_t platform = chosen.devices.front().platform;
  if (answers[0].empty()) {
    require(platform == 0, "an empty platform answer must pick platform 0");
  } else if (const auto index = index_in_range(answers[0], inventory.platforms.size())) {
    require(platform == *index,
            "platform answer '" + answers[0] + "' must pick platform " + std::to_string(*index));
  }
  if (answers.size() < 2 || answers[1].empty()) {
    require(chosen.devices.size() == 1 && chosen.devices.front().device == 0,
            "without a device answer the platform's first device must be chosen");
    return;
  }
  const std::vector<std::string> items = split(answers[1], ',');
  require(chosen.devices.size() == items.size(),
          "device answer '" + answers[1] + "' has " + std::to_string(items.size()) +
              " items but chose " + std::to_string(chosen.devices.size()) + " devices");
  const std::size_t count = inventory.platforms[platform].devices.size();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (const auto index = index_in_range(items[i], count)) {
      require(chosen.devices[i].device == *index,
              "device item '" + items[i] + "' must pick device " + std::to_string(*index));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  polydev_fuzz::Input input(data, size);
  const Inventory& inventory = polydev_fuzz::opencl_inventory(input);
  const unsigned flags = input.flags();
  const std::string ctx_text = input.field();
  const std::string test_text = input.rest();
  const std::optional<std::string> ctx =
      (flags & 1u) ? std::optional<std::string>(ctx_text) : std::nullopt;
  const std::optional<std::string> test =
      (flags & 2u) ? std::optional<std::string>(test_text) : std::nullopt;

  std::string message;
  const auto chosen = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] { return polydev::opencl::choose_devices(ctx, test, inventory); }, "choose_devices",
      &message);
  require(chosen || message.rfind("PYOPENCL_CTX", 0) == 0 || message.rfind("PYOPENCL_TEST", 0) == 0,
          "a choose_devices error does not start by naming its variable: " + message);
  if (chosen) {
    polydev_fuzz::check_warnings(chosen->warnings, "choose_devices");
    require(!chosen->devices.empty(), "choose_devices chose nothing without an error");
    for (const DevicePosition& position : chosen->devices) {
      require(polydev_fuzz::exists(inventory, position),
              "chosen device " + polydev_fuzz::describe(position) + " is not in the inventory");
      require(position.platform == chosen->devices.front().platform,
              "choose_devices chose devices of two platforms");
    }
  }

  if (test) {
    std::string test_message;
    const auto tests = polydev_fuzz::result_or_rejection<polydev::selection_error>(
        [&] { return polydev::opencl::select_test_devices(test, inventory); },
        "select_test_devices", &test_message);
    if (!tests) {
      require(!chosen && message == test_message,
              "a PYOPENCL_TEST error must be choose_devices' error");
      return 0;
    }
    if (!tests->devices.empty()) {
      require(chosen && chosen->devices.size() == 1 &&
                  chosen->devices.front() == tests->devices.front(),
              "a set PYOPENCL_TEST must win with its first device");
      return 0;
    }
  }
  if (chosen) check_context_answers(*chosen, ctx.value_or(""), inventory);
  return 0;
}
