#pragma once

/// @file
/// Reading the environment: one place, so that "set but empty" and "unset" are never confused. Not
/// part of the API: public only because the fixtures (polydev::gtest) read the environment through
/// it too.

#include <optional>
#include <string>

namespace polydev::detail {

/// The value of environment variable `name`, or nothing when it is not set (an empty value is set).
std::optional<std::string> environment_variable(const char* name);

}  // namespace polydev::detail
