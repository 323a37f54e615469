#pragma once

/// @file
/// Device characterization: the counterpart of `pyopencl.characterize`, with the same function
/// names and, for the same device, the same answers.
///
/// The rules are pure functions of `DeviceFacts`, a plain value holding what the driver reports
/// (names, vendors, versions, type, extensions, local memory, SVM bits, NVIDIA attributes) and
/// the results of the two kernel probes some rules need. They can therefore be checked on any
/// synthetic device; `polydev/opencl/characterize_device.hpp` fills the facts from a real
/// `cl::Device` and offers the same functions over a device.
///
/// Where polydev differs from PyOpenCL (docs/characterization.md has the full list):
/// - the AMD test of `get_simd_group_size` matches the word "ATI", not the letters "ati" anywhere,
///   so Intel ("Intel(R) Corporation") GPUs no longer take the AMD branch: they get `nullopt`;
/// - an unparsable PoCL version is a note and `fallback`, and the SVM queries then fall back to
///   the platform's OpenCL version instead of failing with a type error;
/// - `why_not_local_access_conflict_free` answers (1, no conflict) when only one work item
///   accesses local memory at a time, without asking for a bank count (which PyOpenCL does, and
///   which fails on cache-based CPUs);
/// - what PyOpenCL says in a `CLCharacterizationWarning` is returned in `notes`, never printed.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "polydev/opencl/inventory.hpp"

namespace polydev::opencl {

/// A (major, minor) pair: an NVIDIA compute capability, a PoCL release or an OpenCL version.
struct Version {
  int major = 0;
  int minor = 0;

