#pragma once

/// @file
/// Stable device keys. A key names test instances (`OpenCL/Saxpy.Matches/<key>`), CTest resources
/// and report rows, so it must be the same in every run on the same machine, unique among the
/// machine's devices (even identical boards) and made of `[a-z0-9_]` only.
///
/// Rules:
/// - OpenCL: `opencl_<platform>_<device>_<where>`. `<platform>` is a short vendor word for known
///   platforms ("pocl", "nvidia", "intel", "amd", "apple", "rusticl", "clover") and the slug of the
///   platform name otherwise. `<device>` is the slug of the device name, without a leading repeat
///   of the platform word. `<where>` is `pci_<bus>_<device>` when the driver reports a PCI address,
///   otherwise the device's rank among the devices of its platform with the same `<device>` word
///   (`0`, `1`, ...), which is the driver's enumeration order and stable for a given configuration.
/// - CUDA: `cuda_<device>_<where>`, `<where>` from the PCI address (unaffected by
///   `CUDA_VISIBLE_DEVICES` or `CUDA_DEVICE_ORDER`).
/// If two keys still collide (two ICDs of the same platform), `_p<platform index>` is appended, and
/// where that is not enough (one PCI address reported for two devices), `_d<device index>`.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace polydev {

/// Lower-cases ASCII letters and digits, drops trademark marks ("(R)", "(TM)", "(C)") and turns
/// every run of other characters into one `_`, without leading or trailing `_`. Returns "unnamed"
/// for text with no letter or digit.
std::string slug(std::string_view text);

/// Cuts a slug to at most `max_length` (> 0) characters; a `_` the cut leaves at the end is dropped
/// too, so that the result is still a slug ("intel_xeon_gold" cut to 11 is "intel_xeon").
std::string shorten_slug(std::string slug, std::size_t max_length);

/// Turns a PCI address "dddd:bb:dd.f" (hex, case-insensitive, up to 8 digits a field; bus,
/// device and function within PCI's 8, 5 and 3 bits) into `pci_<bus>_<device>`, with the domain in
/// front and the function at the end when not zero. Returns nothing for text that is not such an
/// address, so that two addresses never give one suffix.
std::optional<std::string> pci_key_suffix(std::string_view pci_bus_id);

/// The short platform word used in OpenCL keys (see the rules above).
std::string opencl_platform_word(std::string_view platform_name);

}  // namespace polydev
