// SVMAllocator, SVMPool and PooledSVM on every selected OpenCL device with coarse-grain SVM.
#include "polydev/opencl/svm_pool.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <polydev/gtest.hpp>
#include <string>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/inventory.hpp"
#include "support/opencl_checks.hpp"

namespace {

using polydev::opencl::PooledSVM;
using polydev::opencl::SVMAllocator;
using polydev::opencl::SVMBlock;
using polydev::opencl::SVMPool;
using polydev::pools::PoolCounters;
using polydev::testing::pools_support::build_program;
using polydev::testing::pools_support::expect_counters;
using polydev::testing::pools_support::thrown_message;

constexpr const char* kAddSource = R"CLC(
__kernel void add(__global uint* data, uint value) {
  const size_t i = get_global_id(0);
  data[i] += value;
}
)CLC";

class OpenCLSVMPool : public polydev::testing::OpenCLTest {
 protected:
  // Devices without coarse-grain SVM skip in OpenCLTest::SetUp, with what SVM they have.
  polydev::testing::Capabilities required_capabilities() const override {
    return {polydev::testing::svm_coarse_grain_buffer()};
  }

  // Fills `count` words at `ptr` with `value` on `queue` after `wait`; returns the command's event.
  static cl::Event fill(const cl::CommandQueue& queue, void* ptr, std::size_t count, cl_uint value,
                        const std::vector<cl::Event>& wait = {}) {
    std::vector<cl_event> events;
    for (const cl::Event& event : wait) events.push_back(event());
    cl::Event done;
    EXPECT_EQ(clEnqueueSVMMemFill(queue(), ptr, &value, sizeof value, count * sizeof(cl_uint),
                                  static_cast<cl_uint>(events.size()),
                                  events.empty() ? nullptr : events.data(), &done()),
              CL_SUCCESS);
    EXPECT_EQ(queue.flush(), CL_SUCCESS);
    return done;
  }

  // The `count` words at `ptr`, read through a blocking map on `queue`.
  static std::vector<cl_uint> read(const cl::CommandQueue& queue, void* ptr, std::size_t count) {
    std::vector<cl_uint> words(count);
    EXPECT_EQ(queue.enqueueMapSVM(ptr, CL_TRUE, CL_MAP_READ, count * sizeof(cl_uint)), CL_SUCCESS);
    const auto* mapped = static_cast<const cl_uint*>(ptr);
    words.assign(mapped, mapped + count);
    EXPECT_EQ(queue.enqueueUnmapSVM(ptr), CL_SUCCESS);
    EXPECT_EQ(queue.finish(), CL_SUCCESS);
    return words;
  }

  cl::CommandQueue second_queue() { return cl::CommandQueue(context(), device()); }
};

TEST_P(OpenCLSVMPool, AllocatorGivesAlignedBlocksBoundToItsQueue) {
  const SVMAllocator unbound(context());
  SVMBlock empty = unbound.allocate(0);
  EXPECT_EQ(empty.ptr, nullptr);
  EXPECT_EQ(empty.queue(), nullptr);
  SVMBlock block = unbound.allocate(100);
  EXPECT_NE(block.ptr, nullptr);
  EXPECT_EQ(block.queue(), nullptr);
  unbound.free(std::move(block));

  // 128 bytes: the largest OpenCL data type, the most that OpenCL promises to honour.
  const SVMAllocator aligned(context(), 128, CL_MEM_READ_WRITE, queue());
  SVMBlock bound = aligned.allocate(1000);
  ASSERT_NE(bound.ptr, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bound.ptr) % 128, 0u);
  EXPECT_EQ(bound.queue(), queue()());
  aligned.free(std::move(bound));  // enqueued on the queue
  EXPECT_EQ(queue().finish(), CL_SUCCESS);
}

// clSVMAlloc reports every failure as a null pointer; an alignment beyond what the driver honours
// is one that can be provoked (PoCL refuses more than 128 bytes).
TEST_P(OpenCLSVMPool, NullFromClSVMAllocIsOutOfMemory) {
  const SVMAllocator allocator(context(), 1u << 20);
  try {
    SVMBlock block = allocator.allocate(64);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block.ptr) % (1u << 20), 0u)
        << "the driver accepted the alignment and must honour it";
    allocator.free(std::move(block));
  } catch (const polydev::out_of_memory& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("clSVMAlloc of 64 bytes (alignment 1048576) returned null"),
              std::string::npos)
        << message;
  }
}

TEST_P(OpenCLSVMPool, BadAlignmentIsRejected) {
  const std::string message =
      thrown_message<polydev::error>([&] { SVMAllocator bad(context(), 48); });
  EXPECT_NE(message.find("alignment 48 is not a power of two"), std::string::npos) << message;
}

