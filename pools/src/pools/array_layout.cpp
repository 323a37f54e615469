#include "polydev/pools/array_layout.hpp"

#include <limits>
#include <stdexcept>
#include <utility>

namespace polydev::pools {

Order parse_order(std::string_view text) {
  if (text == "C" || text == "c") return Order::c;
  if (text == "F" || text == "f") return Order::fortran;
  throw std::invalid_argument("order not recognized: '" + std::string(text) +
                              "'; expected \"C\" (row-major) or \"F\" (column-major)");
}

std::string describe_shape(const std::vector<std::size_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

ArrayLayout make_layout(std::vector<std::size_t> shape, std::size_t itemsize, Order order) {
  // An Order cast from an integer reaches here as easily as a parsed one.
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
  // NumPy's strides for a zero extent: as if that extent were 1, so none of them is 0.
  std::size_t stride = itemsize;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::size_t axis = order == Order::c ? shape.size() - 1 - k : k;
    layout.strides[axis] = stride;
    if (shape[axis] != 0) stride *= shape[axis];
  }
  layout.shape = std::move(shape);
  return layout;
}

std::size_t element_offset(const ArrayLayout& layout, const std::size_t* indices, std::size_t count,
                           const char* who) {
  if (count != layout.shape.size()) {
    throw std::out_of_range(std::string(who) + " with " + std::to_string(count) + " indices on a " +
                            std::to_string(layout.shape.size()) + "-d array");
  }
  std::size_t offset = 0;
  for (std::size_t axis = 0; axis < count; ++axis) {
    if (indices[axis] >= layout.shape[axis]) {
      throw std::out_of_range(std::string(who) + ": index " + std::to_string(indices[axis]) +
                              " of dimension " + std::to_string(axis) + " is beyond its extent " +
                              std::to_string(layout.shape[axis]));
    }
    offset += indices[axis] * layout.strides[axis];
  }
  return offset;
}

}  // namespace polydev::pools
