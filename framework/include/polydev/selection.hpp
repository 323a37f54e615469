#pragma once

/// @file
/// Which devices a process runs on, and why every other device does not: one pure function of the
/// inputs (read once into a value) and the two inventories.
///
/// The inputs are the backend selectors (`PYOPENCL_TEST`, `PYOPENCL_CTX`, `CUDA_DEVICE` and the
/// `~/.cuda_device` files), `POLYDEV_DEVICES`, `POLYDEV_REQUIRE_DEVICES` and CTest's resource
/// allocation, read here, and what a layer above adds to them (`extend_process_inputs`): the test
/// layer's `polydev.yaml` profile, whose variables fill in those the environment leaves unset, its
/// device shard and the devices of the CTest entry that runs the process
/// (polydev/testing/test_inputs.hpp). Nothing here writes the process
/// environment: a profile reaches its readers through `SelectionInputs`.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "polydev/ctest_resources.hpp"
#include "polydev/cuda/inventory.hpp"
#include "polydev/cuda/selection.hpp"
#include "polydev/device.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/overview.hpp"

namespace polydev {

/// One shard of a device-sharded run, for spreading a device suite over several jobs (a CI matrix,
/// the tasks of a Slurm job step): the selected devices, OpenCL then CUDA in selection order, are
/// dealt round-robin (device i goes to shard i mod total), and each shard runs every test on its
/// own devices. The test layer reads it (`POLYDEV_SHARD_BY=device`,
/// polydev/testing/test_inputs.hpp).
struct DeviceShard {
  int index = 0;  ///< this shard, from 0
  int total = 1;  ///< how many shards there are

  /// Whether the device at `position` (0-based over OpenCL then CUDA selections) is this shard's.
  bool takes(std::size_t position) const {
    return position % static_cast<std::size_t>(total) == static_cast<std::size_t>(index);
  }
};

/// What the CTest entry that runs this process runs: the tests that use no device, a placeholder
/// instance, or the instances of the devices it holds. The test layer reads it
/// (`POLYDEV_CTEST_ENTRY`, which `polydev_discover_device_tests` sets for each entry;
/// polydev/testing/test_inputs.hpp).
struct CTestEntry {
  enum class Kind { host, placeholder, devices };
  Kind kind = Kind::host;
  std::string name;               ///< what the entry says: "host", the placeholder, or the keys
  std::vector<std::string> keys;  ///< the devices held (kind `devices`), in order
};

/// Everything that decides the selection, read once.
struct SelectionInputs {
  std::optional<std::string> pyopencl_test;    ///< `PYOPENCL_TEST`
  std::optional<std::string> pyopencl_ctx;     ///< `PYOPENCL_CTX` (default contexts only)
  cuda::DeviceSources cuda_sources;            ///< `CUDA_DEVICE` and the device files
  std::optional<std::string> polydev_devices;  ///< `POLYDEV_DEVICES`
  std::optional<std::string> require_devices;  ///< `POLYDEV_REQUIRE_DEVICES`
  /// Why the defaults of a layer above cannot be known (a `polydev.yaml` that cannot be used):
  /// both selections fail.
  std::string defaults_error;

