#pragma once

/// @file
/// The check of an OpenCL platform's version string that enumeration and queue creation make
/// before the OpenCL C++ bindings see the platform. Not for users' code: exposed for polydev's
/// tests.

#include <optional>
#include <string>
#include <string_view>

namespace polydev::detail {

/// Why the OpenCL C++ bindings cannot read `version`, a `CL_PLATFORM_VERSION` up to its terminating
/// NUL (an embedded NUL ends it, as it ends it for the bindings); `nullopt` when it has the form
/// "OpenCL <major>.<minor>" followed by a space or its end, with numbers of at most four digits.
/// The bindings read any other form out of bounds, on every `cl::Device` made from a handle of the
/// platform and every `cl::CommandQueue` made for it, so such a platform's devices are left out.
/// The text quotes at most a short prefix of `version`, with unprintable bytes escaped.
std::optional<std::string> opencl_platform_version_problem(std::string_view version);

}  // namespace polydev::detail
