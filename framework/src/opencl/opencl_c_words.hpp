#pragma once

// Words of OpenCL C that the kernel argument code reads and checks: identifiers, reserved words,
// the built-in types kernel arguments cannot have, and a tokenizer for struct declarations.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polydev::opencl {

/// Letters, digits and '_', not starting with a digit.
bool is_identifier(std::string_view text);

/// OpenCL C's keywords and built-in type names (C99's keywords, the address space and access
/// qualifiers, the scalar, vector, image and other built-in types), which cannot name a parameter
/// or a registered struct.
bool is_reserved_word(std::string_view text);

/// Why OpenCL C forbids `type_name` as (or inside) a kernel argument, starting "'bool' cannot be a
/// kernel argument in OpenCL C: ..."; nothing for every other name.
std::optional<std::string> forbidden_argument_reason(std::string_view type_name);

/// The tokens of C text: identifiers and numbers whole, every other non-blank character alone;
/// comments are dropped.
/// @throws polydev::error starting with `what` for a comment that is not closed.
std::vector<std::string> c_tokens(std::string_view text, const std::string& what);

}  // namespace polydev::opencl
