#pragma once

// Helpers shared by the CUDA pool test files (their counter check is pool_counters.hpp).

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
