// What a downstream project writes: a device test on polydev's fixtures and pools. Built by each
// consumer project (find_package of an installed polydev, its build tree, add_subdirectory,
// FetchContent, without a CUDA toolkit, with a GoogleTest of the project's own), so one source
// checks that all of them give a project the same headers, definitions and libraries.
//
// CONSUMER_USES_CUDA_TOOLKIT (0 or 1, from the project's CMakeLists.txt): the project has the CUDA
// toolkit and calls CUDA's runtime itself. Without it, a polydev built with CUDA still runs its
// CUDA pools through the runtime it brings.
#include <cstddef>
#include <cstring>
#include <polydev/gtest.hpp>
#include <vector>

#if defined(POLYDEV_WITH_OPENCL)
#include <polydev/opencl/memory_pool.hpp>
#include <polydev/opencl/program_cache.hpp>
#endif
#if defined(POLYDEV_WITH_CUDA)
#include <polydev/cuda/device_memory_pool.hpp>  // includes no CUDA header
#if CONSUMER_USES_CUDA_TOOLKIT
#include <cuda_runtime_api.h>
#endif
#endif

namespace {

#if defined(POLYDEV_WITH_OPENCL)
constexpr bool kDefinesOpenCL = true;
#else
constexpr bool kDefinesOpenCL = false;
#endif
#if defined(POLYDEV_WITH_CUDA)
constexpr bool kDefinesCuda = true;
#else
constexpr bool kDefinesCuda = false;
#endif

// The consumer's CMakeLists.txt passes polydev_HAS_OPENCL / polydev_HAS_CUDA as
// CONSUMER_EXPECTS_OPENCL / CONSUMER_EXPECTS_CUDA: the package's variables and the compile
// definitions that polydev::framework hands on must tell the same story.
TEST(ConsumerPackage, BackendVariablesMatchTheCompileDefinitions) {
  EXPECT_EQ(kDefinesOpenCL, CONSUMER_EXPECTS_OPENCL != 0);
  EXPECT_EQ(kDefinesCuda, CONSUMER_EXPECTS_CUDA != 0);
#if defined(POLYDEV_WITH_OPENCL)
  EXPECT_EQ(CL_HPP_TARGET_OPENCL_VERSION, 300);
  EXPECT_EQ(CL_HPP_MINIMUM_OPENCL_VERSION, 110);
#endif
}

#if defined(POLYDEV_WITH_OPENCL)
constexpr const char* kScaleSource = R"CLC(
__kernel void scale(__global float* data, float factor) {
  const size_t i = get_global_id(0);
  data[i] *= factor;
}
)CLC";

class ConsumerOpenCL : public polydev::testing::OpenCLTest {};

TEST_P(ConsumerOpenCL, KernelOnAPooledBufferThenReuse) {
  polydev::opencl::MemoryPool pool{polydev::opencl::ImmediateAllocator(queue())};
  constexpr std::size_t n = 1024;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = static_cast<float>(i);
  }
  polydev::opencl::PooledBuffer data = pool.allocate(n * sizeof(float));
  ASSERT_EQ(queue().enqueueWriteBuffer(data.buffer(), CL_TRUE, 0, n * sizeof(float), host.data()),
            CL_SUCCESS);

  // Built once per context, and from the binary cache for later contexts on such a device; a
  // failed build throws polydev::backend_error with the build log, which fails the test.
  const cl::Program program = polydev::opencl::build_program(context(), kScaleSource);
  cl::Kernel kernel(program, "scale");
  ASSERT_EQ(kernel.setArg(0, data), CL_SUCCESS);
  ASSERT_EQ(kernel.setArg(1, 3.0f), CL_SUCCESS);
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
  std::vector<float> result(n);
  ASSERT_EQ(queue().enqueueReadBuffer(data.buffer(), CL_TRUE, 0, n * sizeof(float), result.data()),
            CL_SUCCESS);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(result[i], 3.0f * host[i]) << "at index " << i;
  }

  const cl_mem memory = data.get();
  data.release();
  EXPECT_EQ(pool.held_blocks(), 1u);
  polydev::opencl::PooledBuffer again = pool.allocate(n * sizeof(float));
  EXPECT_EQ(again.get(), memory) << "the held block is handed out again";
  EXPECT_EQ(pool.held_blocks(), 0u);
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(ConsumerOpenCL);
#endif

#if defined(POLYDEV_WITH_CUDA)
class ConsumerCuda : public polydev::testing::CudaTest {};

TEST_P(ConsumerCuda, PooledDeviceMemoryIsHeldThenReused) {
  polydev::cuda::DeviceMemoryPool pool;  // the fixture made the test's device current
  EXPECT_EQ(pool.device(), ordinal());
  polydev::cuda::PooledDeviceAllocation block = pool.allocate(4096);
  ASSERT_NE(block.ptr(), nullptr);
  void* const memory = block.ptr();
  block.free();
  EXPECT_EQ(pool.held_blocks(), 1u);
  polydev::cuda::PooledDeviceAllocation again = pool.allocate(4096);
  EXPECT_EQ(again.ptr(), memory) << "the held block is handed out again";
  EXPECT_EQ(pool.held_blocks(), 0u);
}

#if CONSUMER_USES_CUDA_TOOLKIT
// The project's own CUDA calls and polydev's share one runtime: the memory polydev allocated on the
// device the fixture made current is the project's to copy and set.
TEST_P(ConsumerCuda, PooledDeviceMemoryRoundTripThroughTheProjectsCudaCalls) {
  polydev::cuda::DeviceMemoryPool pool;
  constexpr std::size_t n = 1024;
  constexpr std::size_t bytes = n * sizeof(int);
  std::vector<int> host(n);
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = static_cast<int>(i);
  }
  polydev::cuda::PooledDeviceAllocation block = pool.allocate(bytes);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, ordinal());
  ASSERT_EQ(cudaMemcpy(block.ptr(), host.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(block.ptr(), 0x01, bytes / 2), cudaSuccess);
  std::vector<int> result(n);
  ASSERT_EQ(cudaMemcpy(result.data(), block.ptr(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  int ones = 0;
  std::memset(&ones, 0x01, sizeof(ones));
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(result[i], i < n / 2 ? ones : host[i]) << "at index " << i;
  }
}
#endif

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(ConsumerCuda);
#endif

}  // namespace
