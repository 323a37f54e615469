// Parts of the CUDA pools that need no device: array layouts and orders, zero-byte requests, and
// the errors the allocators give on a machine without a usable CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "polydev/cuda/array_layout.hpp"
#include "polydev/cuda/device_allocator.hpp"
#include "polydev/cuda/device_memory_pool.hpp"
#include "polydev/cuda/inventory.hpp"
#include "polydev/cuda/page_locked_allocator.hpp"
#include "polydev/cuda/page_locked_memory_pool.hpp"
#include "polydev/error.hpp"

namespace {

using polydev::cuda::make_layout;
using polydev::cuda::Order;
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
    EXPECT_NE(message.find("shape (4294967296, 4294967296)"), std::string::npos) << message;
    EXPECT_NE(message.find("1-byte elements"), std::string::npos) << message;
  }
  EXPECT_THROW(make_layout({std::numeric_limits<std::size_t>::max()}, 2, Order::fortran),
               std::length_error);
  EXPECT_THROW(make_layout({0, half, half}, 4, Order::c), std::length_error)
      << "overflow is checked even when another extent is 0";
}

TEST(ArrayLayout, RejectsBadOrderAndItemSize) {
  EXPECT_THROW(make_layout({2}, 4, static_cast<Order>(7)), std::invalid_argument);
  EXPECT_THROW(make_layout({2}, 0, Order::c), std::invalid_argument);
}

TEST(ParseOrder, AcceptsCAndF) {
  EXPECT_EQ(polydev::cuda::parse_order("C"), Order::c);
  EXPECT_EQ(polydev::cuda::parse_order("c"), Order::c);
  EXPECT_EQ(polydev::cuda::parse_order("F"), Order::fortran);
  EXPECT_EQ(polydev::cuda::parse_order("f"), Order::fortran);
}

TEST(ParseOrder, RejectsOtherSpecifiers) {
  for (const char* text : {"K", "A", "", "CF", "row"}) {
    try {
      polydev::cuda::parse_order(text);
      FAIL() << "order '" << text << "' accepted";
    } catch (const std::invalid_argument& failure) {
      const std::string message = failure.what();
      EXPECT_NE(message.find("unrecognized order specifier '" + std::string(text) + "'"),
                std::string::npos)
          << message;
    }
  }
}

TEST(PageLockedAllocator, ZeroBytesIsNullWithoutACudaCall) {
  const polydev::cuda::PageLockedAllocator allocator(cudaHostAllocPortable);
  EXPECT_EQ(allocator.flags(), static_cast<unsigned>(cudaHostAllocPortable));
  polydev::cuda::PageLockedAllocator copy = allocator;
  EXPECT_EQ(copy.allocate(0), nullptr);
  copy.free(nullptr);  // no CUDA call, no failure
}

TEST(CudaAllocatorsWithoutDevice, DeviceAllocatorReportsWhyCudaIsUnusable) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (inventory.available) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_THROW(polydev::cuda::DeviceAllocator(0), polydev::backend_error);
  EXPECT_THROW(polydev::cuda::DeviceAllocator(), polydev::backend_error);
  EXPECT_THROW(polydev::cuda::DeviceMemoryPool(), polydev::backend_error);
}

TEST(CudaAllocatorsWithoutDevice, PageLockedFailureIsNotOutOfMemory) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (inventory.available) GTEST_SKIP() << "this machine has a CUDA device";
  // The pool must pass this through rather than treat it as a shortage of memory.
  polydev::cuda::PageLockedMemoryPool pool;
  try {
    auto never = pool.allocate(4096);
    FAIL() << "page-locked memory without a CUDA driver";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.api(), "cudaHostAlloc");
    EXPECT_NE(std::string(failure.what()).find("4096 bytes"), std::string::npos) << failure.what();
  }
  EXPECT_EQ(pool.managed_bytes(), 0u);
  EXPECT_EQ(pool.active_blocks(), 0u);
}

}  // namespace
