#pragma once

// Python's int(text) for base 10, which is how PyOpenCL and PyCUDA decide whether a selector item
// is an index: surrounding whitespace, one sign, and single '_' between digits are accepted. Values
// beyond the range of long long saturate (they are out of range as indices anyway). Non-ASCII
// digits, which Python also accepts, are not.

#include <optional>
#include <string_view>

namespace polydev::detail {

std::optional<long long> parse_python_int(std::string_view text);

/// Python's str.strip() for ASCII whitespace (which includes \x1c-\x1f).
std::string_view strip_python_whitespace(std::string_view text);

}  // namespace polydev::detail
