#include "occupancy_kernels.hpp"

namespace {

// Keeps kValues floats live at once, so that the compiler needs about that many registers; a
// register cap below it makes it spill instead. The shared-memory tiles are touched so that they
// are not optimized away.
template <int kValues, int kStaticFloats>
__device__ __forceinline__ void pressure(float* out, const float* in, int n, int dynamic_floats) {
  extern __shared__ float dynamic_tile[];
  const int t = static_cast<int>(threadIdx.x);
  float v[kValues];
#pragma unroll
  for (int i = 0; i < kValues; ++i) v[i] = in[(t * 7 + i * 13) % n];
#pragma unroll
  for (int round = 0; round < 3; ++round) {
#pragma unroll
    for (int i = 0; i < kValues; ++i) {
      v[i] = fmaf(v[i], v[(i + 1) % kValues], v[(i + kValues - 1) % kValues]);
    }
  }
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < kValues; ++i) sum += v[i] * static_cast<float>(i + 1);
  if constexpr (kStaticFloats > 0) {
    __shared__ float static_tile[kStaticFloats];
    for (int i = t; i < kStaticFloats; i += static_cast<int>(blockDim.x)) static_tile[i] = sum;
    __syncthreads();
    sum += static_tile[(t * 31) % kStaticFloats];
  }
  if (dynamic_floats > 0) {
    for (int i = t; i < dynamic_floats; i += static_cast<int>(blockDim.x)) dynamic_tile[i] = sum;
    __syncthreads();
    sum += dynamic_tile[(t * 17) % dynamic_floats];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

constexpr int k4KiB = 1024;    // floats
constexpr int k48KiB = 12288;  // floats: the static maximum

// name, attributes (register cap or launch bounds), live values, static floats
#define POLYDEV_OCCUPANCY_KERNEL(name, attributes, values, floats)                          \
  __global__ void attributes name(float* out, const float* in, int n, int dynamic_floats) { \
    pressure<values, floats>(out, in, n, dynamic_floats);                                   \
  }

POLYDEV_OCCUPANCY_KERNEL(light, , 2, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_24, __maxnreg__(24), 64, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_32, __maxnreg__(32), 64, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_40, __maxnreg__(40), 64, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_56, __maxnreg__(56), 96, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_64, __maxnreg__(64), 96, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_72, __maxnreg__(72), 128, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_96, __maxnreg__(96), 128, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_128, __maxnreg__(128), 160, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_168, __maxnreg__(168), 200, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_200, __maxnreg__(200), 240, 0)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_255, __maxnreg__(255), 300, 0)
POLYDEV_OCCUPANCY_KERNEL(unbounded_100, , 100, 0)
POLYDEV_OCCUPANCY_KERNEL(bounds_1024, __launch_bounds__(1024), 96, 0)
POLYDEV_OCCUPANCY_KERNEL(bounds_256_2, __launch_bounds__(256, 2), 160, 0)
POLYDEV_OCCUPANCY_KERNEL(bounds_384, __launch_bounds__(384), 200, 0)
POLYDEV_OCCUPANCY_KERNEL(light_smem_4k, , 2, k4KiB)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_32_smem_4k, __maxnreg__(32), 64, k4KiB)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_72_smem_4k, __maxnreg__(72), 128, k4KiB)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_168_smem_4k, __maxnreg__(168), 200, k4KiB)
POLYDEV_OCCUPANCY_KERNEL(bounds_256_2_smem_4k, __launch_bounds__(256, 2), 160, k4KiB)
POLYDEV_OCCUPANCY_KERNEL(light_smem_48k, , 2, k48KiB)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_40_smem_48k, __maxnreg__(40), 64, k48KiB)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_96_smem_48k, __maxnreg__(96), 128, k48KiB)
POLYDEV_OCCUPANCY_KERNEL(maxnreg_255_smem_48k, __maxnreg__(255), 300, k48KiB)
POLYDEV_OCCUPANCY_KERNEL(bounds_1024_smem_48k, __launch_bounds__(1024), 96, k48KiB)

#undef POLYDEV_OCCUPANCY_KERNEL

}  // namespace

std::vector<OccupancyKernel> occupancy_kernels() {
  const auto entry = [](const char* name, auto* function, int launch_bound) {
    return OccupancyKernel{name, reinterpret_cast<const void*>(function), launch_bound};
  };
  return {
      entry("light", light, 0),
      entry("maxnreg_24", maxnreg_24, 0),
      entry("maxnreg_32", maxnreg_32, 0),
      entry("maxnreg_40", maxnreg_40, 0),
      entry("maxnreg_56", maxnreg_56, 0),
      entry("maxnreg_64", maxnreg_64, 0),
      entry("maxnreg_72", maxnreg_72, 0),
      entry("maxnreg_96", maxnreg_96, 0),
      entry("maxnreg_128", maxnreg_128, 0),
      entry("maxnreg_168", maxnreg_168, 0),
      entry("maxnreg_200", maxnreg_200, 0),
      entry("maxnreg_255", maxnreg_255, 0),
      entry("unbounded_100", unbounded_100, 0),
      entry("bounds_1024", bounds_1024, 1024),
      entry("bounds_256_2", bounds_256_2, 256),
      entry("bounds_384", bounds_384, 384),
      entry("light_smem_4k", light_smem_4k, 0),
      entry("maxnreg_32_smem_4k", maxnreg_32_smem_4k, 0),
      entry("maxnreg_72_smem_4k", maxnreg_72_smem_4k, 0),
      entry("maxnreg_168_smem_4k", maxnreg_168_smem_4k, 0),
      entry("bounds_256_2_smem_4k", bounds_256_2_smem_4k, 256),
      entry("light_smem_48k", light_smem_48k, 0),
      entry("maxnreg_40_smem_48k", maxnreg_40_smem_48k, 0),
      entry("maxnreg_96_smem_48k", maxnreg_96_smem_48k, 0),
      entry("maxnreg_255_smem_48k", maxnreg_255_smem_48k, 0),
      entry("bounds_1024_smem_48k", bounds_1024_smem_48k, 1024),
  };
}

cudaError_t launch_occupancy_kernel(const OccupancyKernel& kernel, int blocks, int threads,
                                    std::size_t dynamic_smem) {
  int n = blocks * threads;
  float* memory = nullptr;
  cudaError_t status = cudaMalloc(&memory, 2 * static_cast<std::size_t>(n) * sizeof(float));
  if (status != cudaSuccess) return status;
  float* out = memory;
  const float* in = memory + n;
  int dynamic_floats = static_cast<int>(dynamic_smem / sizeof(float));
  void* arguments[] = {&out, &in, &n, &dynamic_floats};
  status = cudaMemset(memory, 0, 2 * static_cast<std::size_t>(n) * sizeof(float));
  if (status == cudaSuccess) {
    status = cudaLaunchKernel(kernel.function, dim3(static_cast<unsigned>(blocks)),
                              dim3(static_cast<unsigned>(threads)), arguments, dynamic_smem);
  }
  // A refused launch leaves no sticky error; a failed kernel does, and is reported here.
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  (void)cudaGetLastError();
  const cudaError_t freed = cudaFree(memory);
  return status != cudaSuccess ? status : freed;
}
