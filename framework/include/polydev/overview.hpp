#pragma once

/// @file
/// What this machine has and what the environment selects, for people (a table) and scripts
/// (JSON). The `polydev devices` command and the test main print it.

#include <optional>
#include <string>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/cuda/selection.hpp"
#include "polydev/devices_selector.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/selection.hpp"

namespace polydev {

/// What `POLYDEV_DEVICES` decided, on top of the backend selectors (devices_selector.hpp).
struct DevicesSelectorOutcome {
  std::optional<std::string> text;          ///< the variable, when set to more than blanks
  std::optional<DevicesSelector> selector;  ///< when the text parsed
  /// The devices the backend selectors chose, OpenCL then CUDA, each in its run order.
  std::vector<Device> candidates;
  std::vector<DeviceVerdict> verdicts;  ///< one per candidate, when the text parsed
  std::string error;  ///< malformed, or takes no device; then also the backends' errors
};

/// Both inventories and the outcome of the selectors. A selector error is kept as text, not
/// thrown, so that the table can still show what exists.
struct Overview {
  opencl::Inventory opencl;
  std::optional<std::string> pyopencl_test;  ///< the selector's text, when set
  /// The devices OpenCL tests run on, in order: what `PYOPENCL_TEST` selects and `POLYDEV_DEVICES`
  /// takes. Empty when either is invalid or `POLYDEV_DEVICES` takes no device at all.
  std::optional<opencl::Selection> opencl_selection;
  std::string opencl_error;  ///< `PYOPENCL_TEST`'s error, else `POLYDEV_DEVICES`', if any
  /// Why `opencl_selection` is empty although `PYOPENCL_TEST` selected devices (`POLYDEV_DEVICES`
  /// took none of them); empty otherwise.
  std::string opencl_none_reason;

  cuda::Inventory cuda;
  cuda::DeviceSources cuda_sources;
  std::optional<cuda::Selection> cuda_selection;  ///< as `opencl_selection`, for CUDA
  std::string cuda_error;
  std::string cuda_none_reason;

  DevicesSelectorOutcome devices;  ///< `POLYDEV_DEVICES`
};

/// Builds the overview from inventories, device-setting sources and `POLYDEV_DEVICES` (pure).
/// A backend not in `enumerated` has no selection and no error: its `*_none_reason` is its
/// inventory's reason (which says why it was not enumerated).
Overview make_overview(opencl::Inventory opencl, std::optional<std::string> pyopencl_test,
                       cuda::Inventory cuda, cuda::DeviceSources cuda_sources,
                       std::optional<std::string> polydev_devices = std::nullopt,
                       Backends enumerated = {true, true});

/// The overview of this process: `process_selection().overview` (selection.hpp).
const Overview& system_overview();

/// Where one device stands in an overview: whether the inventory has it, whether the selection
/// runs it, and if not, why (the words of the device table, e.g. "not named by
/// PYOPENCL_TEST='portable:basic'", or what `POLYDEV_DEVICES` decided).
struct DeviceStanding {
  std::string backend;    ///< "opencl" or "cuda"; empty when no device has the key
  bool selected = false;  ///< the selection runs it
  std::string left_out;   ///< why it is not selected (empty when it is, or does not exist)
};

/// The standing of the device whose stable key is `key` (pure).
DeviceStanding device_standing(const Overview& overview, const std::string& key);

/// A table of every platform and device, each marked selected or not, with the reason.
std::string format_table(const Overview& overview);

/// The `polydev devices --json` document (see README.md for its shape).
std::string format_json(const Overview& overview);

/// `polydev devices --explain`: for every device, what each selector decided about it (the
/// backend selector, then each clause of `POLYDEV_DEVICES`) and whether it runs.
std::string format_explanation(const Overview& overview);

}  // namespace polydev
