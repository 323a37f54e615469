#pragma once

// Helpers shared by the CUDA pool test files.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>

#include "polydev/cuda/error.hpp"

// Fails the test (and returns) when a CUDA call fails, with the runtime's description.
#define ASSERT_CUDA(call)                                             \
  do {                                                                \
    const cudaError_t polydev_status_ = (call);                       \
    ASSERT_EQ(polydev_status_, cudaSuccess)                           \
        << #call << ": " << polydev::cuda::describe(polydev_status_); \
  } while (false)

// Checks the four counters of a pool after `step`.
template <typename Pool>
inline void expect_counters(const Pool& pool, std::size_t held, std::size_t active,
                            std::size_t managed, std::size_t active_bytes, const char* step) {
  const auto c = pool.counters();
  EXPECT_EQ(c.held_blocks, held) << step;
  EXPECT_EQ(c.active_blocks, active) << step;
  EXPECT_EQ(c.managed_bytes, managed) << step;
  EXPECT_EQ(c.active_bytes, active_bytes) << step;
}

// Index of the highest set bit (PyCUDA's bitlog2).
inline unsigned bitlog2(std::size_t value) {
  unsigned log = 0;
  while (value > 1) {
    value >>= 1;
    ++log;
  }
  return log;
}
