#pragma once

/// @file
/// Characterization of a real device: the facts read from the driver, the two kernel probes, and
/// the functions of `polydev/opencl/characterize.hpp` over a `cl::Device`. Needs the OpenCL
/// backend (`POLYDEV_WITH_OPENCL`); included by `characterize.hpp` when it is built.

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "polydev/opencl/characterize.hpp"

namespace polydev::opencl {

/// The facts the driver reports for `device` and its platform, without the kernel probes (no
/// program is built). NVIDIA's attributes are asked for on every device, as PyOpenCL does; a
/// driver that refuses them leaves them empty. @throws polydev::backend_error when the device's
/// own name, type or platform cannot be read.
DeviceFacts query_device_facts(const cl::Device& device);

/// The facts with the kernel probes that the rules need for this device (none on most devices;
/// the work-group multiple probe when there is no `CL_DEVICE_WARP_SIZE_NV`; the struct-argument
/// probe on PoCL 0.14). Probes build in `context` when given (it must contain `device`; they are
/// built for all of its devices), else in a new context on `device` alone, through
/// `build_program_once`: from the process's binary cache after the first build on a kind of device.
/// @throws polydev::backend_error when a probe cannot be built or queried.
/// @throws polydev::error when `POLYDEV_NO_CACHE` is invalid (see binary_cache.hpp).
DeviceFacts query_device_facts_with_probes(const cl::Device& device,
                                           const cl::Context* context = nullptr);

/// Kernel probe: `CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE` of a one-argument kernel built for
/// `device` (in `context`, else a new context). @throws polydev::backend_error
std::size_t kernel_preferred_work_group_size_multiple(const cl::Device& device,
                                                      const cl::Context* context = nullptr);

/// Kernel probe: builds a kernel taking one struct of two `long`s and tells whether the driver
/// reports two arguments for it (https://github.com/pocl/pocl/issues/197). @throws
/// polydev::backend_error
bool struct_arg_count_probe(const cl::Device& device, const cl::Context* context = nullptr);

/// The functions of `characterize.hpp` on a live device (each reads the facts it needs).
bool has_double_support(const cl::Device& device);
bool has_amd_double_support(const cl::Device& device);
std::optional<Version> nv_compute_capability(const cl::Device& device);
std::size_t reasonable_work_group_size_multiple(const cl::Device& device,
                                                const cl::Context* context = nullptr);
std::uint64_t usable_local_mem_size(const cl::Device& device,
                                    std::optional<std::uint64_t> nargs = std::nullopt);
Noted<unsigned> simultaneous_work_items_on_local_access(const cl::Device& device);
unsigned local_memory_access_granularity(const cl::Device& device);
Noted<unsigned> local_memory_bank_count(const cl::Device& device);
LocalAccessConflicts why_not_local_access_conflict_free(
    const cl::Device& device, std::size_t itemsize, const std::vector<std::size_t>& array_shape,
    const std::vector<std::size_t>& array_stored_shape = {});
std::vector<std::string> get_fast_inaccurate_build_options(const cl::Device& device);
std::optional<std::size_t> get_simd_group_size(const cl::Device& device);
Noted<std::optional<Version>> get_pocl_version(const cl::Platform& platform,
                                               std::optional<Version> fallback = std::nullopt);
StructArgCountBug has_struct_arg_count_bug(const cl::Device& device,
                                           const cl::Context* context = nullptr);
bool has_coarse_grain_buffer_svm(const cl::Device& device);
bool has_fine_grain_buffer_svm(const cl::Device& device);
bool has_fine_grain_system_svm(const cl::Device& device);
bool has_fine_grain_buffer_svm_atomics(const cl::Device& device);
bool has_fine_grain_system_svm_atomics(const cl::Device& device);
std::optional<bool> has_src_build_cache(const cl::Device& device);

}  // namespace polydev::opencl
