#pragma once

/// @file
/// Which values the fill operations take as a pattern (buffer_operations.hpp, svm_operations.hpp).

#include <type_traits>

namespace polydev::opencl::memory::detail {

/// Values whose bytes are a fill pattern. Pointers and arrays are left to the overloads that take
/// a pointer and a size, so that `fill(queue, span, data, size)` never fills with the pointer.
template <typename T>
inline constexpr bool is_fill_pattern_v =
    std::is_trivially_copyable_v<T> && !std::is_pointer_v<T> && !std::is_array_v<T> &&
    !std::is_null_pointer_v<T>;

}  // namespace polydev::opencl::memory::detail
