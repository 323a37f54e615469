#include "vector_add.hpp"

namespace {
__global__ void vector_add(const float* a, const float* b, float* sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sum[i] = a[i] + b[i];
}
}  // namespace

cudaError_t add_on_device(const float* a, const float* b, float* sum, int n) {
  float* device_memory = nullptr;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  cudaError_t status = cudaMalloc(&device_memory, 3 * bytes);
  if (status != cudaSuccess) return status;
  float* da = device_memory;
  float* db = device_memory + n;
  float* ds = device_memory + 2 * n;
  if ((status = cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice)) == cudaSuccess &&
      (status = cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice)) == cudaSuccess) {
    vector_add<<<(n + 255) / 256, 256>>>(da, db, ds, n);
    if ((status = cudaGetLastError()) == cudaSuccess) {
      status = cudaMemcpy(sum, ds, bytes, cudaMemcpyDeviceToHost);
    }
  }
  const cudaError_t freed = cudaFree(device_memory);
  return status != cudaSuccess ? status : freed;
}
