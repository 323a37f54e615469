// The array layout of polydev/pools/array_layout.hpp on values: strides in both orders, 0-d and
// empty arrays, overflow, element offsets, and the orders PyOpenCL and PyCUDA accept. Needs no
// device; OpenCL's `SVMArray` and `HostArrayRef` and CUDA's `HostArray` take their layouts from it.
#include "polydev/pools/array_layout.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using polydev::pools::make_layout;
using polydev::pools::Order;
using Sizes = std::vector<std::size_t>;

TEST(ArrayLayout, RowMajorStrides) {
  const auto layout = make_layout({2, 3, 4}, 4, Order::c);
  EXPECT_EQ(layout.shape, (Sizes{2, 3, 4}));
  EXPECT_EQ(layout.strides, (Sizes{48, 16, 4}));
  EXPECT_EQ(layout.elements, 24u);
  EXPECT_EQ(layout.bytes, 96u);
  EXPECT_EQ(layout.itemsize, 4u);
  EXPECT_EQ(layout.order, Order::c);
}

TEST(ArrayLayout, ColumnMajorStrides) {
  const auto layout = make_layout({2, 3, 4}, 8, Order::fortran);
  EXPECT_EQ(layout.strides, (Sizes{8, 16, 48}));
  EXPECT_EQ(layout.bytes, 192u);
  EXPECT_EQ(layout.order, Order::fortran);
}

TEST(ArrayLayout, ZeroDimensionalIsOneElement) {
  for (Order order : {Order::c, Order::fortran}) {
    const auto layout = make_layout({}, 2, order);
    EXPECT_TRUE(layout.shape.empty());
    EXPECT_TRUE(layout.strides.empty());
    EXPECT_EQ(layout.elements, 1u);
    EXPECT_EQ(layout.bytes, 2u);
  }
}

TEST(ArrayLayout, ZeroExtentGivesNoElementsAndNumPyStrides) {
  const auto layout = make_layout({2, 0, 3}, 4, Order::c);
  EXPECT_EQ(layout.elements, 0u);
  EXPECT_EQ(layout.bytes, 0u);
  EXPECT_EQ(layout.strides, (Sizes{12, 12, 4})) << "a 0 extent counts as 1 in strides (NumPy)";
}

TEST(ArrayLayout, OneDimensionIsTheSameInBothOrders) {
  EXPECT_EQ(make_layout({5}, 4, Order::c).strides, (Sizes{4}));
  EXPECT_EQ(make_layout({5}, 4, Order::fortran).strides, (Sizes{4}));
}

TEST(ArrayLayout, OverflowingByteCountIsALengthError) {
  const std::size_t half = std::size_t{1} << 32;
  EXPECT_NO_THROW(make_layout({half / 2, half / 2}, 2, Order::c));
  try {
    make_layout({half, half}, 1, Order::c);
    FAIL() << "2^64 bytes accepted";
  } catch (const std::length_error& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("array of shape (4294967296, 4294967296)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("1-byte elements"), std::string::npos) << message;
  }
  EXPECT_THROW(make_layout({std::numeric_limits<std::size_t>::max()}, 2, Order::fortran),
               std::length_error);
  EXPECT_THROW(make_layout({0, half, half}, 4, Order::c), std::length_error)
      << "overflow is checked even when another extent is 0";
}

TEST(ArrayLayout, RejectsBadOrderAndItemSize) {
  try {
    make_layout({2}, 4, static_cast<Order>(7));
    FAIL() << "order 7 accepted";
  } catch (const std::invalid_argument& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("array order 7 is not an Order"), std::string::npos) << message;
  }
  EXPECT_THROW(make_layout({2}, 0, Order::c), std::invalid_argument);
}

TEST(ArrayLayout, DescribesShapesAsNumPyPrintsThem) {
  EXPECT_EQ(polydev::pools::describe_shape({2, 3}), "(2, 3)");
  EXPECT_EQ(polydev::pools::describe_shape({5}), "(5,)");
  EXPECT_EQ(polydev::pools::describe_shape({}), "()");
}

TEST(ArrayLayout, ElementOffsetsFollowTheStrides) {
  using polydev::pools::element_offset;
  const auto c = make_layout({2, 3, 4}, 4, Order::c);
  const auto f = make_layout({2, 3, 4}, 4, Order::fortran);
  const std::size_t last[] = {1, 2, 3};
  EXPECT_EQ(element_offset(c, last, 3, "at"), 92u);
  EXPECT_EQ(element_offset(f, last, 3, "at"), 92u);
  const std::size_t second_row[] = {0, 1, 0};
  EXPECT_EQ(element_offset(c, second_row, 3, "at"), 16u);
  EXPECT_EQ(element_offset(f, second_row, 3, "at"), 8u);
  EXPECT_EQ(element_offset(make_layout({}, 8, Order::c), nullptr, 0, "at"), 0u) << "0-d";
}

TEST(ArrayLayout, ElementOffsetsRefuseWrongIndicesNamingTheCaller) {
  const auto layout = make_layout({2, 3}, 4, Order::c);
  const std::size_t one[] = {1};
  const std::size_t beyond[] = {1, 3};
  try {
    polydev::pools::element_offset(layout, one, 1, "Array::at");
    FAIL() << "one index on a 2-d array accepted";
  } catch (const std::out_of_range& failure) {
    EXPECT_EQ(std::string(failure.what()), "Array::at with 1 indices on a 2-d array");
  }
  try {
    polydev::pools::element_offset(layout, beyond, 2, "Array::at");
    FAIL() << "index 3 of extent 3 accepted";
  } catch (const std::out_of_range& failure) {
    EXPECT_EQ(std::string(failure.what()),
              "Array::at: index 3 of dimension 1 is beyond its extent 3");
  }
}

TEST(ParseOrder, AcceptsCAndFInEitherCase) {
  EXPECT_EQ(polydev::pools::parse_order("C"), Order::c);
  EXPECT_EQ(polydev::pools::parse_order("c"), Order::c);
  EXPECT_EQ(polydev::pools::parse_order("F"), Order::fortran);
  EXPECT_EQ(polydev::pools::parse_order("f"), Order::fortran);
}

TEST(ParseOrder, RejectsOtherSpecifiersNamingThem) {
  for (const char* text : {"K", "A", "", "CF", "row"}) {
    try {
      polydev::pools::parse_order(text);
      FAIL() << "order '" << text << "' accepted";
    } catch (const std::invalid_argument& failure) {
      EXPECT_EQ(std::string(failure.what()),
                "order not recognized: '" + std::string(text) +
                    "'; expected \"C\" (row-major) or \"F\" (column-major)");
    }
  }
}

}  // namespace
