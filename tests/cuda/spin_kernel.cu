#include "spin_kernel.hpp"

namespace {
__global__ void spin(long long cycles, int* done) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  *done = 1;
}
}  // namespace

cudaError_t spin_on_device(double seconds, float* elapsed_ms) {
  int device = 0;
  int clock_khz = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status == cudaSuccess)
    status = cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
  if (status != cudaSuccess) return status;
  int* done = nullptr;
  if ((status = cudaMalloc(&done, sizeof(int))) != cudaSuccess) return status;
  cudaEvent_t begin = nullptr;
  cudaEvent_t end = nullptr;
  int flag = 0;
  if ((status = cudaMemset(done, 0, sizeof(int))) == cudaSuccess &&
      (status = cudaEventCreate(&begin)) == cudaSuccess &&
      (status = cudaEventCreate(&end)) == cudaSuccess &&
      (status = cudaEventRecord(begin)) == cudaSuccess) {
    spin<<<1, 1>>>(static_cast<long long>(seconds * clock_khz * 1000.0), done);
    if ((status = cudaGetLastError()) == cudaSuccess &&
        (status = cudaEventRecord(end)) == cudaSuccess &&
        (status = cudaEventSynchronize(end)) == cudaSuccess &&
        (status = cudaEventElapsedTime(elapsed_ms, begin, end)) == cudaSuccess) {
      status = cudaMemcpy(&flag, done, sizeof(int), cudaMemcpyDeviceToHost);
      if (status == cudaSuccess && flag != 1) status = cudaErrorLaunchFailure;
    }
  }
  if (begin) (void)cudaEventDestroy(begin);
  if (end) (void)cudaEventDestroy(end);
  const cudaError_t freed = cudaFree(done);
  return status != cudaSuccess ? status : freed;
}
