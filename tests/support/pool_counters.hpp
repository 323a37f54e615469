#pragma once

// The counter check of the pool tests of every backend (no OpenCL or CUDA header needed).

#include <gtest/gtest.h>

#include <cstddef>

#include "polydev/pools/pool.hpp"

namespace polydev::testing::pools_support {

// Checks the four counters of `pool` (any pool of polydev/pools) after `step`, each on its own so
// that a failure names it.
template <typename Pool>
void expect_counters(const Pool& pool, const pools::PoolCounters& expected, const char* step) {
  const pools::PoolCounters actual = pool.counters();
  EXPECT_EQ(actual.held_blocks, expected.held_blocks) << "held_blocks after " << step;
  EXPECT_EQ(actual.active_blocks, expected.active_blocks) << "active_blocks after " << step;
  EXPECT_EQ(actual.managed_bytes, expected.managed_bytes) << "managed_bytes after " << step;
  EXPECT_EQ(actual.active_bytes, expected.active_bytes) << "active_bytes after " << step;
}

// The same with the four counters spelled out, in PoolCounters' order: held blocks, active blocks,
// managed bytes, active bytes.
template <typename Pool>
void expect_counters(const Pool& pool, std::size_t held, std::size_t active, std::size_t managed,
                     std::size_t active_bytes, const char* step) {
  expect_counters(pool, pools::PoolCounters{held, active, managed, active_bytes}, step);
}

}  // namespace polydev::testing::pools_support
