#pragma once

// A host array of OpenCL words for the tests of rectangular copies, whose boxes it names in
// OpenCL's terms.

#include <CL/opencl.hpp>
#include <cstddef>
#include <numeric>
#include <vector>

#include "polydev/opencl/memory/buffer_operations.hpp"

namespace polydev::testing::pools_support {

// A C-order array of `cl_uint` of shape (slices, rows, columns), counting up from `first`, so that
// every word of a box says where it came from.
struct Grid {
  std::size_t slices;
  std::size_t rows;
  std::size_t columns;
  std::vector<cl_uint> values;

  Grid(std::size_t d, std::size_t h, std::size_t w, cl_uint first)
      : slices(d), rows(h), columns(w), values(d * h * w) {
    std::iota(values.begin(), values.end(), first);
  }
  cl_uint& at(std::size_t z, std::size_t y, std::size_t x) {
    return values[(z * rows + y) * columns + x];
  }
  std::size_t bytes() const { return values.size() * sizeof(cl_uint); }
  std::size_t row_pitch() const { return columns * sizeof(cl_uint); }
  std::size_t slice_pitch() const { return rows * row_pitch(); }
  // The side of a box at element (x, y, z) of this grid.
  polydev::opencl::memory::RectSide side(std::size_t x, std::size_t y, std::size_t z) const {
    return polydev::opencl::memory::RectSide{
        {x * sizeof(cl_uint), y, z}, row_pitch(), slice_pitch()};
  }
};

}  // namespace polydev::testing::pools_support