TEST_P(OpenCLSVMPool, OutOfOrderQueuesAreRejected) {
  const auto supported = device().getInfo<CL_DEVICE_QUEUE_ON_HOST_PROPERTIES>();
  if ((supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0) {
    GTEST_SKIP() << "device has no out-of-order queues to reject";
  }
  cl_int status = CL_SUCCESS;
  const cl::CommandQueue out_of_order(context(), device(), CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                      &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const std::string message = thrown_message<polydev::error>(
      [&] { SVMAllocator allocator(context(), 0, CL_MEM_READ_WRITE, out_of_order); });
  EXPECT_NE(message.find("SVMAllocator: the queue is out of order"), std::string::npos) << message;

  SVMPool pool(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
  PooledSVM pooled = pool.allocate(64);
  const std::string bind =
      thrown_message<polydev::error>([&] { pooled.bind_to_queue(out_of_order); });
  EXPECT_NE(bind.find("PooledSVM::bind_to_queue: the queue is out of order"), std::string::npos)
      << bind;
  EXPECT_EQ(pooled.queue(), queue()()) << "a rejected binding keeps the old one";
}

TEST_P(OpenCLSVMPool, QueueOfAnotherContextIsRejected) {
  const cl::Context other = make_context();
  const cl::CommandQueue foreign(other, device());
  const std::string message = thrown_message<polydev::error>(
      [&] { SVMAllocator allocator(context(), 0, CL_MEM_READ_WRITE, foreign); });
  EXPECT_NE(message.find("another context"), std::string::npos) << message;
}

TEST_P(OpenCLSVMPool, FineGrainFlagsFollowTheDeviceCapability) {
  const cl_svm_mem_flags flags = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
  if ((descriptor().device.svm_capabilities & polydev::opencl::svm_fine_grain_buffer) == 0) {
    const std::string message =
        thrown_message<polydev::error>([&] { SVMAllocator allocator(context(), 0, flags); });
    EXPECT_NE(message.find("coarse-grain SVM buffers only"), std::string::npos) << message;
    return;
  }
  cl::Program program = build_program(context(), device(), kAddSource);
  ASSERT_NE(program(), nullptr);
  cl::Kernel kernel(program, "add");
  SVMPool pool(SVMAllocator(context(), 0, flags, queue()));
  constexpr std::size_t n = 256;
  PooledSVM pooled = pool.allocate(n * sizeof(cl_uint));
  auto* words = static_cast<cl_uint*>(pooled.ptr());
  for (std::size_t i = 0; i < n; ++i) words[i] = static_cast<cl_uint>(i);  // no map needed
  ASSERT_EQ(kernel.setArg(0, pooled.ptr()), CL_SUCCESS);
  ASSERT_EQ(kernel.setArg(1, cl_uint{5}), CL_SUCCESS);
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
  ASSERT_EQ(queue().finish(), CL_SUCCESS);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(words[i], i + 5) << "at " << i;
}

TEST_P(OpenCLSVMPool, RequestsAboveTheLargestAllocationAreBackendErrors) {
  SVMPool pool(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
  const std::size_t too_large =
      static_cast<std::size_t>(device().getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>()) + 1;
  try {
    pool.allocate(too_large);
    ADD_FAILURE() << "allocation of " << too_large << " bytes succeeded";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.api(), "clSVMAlloc");
    EXPECT_EQ(failure.code(), CL_INVALID_BUFFER_SIZE) << failure.what();
  }
  expect_counters(pool, {0, 0, 0, 0}, "a failed allocation");
}

TEST_P(OpenCLSVMPool, PoolWithoutQueueFollowsTheTraceAndLeavesBlocksUnbound) {
  SVMPool pool{SVMAllocator(context())};
  PooledSVM a = pool.allocate(1000);
  expect_counters(pool, {0, 1, 1024, 1000}, "a = allocate(1000)");
  EXPECT_NE(a.ptr(), nullptr);
  EXPECT_EQ(a.size(), 1000u);
  EXPECT_EQ(a.queue(), nullptr);
  void* const a_ptr = a.ptr();
  a.release();
  expect_counters(pool, {1, 0, 1024, 0}, "a.release()");
  EXPECT_EQ(a.ptr(), nullptr);
  const std::string twice = thrown_message<polydev::error>([&] { a.release(); });
  EXPECT_NE(twice.find("released twice"), std::string::npos) << twice;
  EXPECT_THROW(a.bind_to_queue(queue()), polydev::error);
  EXPECT_THROW(a.unbind_from_queue(), polydev::error);

  PooledSVM b = pool.allocate(1010);
  EXPECT_EQ(b.ptr(), a_ptr);
  expect_counters(pool, {0, 1, 1024, 1010}, "b = allocate(1010)");
  PooledSVM z = pool.allocate(0);
  EXPECT_NE(z.ptr(), nullptr) << "a request of 0 bytes still gets a real block";
  EXPECT_EQ(z.size(), 0u);
  expect_counters(pool, {0, 2, 1025, 1010}, "z = allocate(0)");
  z.enqueue_release();
  b.enqueue_release();
  expect_counters(pool, {2, 0, 1025, 0}, "releases");
  pool.stop_holding();
  expect_counters(pool, {0, 0, 0, 0}, "stop_holding()");
}

TEST_P(OpenCLSVMPool, PoolWithQueueBindsAndUnbinds) {
  SVMPool pool(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
  PooledSVM x = pool.allocate(64);
  EXPECT_EQ(x.queue(), queue()());
  x.unbind_from_queue();
  EXPECT_EQ(x.queue(), nullptr);
  x.bind_to_queue(queue());
  EXPECT_EQ(x.queue(), queue()());
  const cl::CommandQueue other = second_queue();
  x.bind_to_queue(other);
  EXPECT_EQ(x.queue(), other());
  x.release();
  PooledSVM again = pool.allocate(64);
  EXPECT_EQ(again.queue(), queue()()) << "reuse binds to the allocator's queue";
}

TEST_P(OpenCLSVMPool, KernelsAndSVMCommandsUsePooledPointers) {
  cl::Program program = build_program(context(), device(), kAddSource);
  ASSERT_NE(program(), nullptr);
  cl::Kernel kernel(program, "add");
  SVMPool pool(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
  constexpr std::size_t n = 1024;
  PooledSVM pooled = pool.allocate(n * sizeof(cl_uint));

  // Map for writing, fill the second half, add 1 everywhere in a kernel.
  ASSERT_EQ(queue().enqueueMapSVM(pooled.ptr(), CL_TRUE, CL_MAP_WRITE, n * sizeof(cl_uint)),
            CL_SUCCESS);
  auto* words = static_cast<cl_uint*>(pooled.ptr());
  for (std::size_t i = 0; i < n; ++i) words[i] = static_cast<cl_uint>(i);
  ASSERT_EQ(queue().enqueueUnmapSVM(pooled.ptr()), CL_SUCCESS);
  fill(queue(), words + n / 2, n / 2, 1000u);
  ASSERT_EQ(kernel.setArg(0, pooled.ptr()), CL_SUCCESS);
  ASSERT_EQ(kernel.setArg(1, cl_uint{1}), CL_SUCCESS);
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);

  int major = 0;
  int minor = 0;
  std::sscanf(descriptor().device.version.c_str(), "OpenCL %d.%d", &major, &minor);
  if (major > 2 || (major == 2 && minor >= 1)) {  // clEnqueueSVMMigrateMem is OpenCL 2.1
    const void* pointers[] = {pooled.ptr()};
    const std::size_t sizes[] = {n * sizeof(cl_uint)};
    EXPECT_EQ(clEnqueueSVMMigrateMem(queue()(), 1, pointers, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0,
                                     nullptr, nullptr),
              CL_SUCCESS);
  }
  const std::vector<cl_uint> seen = read(queue(), pooled.ptr(), n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(seen[i], (i < n / 2 ? static_cast<cl_uint>(i) : 1000u) + 1u) << "at " << i;
  }
}

TEST_P(OpenCLSVMPool, PooledSVMOutlivesItsPoolQueueAndContext) {
  std::optional<PooledSVM> survivor;
  constexpr std::size_t n = 8;
  {
    cl::Context context = make_context();
    cl::CommandQueue queue(context, device());
    SVMPool pool(SVMAllocator(context, 0, CL_MEM_READ_WRITE, queue));
    survivor.emplace(pool.allocate(n * sizeof(cl_uint)));
    fill(queue, survivor->ptr(), n, 42u);
    PooledSVM held = pool.allocate(4096);  // held when the pool object goes
  }
  ASSERT_NE(survivor->queue(), nullptr);
  const cl::CommandQueue queue(survivor->queue(), /*retainObject=*/true);
  EXPECT_EQ(read(queue, survivor->ptr(), n), std::vector<cl_uint>(n, 42u));
  survivor->release();  // the last reference to the pool's state: frees on the retained queue
  EXPECT_EQ(queue.finish(), CL_SUCCESS);
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLSVMPool);

}  // namespace
