#include "pool_kernels.hpp"

namespace {
__global__ void fill_kernel(std::uint32_t* words, std::size_t count, std::uint32_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    words[i] = pattern_word(seed, i);
  }
}
}  // namespace

cudaError_t fill_pattern(std::uint32_t* words, std::size_t count, std::uint32_t seed) {
  if (count == 0) return cudaSuccess;
  const std::size_t wanted = (count + 255) / 256;
  const unsigned blocks = static_cast<unsigned>(wanted < 4096 ? wanted : 4096);
  fill_kernel<<<blocks, 256>>>(words, count, seed);
  const cudaError_t launched = cudaGetLastError();
  if (launched != cudaSuccess) return launched;
  return cudaDeviceSynchronize();
}
