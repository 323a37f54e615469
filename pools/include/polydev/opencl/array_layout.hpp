#pragma once

/// @file
/// Shapes, element order and byte strides of dense arrays (NumPy's conventions, as PyOpenCL's
/// `shape`, `dtype` and `order` arguments take them): the layout of `svm_empty`'s arrays.

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace polydev::opencl {

/// Element order of a multi-dimensional array.
enum class Order {
  c,        ///< row-major: the last index varies fastest (NumPy "C")
  fortran,  ///< column-major: the first index varies fastest (NumPy "F")
};

/// "C" or "F" (either case) as an `Order`, as PyOpenCL reads its `order` arguments.
/// @throws std::invalid_argument naming the text for anything else.
inline Order parse_order(std::string_view text) {
  if (text == "C" || text == "c") return Order::c;
  if (text == "F" || text == "f") return Order::fortran;
  throw std::invalid_argument("order not recognized: '" + std::string(text) +
                              "'; expected \"C\" (row-major) or \"F\" (column-major)");
}

/// The layout of a dense array.
struct ArrayLayout {
  std::vector<std::size_t> shape;    ///< extent of each dimension; empty for a 0-d array
  std::vector<std::size_t> strides;  ///< bytes between neighbours along each dimension
  std::size_t itemsize = 0;          ///< bytes per element
  std::size_t elements = 0;          ///< product of `shape` (1 for 0-d)
  std::size_t bytes = 0;             ///< `elements * itemsize`
  Order order = Order::c;
};

/// `(2, 3)`-style text of a shape (NumPy's; `(5,)` for one dimension), for messages.
inline std::string describe_shape(const std::vector<std::size_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

/// The layout of a dense array of `shape` with elements of `itemsize` bytes in `order`.
/// @throws std::invalid_argument when `itemsize` is 0 or `order` is not an `Order` value;
/// std::length_error when the byte count overflows `size_t` (checked over the non-zero extents
/// even when another extent is 0, so that the strides never overflow).
inline ArrayLayout make_layout(std::vector<std::size_t> shape, std::size_t itemsize, Order order) {
  if (order != Order::c && order != Order::fortran) {
    throw std::invalid_argument("array order " + std::to_string(static_cast<int>(order)) +
                                " is not an Order; expected Order::c or Order::fortran");
  }
  if (itemsize == 0) throw std::invalid_argument("array elements of 0 bytes");
  constexpr std::size_t limit = std::numeric_limits<std::size_t>::max();
  std::size_t span = itemsize;
  bool empty = false;
  for (const std::size_t extent : shape) {
    if (extent == 0) {
      empty = true;
      continue;
    }
    if (span > limit / extent) {
      throw std::length_error("array of shape " + describe_shape(shape) + " with " +
                              std::to_string(itemsize) + "-byte elements needs more than " +
                              std::to_string(limit) + " bytes");
    }
    span *= extent;
  }
  ArrayLayout layout;
  layout.itemsize = itemsize;
  layout.order = order;
  layout.bytes = empty ? 0 : span;
  layout.elements = layout.bytes / itemsize;
  layout.strides.resize(shape.size());
  std::size_t stride = itemsize;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::size_t axis = order == Order::c ? shape.size() - 1 - k : k;
    layout.strides[axis] = stride;
    if (shape[axis] != 0) stride *= shape[axis];
  }
  layout.shape = std::move(shape);
  return layout;
}

}  // namespace polydev::opencl
