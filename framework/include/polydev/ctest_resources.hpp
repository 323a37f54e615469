#pragma once

/// @file
/// CTest resource allocation with one resource type per device: the spec that describes the
/// machine's devices to `ctest --resource-spec-file`, and the devices CTest gave a running test.
///
/// Every device test instance asks CTest for one slot of the resource type named by its device's
/// stable key (see `polydev_discover_device_tests` in `PolydevDeviceTests.cmake`), so
/// `ctest -j N` runs tests of different devices at the same time and never more tests on one
/// device than it has slots.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace polydev {

/// A CTest resource spec (JSON, format version 1.0): for each key a resource type of that name
/// with one resource, id "0", of `slots` slots.
/// @throws polydev::error for `slots` of 0, or a key CTest would not accept as a resource type
/// (it must start with a lowercase letter and hold only `[a-z0-9_]`), or a duplicate key.
std::string ctest_resource_spec(const std::vector<std::string>& device_keys, unsigned slots = 1);

/// Looks up an environment variable (unset: nothing).
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

/// The resource types (device keys) CTest allocated to this process, in group order, from
/// `CTEST_RESOURCE_GROUP_COUNT`, `CTEST_RESOURCE_GROUP_<i>` and `CTEST_RESOURCE_GROUP_<i>_<TYPE>`;
/// nothing when the test does not run under CTest's resource allocation or asked for no resource
/// (CTest then sets a count of 0).
/// @throws polydev::selection_error when the variables are inconsistent (a count that is not a
/// number, a group or its allocation missing), naming the variable.
std::optional<std::vector<std::string>> ctest_allocated_device_keys(
    const EnvironmentLookup& lookup);

/// The same from the process environment.
std::optional<std::vector<std::string>> ctest_allocated_device_keys();

}  // namespace polydev
