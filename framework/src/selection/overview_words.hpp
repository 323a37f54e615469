#pragma once

// The words that the device table and a device's standing share for the backend selectors.

#include <string>

#include "polydev/overview.hpp"

namespace polydev::detail {

/// "PYOPENCL_TEST='<text>'", or "PYOPENCL_TEST unset" when unset or empty.
std::string pyopencl_test_words(const Overview& overview);

/// The CUDA setting that applies: "CUDA_DEVICE='1'", "<file>='0'", or "CUDA_DEVICE unset".
std::string cuda_setting_words(const Overview& overview);

/// Why the selection leaves an OpenCL device out: what POLYDEV_DEVICES decided, or "not named by
/// <PYOPENCL_TEST>", or "the selector is invalid".
std::string opencl_left_out(const Overview& overview, const opencl::DeviceInfo& device);

}  // namespace polydev::detail