  /// The device keys CTest allocated to this process; nothing outside CTest's allocation.
  std::optional<std::vector<std::string>> ctest_allocated_keys;
  /// What the CTest entry that runs this process says it runs (a layer's input, see
  /// `CTestEntry`); nothing outside polydev's entries.
  std::optional<CTestEntry> ctest_entry;
  std::optional<DeviceShard> shard;  ///< when the run is split by device (a layer's input)
  /// `POLYDEV_SHARD_BY=device`, even when its shard variables are malformed.
  bool shard_by_device = false;
  /// Malformed CTest allocation or shard variables: every instance fails with it.
  std::string process_error;
};

/// What a layer above the framework adds to this process's selection inputs. The framework reads
/// no configuration file and no test runner's variables; polydev's test layer
/// (polydev/testing/test_inputs.hpp) adds `polydev.yaml`'s profile, the device shard and the CTest
/// entry, in test binaries and in the `polydev` tool alike.
struct ProcessInputsExtension {
  /// Variables that stand in for those the environment leaves unset.
  std::vector<std::pair<std::string, std::string>> defaults;
  /// Why the defaults cannot be known: both selections fail with it.
  std::string defaults_error;
  /// The device shard of this process, read from the environment; nothing when the run is not
  /// split by device. May throw polydev::selection_error: every instance fails with its message.
  std::function<std::optional<DeviceShard>(const EnvironmentLookup& environment)> read_shard;
  /// What the CTest entry that runs this process says it runs; nothing outside such an entry.
  /// May throw polydev::selection_error, as `read_shard`.
  std::function<std::optional<CTestEntry>(const EnvironmentLookup& environment)> read_ctest_entry;
};

/// The inputs from `environment` and `cuda_sources` (the device files; its `cuda_device` is
/// replaced by `CUDA_DEVICE`), extended by `extension`: its defaults stand in for the variables
/// the environment leaves unset (one set even to the empty string wins), its error fails both
/// selections, its shard reader gives the shard. Without an extension, `POLYDEV_PROFILE` or a
/// `POLYDEV_SHARD_BY` other than `test` is an error that says which programs read them. Pure but
/// for `environment`.
SelectionInputs read_selection_inputs(const EnvironmentLookup& environment,
                                      const std::optional<ProcessInputsExtension>& extension,
                                      cuda::DeviceSources cuda_sources);

/// Makes `extension` part of the inputs `process_selection_inputs()` reads. Called by the layer
/// before the process's first selection (a polydev::gtest test binary does when it starts,
/// the `polydev` tool when it starts); `defaults` is called when the inputs are read.
/// @throws polydev::error when the inputs were read already: the selection made then would differ
/// from every later one.
void extend_process_inputs(std::function<ProcessInputsExtension()> extension);

/// `read_selection_inputs` of this process: its environment, the device files under `$HOME` and
/// the extension of `extend_process_inputs`, if any, read on the first call (thread-safe).
const SelectionInputs& process_selection_inputs();

/// Which input keeps a device from running in this process.
enum class LeftOutBy {
  selector,          ///< a backend selector, `POLYDEV_DEVICES`, or an invalid selection
  ctest_allocation,  ///< CTest allocated other devices to this process
  ctest_entry,       ///< the CTest entry that runs this process holds other devices
  shard,             ///< `POLYDEV_SHARD_BY=device` gives the device to another shard
};

/// A device of an inventory that does not run in this process.
struct LeftOutDevice {
  Backend backend = Backend::opencl;
  std::string key;
  LeftOutBy by = LeftOutBy::selector;
  /// In the device table's words: "not named by PYOPENCL_TEST='0:1'", "POLYDEV_DEVICES clause 1
  /// ...", "the selector is invalid", "CTest allocated other devices to this test (a, b)",
  /// "POLYDEV_SHARD_BY=device gives it to shard 1 of 2, and this is shard 0".
  std::string reason;
};

/// `POLYDEV_REQUIRE_DEVICES`, parsed: the backends that must have a device to run on.
struct RequiredBackends {
  bool opencl = false;
  bool cuda = false;
  std::string error;  ///< why the value is malformed; empty when it is not
  bool requires_backend(Backend backend) const {
    return backend == Backend::opencl ? opencl : cuda;
  }
};

/// Parses `POLYDEV_REQUIRE_DEVICES`: backends (`opencl`, `cuda`, any case) separated by ',' or
/// whitespace; unset, empty or blank requires nothing. A malformed value is kept as `error`.
RequiredBackends parse_required_backends(const std::optional<std::string>& text);

/// What a stage of the selection leaves one backend: the devices its tests run on, in run order,
/// or why there are none. Each stage is a pure function from the outcome of the stage before to a
/// new one; none undoes what an earlier stage decided.
struct [[nodiscard]] BackendOutcome {
  enum class Problem {
    none,                 ///< `devices` run
    no_device,            ///< nothing to run on, nothing wrong: the backend's instances skip
    invalid_selection,    ///< a selector, `polydev.yaml`, the driver or the process's inputs are
                          ///< wrong: the instances fail
    invalid_requirement,  ///< `POLYDEV_REQUIRE_DEVICES` is malformed: the instances fail
    required_missing,     ///< `POLYDEV_REQUIRE_DEVICES` requires the backend, which has no device
  };
  std::vector<Device> devices;
  Problem problem = Problem::none;
  std::string message;  ///< the problem in words (empty exactly when `problem` is `none`)
  /// Devices a stage left out of `devices` for this process, with the reason.
  std::vector<LeftOutDevice> left_out;

