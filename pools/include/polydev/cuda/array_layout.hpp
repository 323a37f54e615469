#pragma once

/// @file
/// Shapes, element order and byte strides of the typed host arrays that
/// `PageLockedMemoryPool::allocate(shape, dtype, order)` hands out (NumPy's conventions).

#include <cstddef>
#include <string_view>
#include <vector>

namespace polydev::cuda {

/// Element order of a multi-dimensional array.
enum class Order {
  c,        ///< row-major: the last index varies fastest (NumPy "C")
  fortran,  ///< column-major: the first index varies fastest (NumPy "F")
};

/// "C" or "F" (either case) as an `Order`.
/// @throws std::invalid_argument "unrecognized order specifier ..." for anything else.
Order parse_order(std::string_view text);

/// The layout of an array of `shape` with elements of `itemsize` bytes.
struct ArrayLayout {
  std::vector<std::size_t> shape;    ///< extent of each dimension; empty for a 0-d array
  std::vector<std::size_t> strides;  ///< bytes between neighbours along each dimension
  std::size_t itemsize = 0;          ///< bytes per element
  std::size_t elements = 0;          ///< product of `shape` (1 for 0-d)
  std::size_t bytes = 0;             ///< `elements * itemsize`
  Order order = Order::c;
};

/// The layout of a dense array of `shape` in `order`.
/// @throws std::invalid_argument when `itemsize` is 0 or `order` is not an `Order` value;
/// std::length_error when the byte count of the non-zero extents overflows `size_t` (checked even
/// when another extent is 0, so that strides never overflow).
ArrayLayout make_layout(std::vector<std::size_t> shape, std::size_t itemsize, Order order);

}  // namespace polydev::cuda
