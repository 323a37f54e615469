// PYOPENCL_CTX: the non-interactive rules of PyOpenCL's choose_devices / create_some_context.
#include <algorithm>
#include <cctype>
#include <deque>
#include <string>
#include <string_view>

#include "io/printable.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/selection.hpp"
#include "selection/opencl_listing.hpp"
#include "selection/python_int.hpp"

namespace polydev::opencl {

namespace {

std::deque<std::string> split_answers(const std::string& text, char separator) {
  std::deque<std::string> answers;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    answers.push_back(
        text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return answers;
    start = end + 1;
  }
}

bool contains_ignoring_case(const std::string& haystack, const std::string& needle) {
  const auto it = std::search(
      haystack.begin(), haystack.end(), needle.begin(), needle.end(),
      [](unsigned char a, unsigned char b) { return std::tolower(a) == std::tolower(b); });
  return it != haystack.end();
}

// choose_devices accepts an int only when it is a valid index; otherwise it falls back to a name.
std::optional<std::size_t> index_within(const std::string& answer, std::size_t count) {
  const auto value = polydev::detail::parse_python_int(answer);
  if (!value || *value < 0 || static_cast<unsigned long long>(*value) >= count) return std::nullopt;
  return static_cast<std::size_t>(*value);
}

class ContextChooser {
 public:
  ContextChooser(std::string spec, const Inventory& inventory)
      : spec_(std::move(spec)), inventory_(inventory), answers_(split_answers(spec_, ':')) {}

  Selection choose() {
    if (inventory_.platforms.empty())
      fail("there is no OpenCL platform (" + inventory_.reason + ")");
    const PlatformInfo& platform = inventory_.platforms[choose_platform(next_answer())];
    if (platform.devices.empty()) fail("no devices found: " + detail::list_devices(platform));

    Selection selection;
    if (platform.devices.size() == 1 && answers_.empty()) {
      selection.devices.push_back({platform.index, 0});
    } else {
      for (std::size_t device : choose_devices(platform, next_answer())) {
        selection.devices.push_back({platform.index, device});
      }
    }
    if (!answers_.empty()) {
      std::string left;
      for (const auto& answer : answers_) left += (left.empty() ? "" : ":") + answer;
      fail("not all choices were used (left over: " + polydev::detail::quote(left) +
           "); the syntax is PLATFORM[:DEVICE[,DEVICE...]]");
    }
    return selection;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw selection_error("PYOPENCL_CTX " + polydev::detail::quote(spec_) + ": " + what);
  }

  std::string next_answer() {
    if (answers_.empty()) return {};
    std::string answer = answers_.front();
    answers_.pop_front();
    return answer;
  }

  std::size_t choose_platform(const std::string& answer) const {
    if (answer.empty()) return 0;
    if (auto index = index_within(answer, inventory_.platforms.size())) return *index;
    // PyOpenCL keeps looping after a match, so the last platform whose name matches wins.
    std::optional<std::size_t> found;
    for (const PlatformInfo& platform : inventory_.platforms) {
      if (contains_ignoring_case(platform.name, answer)) found = platform.index;
    }
    if (!found) {
      fail("platform answer " + polydev::detail::quote(answer) +
           " matches no platform (an index 0.." + std::to_string(inventory_.platforms.size() - 1) +
           " or a case-insensitive substring of the platform name); " +
           detail::list_platforms(inventory_));
    }
    return *found;
  }

  std::vector<std::size_t> choose_devices(const PlatformInfo& platform,
                                          const std::string& answer) const {
    if (answer.empty()) return {0};
    std::vector<std::size_t> chosen;
    for (const std::string& item : split_answers(answer, ',')) {
      if (auto index = index_within(item, platform.devices.size())) {
        chosen.push_back(*index);
        continue;
      }
      const auto match = std::find_if(
          platform.devices.begin(), platform.devices.end(),
          [&](const DeviceInfo& device) { return contains_ignoring_case(device.name, item); });
      if (match == platform.devices.end()) {
        fail("device answer " + polydev::detail::quote(item) + " matches no device (an index 0.." +
             std::to_string(platform.devices.size() - 1) +
             " or a case-insensitive substring of the device name); " +
             detail::list_devices(platform));
      }
      chosen.push_back(match->index);
    }
    return chosen;
  }

  std::string spec_;
  const Inventory& inventory_;
  std::deque<std::string> answers_;
};

}  // namespace

Selection choose_devices(const std::optional<std::string>& pyopencl_ctx,
                         const std::optional<std::string>& pyopencl_test,
                         const Inventory& inventory) {
  if (pyopencl_test) {
    Selection tests = select_test_devices(pyopencl_test, inventory);
    if (!tests.devices.empty()) {
      tests.devices.resize(1);
      return tests;
    }
  }
  return ContextChooser(pyopencl_ctx.value_or(""), inventory).choose();
}

}  // namespace polydev::opencl