  /// Whether the backend's instances fail (rather than run or skip).
  bool fails() const { return problem != Problem::none && problem != Problem::no_device; }
};

/// The selection of one process.
struct DeviceSelection {
  /// The inventories and what the selectors (backend selectors, `POLYDEV_DEVICES`, a broken
  /// configuration) choose, before CTest's allocation and device shards: what `polydev devices`
  /// shows and `polydev resource-spec` describes.
  Overview overview;
  /// The keys of the devices `overview` selects, OpenCL then CUDA, each backend in run order (the
  /// order in which device shards deal them).
  std::vector<std::string> selected_keys;

  /// The devices each backend's tests run on in this process, or why there are none: the
  /// outcome of the last stage (backend selectors and `POLYDEV_DEVICES`, CTest's allocation and
  /// entry, the device shard, the process's own inputs, `POLYDEV_REQUIRE_DEVICES`).
  BackendOutcome opencl;
  BackendOutcome cuda;
  std::vector<std::string> warnings;  ///< of the backend selections, OpenCL then CUDA

  /// `opencl` or `cuda`.
  const BackendOutcome& outcome(Backend backend) const {
    return backend == Backend::opencl ? opencl : cuda;
  }

  /// Every device of both inventories that does not run here, in inventory order.
  std::vector<LeftOutDevice> left_out;

  /// The entry of `left_out` with `key`, or null (the device runs, or no device has that key).
  const LeftOutDevice* find_left_out(const std::string& key) const;

  /// The devices of `backend` that the selectors choose (`selected_keys`), in run order, before
  /// CTest and device shards: what suites over device sets are made of, so that every process
  /// numbers a suite's sets alike (`POLYDEV_SHARD_BY=device` deals whole sets by their number).
  std::vector<Device> selected_devices(Backend backend) const;

  /// `selected_devices(backend)` less those that CTest (its allocation, the entry's
  /// `POLYDEV_CTEST_ENTRY`) gives to other processes: a set runs here when it holds only these.
  std::vector<Device> chosen_devices(Backend backend) const;
};

/// The selection for `inputs` on these inventories (pure). A backend not in `enumerated` was not
/// enumerated by this process: its selector is not applied, and its outcome is `no_device`,
/// saying so.
DeviceSelection select_devices(const SelectionInputs& inputs, opencl::Inventory opencl,
                               cuda::Inventory cuda, Backends enumerated = {true, true});

/// `select_devices` with `process_selection_inputs()` and the live inventories of both backends,
/// computed once per process (thread-safe). The `polydev` tool uses it.
const DeviceSelection& process_selection();

/// The device table of this selection (`format_table` of its overview), where a device that the
/// selectors choose but that runs in another process (CTest allocated other devices to this one, or
/// `POLYDEV_SHARD_BY=device` gives it to another shard) is marked `[ skip ]` with "not run here:"
/// and the reason: what the test main prints.
std::string format_table(const DeviceSelection& selection);

/// The backends that the selection of the devices of `wanted` needs enumerated: `wanted`, and the
/// other backend too when its devices take part in choosing: with `POLYDEV_DEVICES` (its clauses
/// and their `max` limits count both backends' devices, and "takes no device" is said of both) or,
/// for CUDA, with `POLYDEV_SHARD_BY=device` (CUDA devices are dealt to shards after the OpenCL
/// devices, so their shards depend on how many OpenCL devices are selected). Pure.
Backends backends_to_enumerate(const SelectionInputs& inputs, Backends wanted);

/// The process's selection of the devices of `wanted`, enumerating only the backends that
/// `backends_to_enumerate` names: a process that runs only OpenCL tests never initializes CUDA, one
/// that runs only CUDA tests never loads an OpenCL driver. A backend not enumerated has an
/// unavailable inventory whose reason says so, no selection, no error and no device; the devices of
/// an enumerated backend are selected exactly as by `process_selection()`. Computed once per set of
/// backends, each inventory enumerated once per process (thread-safe). The fixtures and the test
/// main use it.
const DeviceSelection& process_selection(Backends wanted);

}  // namespace polydev
