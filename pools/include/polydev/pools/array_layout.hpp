#pragma once

/// @file
/// Shapes, element order and byte strides of dense arrays, in NumPy's conventions (as PyOpenCL's
/// and PyCUDA's `shape`, `dtype` and `order` arguments take them). Backend-neutral: the layout of
/// OpenCL's `SVMArray` and `HostArrayRef` and of CUDA's `HostArray`, which name these types in
/// their own namespaces too, and the shape queries they share (`detail::ShapedArray`).

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace polydev::pools {

/// Element order of a multi-dimensional array.
enum class Order {
  c,        ///< row-major: the last index varies fastest (NumPy "C")
  fortran,  ///< column-major: the first index varies fastest (NumPy "F")
};

/// "C" or "F" (either case) as an `Order`, as PyOpenCL and PyCUDA read their `order` arguments.
/// @throws std::invalid_argument "order not recognized: '<text>'; ..." for anything else.
Order parse_order(std::string_view text);

/// The layout of a dense array.
struct ArrayLayout {
  std::vector<std::size_t> shape;    ///< extent of each dimension; empty for a 0-d array
  std::vector<std::size_t> strides;  ///< bytes between neighbours along each dimension
  std::size_t itemsize = 0;          ///< bytes per element
  std::size_t elements = 0;          ///< product of `shape` (1 for 0-d)
  std::size_t bytes = 0;             ///< `elements * itemsize`
  Order order = Order::c;
};

/// `(2, 3)`-style text of a shape (NumPy's; `(5,)` for one dimension, `()` for none), for
/// messages.
std::string describe_shape(const std::vector<std::size_t>& shape);

/// The layout of a dense array of `shape` with elements of `itemsize` bytes in `order`.
/// @throws std::invalid_argument when `itemsize` is 0 or `order` is not an `Order` value;
/// std::length_error when the byte count overflows `size_t` (checked over the non-zero extents
/// even when another extent is 0, so that the strides never overflow).
ArrayLayout make_layout(std::vector<std::size_t> shape, std::size_t itemsize, Order order);

/// The byte offset, from the first element, of the element at the `count` indices at `indices`
/// (one per dimension of `layout`, none for a 0-d array): the `at(i, j, ...)` of the typed arrays.
/// @throws std::out_of_range "<who> with <n> indices on a <d>-d array" for a wrong number of
/// indices, "<who>: index <i> of dimension <k> is beyond its extent <e>" for an index beyond it.
std::size_t element_offset(const ArrayLayout& layout, const std::size_t* indices, std::size_t count,
                           const char* who);

namespace detail {

/// What the typed arrays (OpenCL's `SVMArray` and `HostArrayRef`, CUDA's `HostArray`) answer from
/// their layout alone: each derives from this, which holds the layout, and adds its memory, its
/// byte count (`nbytes()`, or `bytes()` for `SVMArray`) and its element access.
class ShapedArray {
 public:
  /// Number of elements (1 for a 0-d array; 0 for an `SVMArray` once released).
  std::size_t size() const noexcept { return layout_.elements; }
  /// Number of dimensions.
  std::size_t ndim() const noexcept { return layout_.shape.size(); }
  /// Extent of each dimension; empty for a 0-d array (and an `SVMArray` once released).
  const std::vector<std::size_t>& shape() const noexcept { return layout_.shape; }
  /// Bytes between neighbours along each dimension (NumPy's strides).
  const std::vector<std::size_t>& strides() const noexcept { return layout_.strides; }
  /// Element order.
  Order order() const noexcept { return layout_.order; }
  /// Shape, strides, order and sizes together.
  const ArrayLayout& layout() const noexcept { return layout_; }

 protected:
  ShapedArray() = default;
  explicit ShapedArray(ArrayLayout layout) noexcept : layout_(std::move(layout)) {}
  ShapedArray(const ShapedArray&) = default;
  ShapedArray(ShapedArray&&) = default;
  ShapedArray& operator=(const ShapedArray&) = default;
  ShapedArray& operator=(ShapedArray&&) = default;
  ~ShapedArray() = default;

  /// The byte offset of the element at `index...` from the first: `element_offset` for `who`.
  template <typename... Index>
  std::size_t offset_of(const char* who, Index... index) const {
    const std::array<std::size_t, sizeof...(Index)> indices{static_cast<std::size_t>(index)...};
    return element_offset(layout_, indices.data(), indices.size(), who);
  }

  ArrayLayout layout_;
};

}  // namespace detail

}  // namespace polydev::pools
