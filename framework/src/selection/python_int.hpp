#pragma once

// Python's int(text) for base 10, which is how PyOpenCL and PyCUDA decide whether a selector item
// is an index, and str.strip(), which PyCUDA applies to ~/.cuda_device. Both work on the UTF-8
// bytes of an environment variable or file as Python works on the decoded text (CPython 3.11,
// Unicode 14.0):
//
// - int() accepts surrounding whitespace, one sign, decimal digits of any script (Unicode
//   category Nd: '١', '１', '४') with single '_' between digits, and at most 4300 digits (CPython's
//   default int_max_str_digits; more is a ValueError). Its whitespace is the ASCII set
//   " \t\n\v\f\r" and the non-ASCII characters str.isspace() accepts (U+0085, U+00A0, U+3000, ...);
//   unlike str.strip() it does not take \x1c-\x1f for whitespace.
// - Bytes that are not valid UTF-8 are, as Python decodes the environment (surrogateescape),
//   characters that are neither digits nor whitespace: int() rejects them, strip() stops at them.
//
// Values beyond the range of long long saturate (they are out of range as indices anyway).

#include <optional>
#include <string_view>

namespace polydev::detail {

/// Python's int(text) in base 10; nothing where int() raises ValueError.
std::optional<long long> parse_python_int(std::string_view text);

/// Python's str.strip(): removes the characters str.isspace() accepts from both ends (ASCII
/// " \t\n\v\f\r\x1c\x1d\x1e\x1f" and the Unicode spaces and separators).
std::string_view strip_python_whitespace(std::string_view text);

}  // namespace polydev::detail
