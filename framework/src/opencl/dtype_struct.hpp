#pragma once

// What the registry keeps for a registered struct type; DType values share it.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "polydev/opencl/dtypes.hpp"

namespace polydev::opencl::detail {

struct StructDefinition {
  std::string name;
  std::size_t size = 0;
  std::size_t alignment = 0;
  std::string declaration;
  // The declaration's tokens: two registrations define the same type when these match, whatever
  // their spacing and comments.
  std::vector<std::string> tokens;
  // Registered structs the declaration names, in order of first mention.
  std::vector<std::shared_ptr<const StructDefinition>> dependencies;
  bool needs_fp64 = false;
  bool needs_fp16 = false;
};

}  // namespace polydev::opencl::detail
