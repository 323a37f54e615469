#pragma once

// Kernels for the CUDA pool tests, compiled by nvcc; callable from host-compiled test files.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define POLYDEV_TEST_HOST_DEVICE __host__ __device__
#else
#define POLYDEV_TEST_HOST_DEVICE
#endif

// The word that fill_pattern writes at index i.
POLYDEV_TEST_HOST_DEVICE inline std::uint32_t pattern_word(std::uint32_t seed, std::size_t i) {
  return seed ^ (static_cast<std::uint32_t>(i) * 2654435761u) ^ static_cast<std::uint32_t>(i >> 32);
}

// Writes pattern_word(seed, i) to words[i] for i < count with a kernel on the current device, and
// waits for it. Returns the first failure.
cudaError_t fill_pattern(std::uint32_t* words, std::size_t count, std::uint32_t seed);
