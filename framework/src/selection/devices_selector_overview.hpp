#pragma once

// POLYDEV_DEVICES inside the overview: applying it on top of the backend selections, and the words
// the device table and --explain use for what it decided.

#include <optional>
#include <string>

#include "polydev/overview.hpp"

namespace polydev::detail {

/// Narrows `overview`'s OpenCL and CUDA selections to the devices `text` takes (nothing happens
/// when it is unset or blank); records the candidates, verdicts and error in `overview.devices`.
/// A malformed text, or one that takes no device, becomes the error of each backend that has no
/// error of its own.
void apply_devices_selector(Overview& overview, std::optional<std::string> text);

/// The index in `devices.candidates` of the device of `backend` with `key`; nothing when the
/// backend selector did not choose it.
std::optional<std::size_t> devices_selector_candidate(const DevicesSelectorOutcome& devices,
                                                      const std::string& backend,
                                                      const std::string& key);

/// Why `POLYDEV_DEVICES` keeps the device of `backend` ("opencl", "cuda") with `key` from running,
/// for the device table; nothing when it is not the reason.
std::optional<std::string> devices_selector_left_out(const Overview& overview,
                                                     const std::string& backend,
                                                     const std::string& key);

}  // namespace polydev::detail
