#include "polydev/detail/environment.hpp"

#include <cstdlib>

namespace polydev::detail {

std::optional<std::string> environment_variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

}  // namespace polydev::detail
