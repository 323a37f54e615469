#pragma once

/// @file
/// What a device's SVM capabilities allow, in words: the checks behind `SVMAllocator`,
/// `SVMAllocation` and `svm_empty`, on values (testable without such a device).

#include <CL/opencl.hpp>
#include <optional>
#include <string>

namespace polydev::opencl::detail {

/// The `CL_DEVICE_SVM_*` names of the bits of `capabilities`, joined by " | " (unknown bits in
/// hexadecimal); "none" for 0.
std::string svm_capability_names(cl_device_svm_capabilities capabilities);

/// Why a device named `device_name` with `capabilities` cannot hold SVM allocated with `flags`
/// (no SVM at all, no fine-grain buffers for `CL_MEM_SVM_FINE_GRAIN_BUFFER`, no atomics for
/// `CL_MEM_SVM_ATOMICS`), starting "<who>: "; nothing when it can.
std::optional<std::string> svm_flags_problem(const std::string& device_name,
                                             cl_device_svm_capabilities capabilities,
                                             cl_svm_mem_flags flags, const char* who);

}  // namespace polydev::opencl::detail