  friend bool operator==(Version a, Version b) { return a.major == b.major && a.minor == b.minor; }
  friend bool operator!=(Version a, Version b) { return !(a == b); }
  friend bool operator<(Version a, Version b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  }
  friend bool operator<=(Version a, Version b) { return !(b < a); }
  friend bool operator>(Version a, Version b) { return b < a; }
  friend bool operator>=(Version a, Version b) { return !(a < b); }
};

/// "major.minor".
std::string to_string(Version version);

/// `CL_DEVICE_LOCAL_MEM_TYPE`: dedicated local memory, or local memory carved out of global
/// memory (CPUs, whose "local" memory is cached global memory).
enum class LocalMemoryType { none, local, global };

/// What the characterization rules look at, as plain values.
struct DeviceFacts {
  /// Names, vendors, versions, type, extensions, local memory size and SVM bits of the device and
  /// its platform (as the inventory describes them).
  DeviceDescriptor descriptor;
  LocalMemoryType local_memory_type = LocalMemoryType::local;  ///< `CL_DEVICE_LOCAL_MEM_TYPE`
  bool image_support = false;                                  ///< `CL_DEVICE_IMAGE_SUPPORT`
  /// `CL_DEVICE_COMPUTE_CAPABILITY_{MAJOR,MINOR}_NV` when the driver answers both
  /// (`cl_nv_device_attribute_query`, NVIDIA's own OpenCL driver).
  std::optional<Version> compute_capability_nv;
  std::optional<std::size_t> warp_size_nv;  ///< `CL_DEVICE_WARP_SIZE_NV`, same condition
  /// Kernel probe: `CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE` of a trivial kernel built for the
  /// device. Needed by `reasonable_work_group_size_multiple` when `warp_size_nv` is absent.
  std::optional<std::size_t> kernel_work_group_size_multiple;
  /// Kernel probe: whether a kernel taking one struct of two `long`s reports two arguments
  /// (https://github.com/pocl/pocl/issues/197). Needed by `has_struct_arg_count_bug` only on PoCL
  /// 0.14 (or an unparsable PoCL version, which PyOpenCL takes as 0.14).
  std::optional<bool> struct_arg_count_probe;
};

/// A value together with what PyOpenCL would have said about it in a `CLCharacterizationWarning`
/// (typically: the value is a guess). polydev never prints these; callers decide.
template <typename T>
struct Noted {
  T value;
  std::vector<std::string> notes;
};

/// Whether the space-separated extension list `extensions` contains exactly the token `name`.
bool has_extension(std::string_view extensions, std::string_view name);

/// The version of an "OpenCL <major>.<minor> <anything>" string (the format OpenCL prescribes for
/// `CL_PLATFORM_VERSION` and `CL_DEVICE_VERSION`); `nullopt` for anything else.
std::optional<Version> parse_opencl_version(std::string_view text);

/// `cl_khr_fp64` is one of the device's extensions (an exact token, as PyOpenCL checks).
bool has_double_support(const DeviceFacts& facts);

/// `cl_amd_fp64` (AMD's partial double support on low-end boards) is one of the extensions.
bool has_amd_double_support(const DeviceFacts& facts);

/// The compute capability that NVIDIA's driver reports, or `nullopt` on any other device.
std::optional<Version> nv_compute_capability(const DeviceFacts& facts);

/// A work-group size multiple that runs well: `warp_size_nv` when known, else the preferred
/// multiple of a trivial kernel (`kernel_work_group_size_multiple`).
/// @throws polydev::error when neither fact is present (fill the probe first).
std::size_t reasonable_work_group_size_multiple(const DeviceFacts& facts);

/// Local memory a kernel can use: `CL_DEVICE_LOCAL_MEM_SIZE`, less what pre-Fermi NVIDIA GPUs
/// (compute capability < 2.0) spend on passing arguments: 4 bytes per 32-bit argument when
/// `nargs` is given, else 256 bytes (the most arguments can take).
/// @throws polydev::error when `nargs` arguments would not fit in local memory at all.
std::uint64_t usable_local_mem_size(const DeviceFacts& facts,
                                    std::optional<std::uint64_t> nargs = std::nullopt);

/// How many work items access local memory at the same time (and may conflict): 16 before NVIDIA
/// compute capability 2.0, 32 from it, 1 on CPUs, 16 on other GPUs and devices. Every value but
/// NVIDIA < 3.0 and CPU is a guess, said in a note.
Noted<unsigned> simultaneous_work_items_on_local_access(const DeviceFacts& facts);

/// Bytes per local memory bank: always 4.
unsigned local_memory_access_granularity(const DeviceFacts& facts);

/// Number of local memory banks: 16 before NVIDIA compute capability 2.0, 32 from it, 16 (a guess,
/// said in a note) on other devices.
/// @throws polydev::error on a CPU whose local memory is cache-based (`LocalMemoryType::global`):
/// it has no banks.
Noted<unsigned> local_memory_bank_count(const DeviceFacts& facts);

/// The answer of `why_not_local_access_conflict_free`.
struct LocalAccessConflicts {
  std::size_t multiplicity = 1;  ///< most work items that access one bank at the same time
  /// "<n>x conflict on axis <a> (from right, 0-based): w.item 0 -> [0, 0], ... access bank <b>";
  /// `nullopt` when there is no conflict.
  std::optional<std::string> explanation;
  std::vector<std::string> notes;  ///< guesses behind the answer and an itemsize other than 4
};

/// Bank conflicts when the work items that access local memory together each read one element
/// of a C-ordered array (`array_shape`, fastest axis last, stored with the extents
/// `array_stored_shape`, default `array_shape`), consecutive work items walking along one axis.
/// Every axis is tried; the worst conflict is reported (ties: the greatest explanation, as
/// PyOpenCL's `max` of tuples picks).
/// With one work item at a time (CPUs) the answer is (1, no conflict) without asking for a bank
/// count, which a cache-based CPU does not have.
/// @throws polydev::error for an itemsize of 0, shapes of different ranks, an extent of 0, or a
/// stored extent smaller than the logical one.
LocalAccessConflicts why_not_local_access_conflict_free(
    const DeviceFacts& facts, std::size_t itemsize, const std::vector<std::size_t>& array_shape,
    const std::vector<std::size_t>& array_stored_shape = {});

/// Build options for fast but possibly inaccurate floating point: `-cl-mad-enable`,
/// `-cl-fast-relaxed-math`, `-cl-no-signed-zeros`, and `-cl-strict-aliasing` when the device
/// vendor starts with "Advanced Micro" or "NVIDIA".
std::vector<std::string> get_fast_inaccurate_build_options(const DeviceFacts& facts);

/// How many work items run in SIMD lanes together (a warp, a wavefront): `warp_size_nv` when
/// known; 32 on NVIDIA; on AMD ("Advanced Micro" or the word "ATI" in the platform or device
/// vendor) the kernel probe's multiple on GPUs and 1 on CPUs; 1 on any other CPU; `nullopt` (not
/// known) otherwise. PyOpenCL's `type_size` argument is used by no rule, so there is none here.
/// @throws polydev::error for an AMD device that is neither a CPU nor a GPU (as PyOpenCL does), or
/// an AMD GPU whose facts lack the kernel probe.
std::optional<std::size_t> get_simd_group_size(const DeviceFacts& facts);

/// The PoCL release of a "Portable Computing Language" platform, from a version string such as
/// "OpenCL 3.0 PoCL 3.1+debian ..."; `nullopt` for any other platform. A PoCL version string of
/// another format gives `fallback` and a note.
Noted<std::optional<Version>> get_pocl_version(const PlatformInfo& platform,
                                               std::optional<Version> fallback = std::nullopt);

/// Which known struct-argument counting bug a device has (`has_struct_arg_count_bug`).
enum class StructArgCountBug {
  none,   ///< PyOpenCL's `False`
  apple,  ///< Apple's CPU driver
  pocl,   ///< PoCL up to 0.13, or 0.14 when the kernel probe shows it
};

/// "apple", "pocl", or "" for none.
std::string to_string(StructArgCountBug bug);

/// Apple's platform on a CPU: `apple`. PoCL up to 0.13: `pocl`; PoCL 0.14 (or an unparsable
/// version, taken as 0.14): `pocl` when the kernel probe reports the bug. Otherwise `none`.
/// @throws polydev::error when the answer needs the probe and the facts lack it.
StructArgCountBug has_struct_arg_count_bug(const DeviceFacts& facts);

/// Whether `has_struct_arg_count_bug` needs `DeviceFacts::struct_arg_count_probe`.
bool needs_struct_arg_count_probe(const DeviceFacts& facts);

/// SVM may exist at all: the platform's OpenCL version is at least 2.0, or on PoCL its release is
/// at least 1.0 (polydev's headers are always 2.0 or newer, PyOpenCL's second condition).
bool may_have_svm(const DeviceFacts& facts);

/// `may_have_svm` and the `CL_DEVICE_SVM_COARSE_GRAIN_BUFFER` bit.
bool has_coarse_grain_buffer_svm(const DeviceFacts& facts);
/// `may_have_svm` and the `CL_DEVICE_SVM_FINE_GRAIN_BUFFER` bit.
bool has_fine_grain_buffer_svm(const DeviceFacts& facts);
/// `may_have_svm` and the `CL_DEVICE_SVM_FINE_GRAIN_SYSTEM` bit.
bool has_fine_grain_system_svm(const DeviceFacts& facts);
/// `has_fine_grain_buffer_svm` and the `CL_DEVICE_SVM_ATOMICS` bit.
bool has_fine_grain_buffer_svm_atomics(const DeviceFacts& facts);
/// `has_fine_grain_system_svm` and the `CL_DEVICE_SVM_ATOMICS` bit.
bool has_fine_grain_system_svm_atomics(const DeviceFacts& facts);

/// Whether the driver caches programs built from source itself: `true` on PoCL and on NVIDIA's
/// driver (compute capability known), `false` on "AMD Accelerated Parallel Processing", `nullopt`
/// (not known) elsewhere.
std::optional<bool> has_src_build_cache(const DeviceFacts& facts);

}  // namespace polydev::opencl

#if defined(POLYDEV_WITH_OPENCL)
#include "polydev/opencl/characterize_device.hpp"
#endif
