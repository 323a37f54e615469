#pragma once

/// @file
/// OpenCL device selection as pure functions over an inventory: `PYOPENCL_TEST` (which devices the
/// tests run on) and `PYOPENCL_CTX` (which device `create_some_context` picks). The grammar and the
/// results are PyOpenCL's; where PyOpenCL is sloppy (a bare IndexError, a silent duplicate, the
/// documented-but-invalid `intel=i5,i7`), polydev raises `polydev::selection_error` naming the
/// entry and listing what exists, or adds a warning.

#include <optional>
#include <string>
#include <vector>

#include "polydev/opencl/inventory.hpp"

namespace polydev::opencl {

/// Devices in the order tests run, each once, and the warnings a person should see.
struct Selection {
  std::vector<DevicePosition> devices;
  std::vector<std::string> warnings;
};

/// `PYOPENCL_TEST` semantics (PyOpenCL's `get_test_platforms_and_devices`).
///
/// Unset or empty: every device of every platform, platforms in ICD order. Otherwise entries
/// separated by `;`, each `PLATFORM` (all its devices) or `PLATFORM:DEVICE[,DEVICE...]`. An
/// identifier that Python's `int()` accepts (spaces, sign, `_` between digits) is an index,
/// negative counting from the end; anything else is a case-insensitive substring of `name + " " +
/// vendor`, the first match winning. Devices keep the order written.
///
/// Stricter than PyOpenCL: an index out of range, an identifier that matches nothing, `=` used in
/// place of `:`, two `:` in one entry, or a set selector that ends up with no device at all throw
/// `selection_error`. Empty identifiers (which PyOpenCL resolves to the first object) and devices
/// listed twice (which then run once) produce warnings.
///
/// @throws polydev::selection_error
Selection select_test_devices(const std::optional<std::string>& pyopencl_test,
                              const Inventory& inventory);

/// `create_some_context` semantics, non-interactive (PyOpenCL's `choose_devices`).
///
/// If `pyopencl_test` is set, even to "", it wins: the first device it selects. Otherwise
/// `pyopencl_ctx` is split on `:` into answers. Platform answer: empty = 0, an index within range,
/// else a case-insensitive substring of the platform *name*, the *last* match winning. Device
/// answer (skipped when the platform has one device and no answer is left): empty = first device,
/// else a
/// `,` list of indices within range or substrings of the device *name*, the first match winning.
/// Answers left over are an error.
///
/// @throws polydev::selection_error
Selection choose_devices(const std::optional<std::string>& pyopencl_ctx,
                         const std::optional<std::string>& pyopencl_test,
                         const Inventory& inventory);

}  // namespace polydev::opencl
