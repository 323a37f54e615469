#pragma once

/// @file
/// CUDA device selection as pure functions: `CUDA_DEVICE`, then `~/.cuda_device`, then
/// `~/.cuda-device`.
///
/// PyCUDA documents `~/.cuda-device` but reads `~/.cuda_device`. polydev reads both; the underscore
/// file wins, so that a machine configured for PyCUDA selects the same device here. When both exist
/// and disagree, a warning says which one was used.

#include <optional>
#include <string>
#include <vector>

#include "polydev/cuda/inventory.hpp"

namespace polydev::cuda {

/// One device setting and where it came from.
struct DeviceSetting {
  std::string source;  ///< "CUDA_DEVICE" or the file's path
  std::string value;   ///< the variable's value, or the file's contents without surrounding space
};

/// Everything that can name a CUDA device, as read from the environment and the home directory.
struct DeviceSources {
  std::optional<std::string> cuda_device;        ///< `CUDA_DEVICE`
  std::optional<DeviceSetting> underscore_file;  ///< `$HOME/.cuda_device` (what PyCUDA reads)
  std::optional<DeviceSetting> hyphen_file;      ///< `$HOME/.cuda-device` (what PyCUDA documents)
  /// Device files that exist but are no readable regular file (a directory, a FIFO, a device, a
  /// dangling link, over the size limit): "<path>: <what it is>". Selection fails on them unless
  /// `CUDA_DEVICE` is set.
  std::vector<std::string> unreadable_files;
};

/// Reads `CUDA_DEVICE` and the two files under `$HOME` (regular files only, at most 4 KiB; a
/// missing file is no setting, any other file that cannot be read is in `unreadable_files`).
DeviceSources read_device_sources();

/// The setting that applies, by precedence; a warning is appended when both files exist and differ.
std::optional<DeviceSetting> effective_setting(const DeviceSources& sources,
                                               std::vector<std::string>* warnings = nullptr);

/// Devices for test parametrization, in the order tests run.
struct Selection {
  std::vector<int> ordinals;
  std::vector<std::string> warnings;
  std::optional<DeviceSetting> setting;  ///< what selected them; empty when all devices run
};

/// The setting as one ordinal or a `,` list of ordinals (each once; a repeat warns), or every
/// device when nothing is set. A value that is not a list of integers, an ordinal out of range, a
/// setting present while CUDA has no device, or an unreadable device file (without `CUDA_DEVICE`)
/// throws `polydev::selection_error` naming the source and the valid range.
Selection select_test_devices(const DeviceSources& sources, const Inventory& inventory);

/// `make_default_context`'s reading of the setting: one ordinal, or nothing when no setting exists
/// (then every device is tried in order). @throws polydev::selection_error as above, and for a
/// list of several ordinals.
std::optional<int> default_ordinal(const DeviceSources& sources, const Inventory& inventory);

}  // namespace polydev::cuda
