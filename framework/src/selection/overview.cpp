// The overview's model: both inventories, what the backend selectors and POLYDEV_DEVICES choose,
// and where each device stands. Its formats live in format_table.cpp, format_json.cpp and
// format_explanation.cpp.
#include "polydev/overview.hpp"

#include <algorithm>

#include "io/printable.hpp"
#include "polydev/error.hpp"
#include "polydev/selection.hpp"
#include "selection/devices_selector_overview.hpp"
#include "selection/overview_words.hpp"

namespace polydev {

Overview make_overview(opencl::Inventory opencl, std::optional<std::string> pyopencl_test,
                       cuda::Inventory cuda, cuda::DeviceSources cuda_sources,
                       std::optional<std::string> polydev_devices, Backends enumerated) {
  Overview overview;
  overview.opencl = std::move(opencl);
  overview.pyopencl_test = std::move(pyopencl_test);
  overview.cuda = std::move(cuda);
  overview.cuda_sources = std::move(cuda_sources);
  // A driver that failed while listing is broken, not empty: selecting from what it did list
  // would skip or run a part of the machine as if that were all of it.
  if (!enumerated.opencl) {
    overview.opencl_none_reason = overview.opencl.reason;
  } else if (!overview.opencl.failure.empty()) {
    overview.opencl_error = "the OpenCL backend is broken: " + overview.opencl.failure;
  } else {
    try {
      overview.opencl_selection =
          opencl::select_test_devices(overview.pyopencl_test, overview.opencl);
    } catch (const selection_error& failure) {
      overview.opencl_error = failure.what();
    }
  }
  if (!enumerated.cuda) {
    overview.cuda_none_reason = overview.cuda.reason;
  } else {
    try {
      overview.cuda_selection = cuda::select_test_devices(overview.cuda_sources, overview.cuda);
    } catch (const selection_error& failure) {
      overview.cuda_error = failure.what();
    }
  }
  detail::apply_devices_selector(overview, std::move(polydev_devices));
  return overview;
}

const Overview& system_overview() { return process_selection().overview; }

namespace detail {

std::string pyopencl_test_words(const Overview& overview) {
  return overview.pyopencl_test && !overview.pyopencl_test->empty()
             ? "PYOPENCL_TEST=" + quote(*overview.pyopencl_test)
             : "PYOPENCL_TEST unset";
}

std::string cuda_setting_words(const Overview& overview) {
  const auto setting = cuda::effective_setting(overview.cuda_sources);
  return setting ? printable(setting->source) + "=" + quote(setting->value) : "CUDA_DEVICE unset";
}

std::string opencl_left_out(const Overview& overview, const opencl::DeviceInfo& device) {
  if (const auto left_out = devices_selector_left_out(overview, "opencl", device.key)) {
    return *left_out;
  }
  return overview.opencl_error.empty() ? "not named by " + pyopencl_test_words(overview)
                                       : std::string("the selector is invalid");
}

}  // namespace detail

DeviceStanding device_standing(const Overview& overview, const std::string& key) {
  DeviceStanding standing;
  for (const opencl::PlatformInfo& platform : overview.opencl.platforms) {
    for (const opencl::DeviceInfo& device : platform.devices) {
      if (device.key != key) continue;
      standing.backend = "opencl";
      const opencl::DevicePosition position{platform.index, device.index};
      const auto& selected = overview.opencl_selection ? overview.opencl_selection->devices
                                                       : std::vector<opencl::DevicePosition>{};
      standing.selected = std::find(selected.begin(), selected.end(), position) != selected.end();
      if (!standing.selected) standing.left_out = detail::opencl_left_out(overview, device);
      return standing;
    }
  }
  for (const cuda::DeviceInfo& device : overview.cuda.devices) {
    if (device.key != key) continue;
    standing.backend = "cuda";
    const auto& selected =
        overview.cuda_selection ? overview.cuda_selection->ordinals : std::vector<int>{};
    standing.selected =
        std::find(selected.begin(), selected.end(), device.ordinal) != selected.end();
    if (!standing.selected) {
      const auto left_out = detail::devices_selector_left_out(overview, "cuda", device.key);
      standing.left_out = left_out ? *left_out
                          : overview.cuda_error.empty()
                              ? "not named by " + detail::cuda_setting_words(overview)
                              : std::string("the selector is invalid");
    }
    return standing;
  }
  return standing;
}

}  // namespace polydev
