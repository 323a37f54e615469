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

#ifndef __CUDACC__
#include <gtest/gtest.h>

#include <vector>

// Fills `block` (a pooled device allocation of `bytes`, a multiple of 4) on the current device
// with fill_pattern and checks every word on the host.
template <typename Block>
void fill_and_check(const Block& block, std::size_t bytes, std::uint32_t seed) {
  const std::size_t words = bytes / 4;
  ASSERT_EQ(fill_pattern(block.template as<std::uint32_t>(), words, seed), cudaSuccess);
  std::vector<std::uint32_t> host(words);
  ASSERT_EQ(cudaMemcpy(host.data(), block.ptr(), words * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  for (std::size_t i = 0; i < words; ++i) {
    ASSERT_EQ(host[i], pattern_word(seed, i)) << "word " << i << " of a " << bytes << "-byte block";
  }
}
#endif
