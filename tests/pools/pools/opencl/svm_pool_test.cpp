// SVMAllocator, the SVMAllocation it hands out when called, SVMPool and PooledSVM on every
// selected OpenCL device with coarse-grain SVM; the SVM capability checks on values.
#include "polydev/opencl/svm_pool.hpp"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <polydev/gtest.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/detail/svm_capabilities.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/memory/svm_operations.hpp"
#include "polydev/opencl/svm_allocator.hpp"
#include "support/opencl_checks.hpp"

namespace {

using polydev::opencl::PooledSVM;
using polydev::opencl::SVMAllocation;
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

// The spin's result is stored, so that the compiler cannot drop the loop.
constexpr const char* kSlowSource = R"CLC(
__kernel void slow(__global uint* out, uint rounds) {
  const size_t i = get_global_id(0);
  uint state = (uint)i;
  for (uint r = 0; r < rounds; ++r) state = state * 1664525u + 1013904223u;
  out[i] = state;
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

  // A kernel on `queue` that takes a while (each of 4096 work items spins before its store, into
  // a buffer of its own), not flushed; returns its event. On a device that runs commands before
  // their enqueue returns (PoCL's 'basic') it is complete already, and an order after it holds
  // trivially there.
  cl::Event slow_kernel(const cl::CommandQueue& queue) {
    if (!slow_program_()) {
      slow_program_ = build_program(context(), device(), kSlowSource);
      EXPECT_NE(slow_program_(), nullptr);
      slow_output_ = cl::Buffer(context(), CL_MEM_READ_WRITE, 4096 * sizeof(cl_uint));
    }
    cl::Kernel kernel(slow_program_, "slow");
    EXPECT_EQ(kernel.setArg(0, slow_output_), CL_SUCCESS);
    EXPECT_EQ(kernel.setArg(1, cl_uint{20000}), CL_SUCCESS);
    cl::Event done;
    EXPECT_EQ(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(4096), cl::NullRange,
                                         nullptr, &done),
              CL_SUCCESS);
    return done;
  }

 private:
  cl::Program slow_program_;
  cl::Buffer slow_output_;
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
    EXPECT_NE(message.find("SVMAllocator: fine-grain SVM (CL_MEM_SVM_FINE_GRAIN_BUFFER) was asked "
                           "for, but device '" +
                           device().getInfo<CL_DEVICE_NAME>() + "' has no fine-grain SVM buffers"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("CL_DEVICE_SVM_CAPABILITIES: CL_DEVICE_SVM_COARSE_GRAIN_BUFFER"),
              std::string::npos)
        << message;
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

TEST_P(OpenCLSVMPool, PooledSVMIsEqualAndHashedByItsPointer) {
  SVMPool pool(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
  PooledSVM a = pool.allocate(64);
  PooledSVM b = pool.allocate(64);
  EXPECT_TRUE(a == a);
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(a != b);
  EXPECT_EQ(std::hash<PooledSVM>()(a), std::hash<void*>()(a.ptr()));
  std::unordered_set<void*> seen;
  std::unordered_set<std::size_t> hashes;
  for (const PooledSVM* pooled : {&a, &b}) {
    seen.insert(pooled->ptr());
    hashes.insert(std::hash<PooledSVM>()(*pooled));
  }
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_EQ(hashes.size(), 2u);
  void* const b_ptr = b.ptr();
  a.release();
  b.release();
  EXPECT_TRUE(a == b) << "released handles hold no pointer";
  PooledSVM c = pool.allocate(64);  // b's block again, the last one returned
  ASSERT_EQ(c.ptr(), b_ptr);
  EXPECT_EQ(std::hash<PooledSVM>()(c), std::hash<void*>()(b_ptr));
  EXPECT_FALSE(c == a);
}

TEST_P(OpenCLSVMPool, BindingToAQueueOfAnotherContextIsRefused) {
  SVMPool pool(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
  PooledSVM pooled = pool.allocate(64);
  const cl::Context other = make_context();
  const cl::CommandQueue foreign(other, device());
  const std::string message =
      thrown_message<polydev::error>([&] { pooled.bind_to_queue(foreign); });
  EXPECT_NE(message.find("PooledSVM::bind_to_queue: the queue belongs to another context than "
                         "the pool's"),
            std::string::npos)
      << message;
  EXPECT_EQ(pooled.queue(), queue()()) << "a refused binding keeps the old one";
}

// ----- SVMAllocation: what an SVMAllocator hands out when called, and PyOpenCL's constructor.

TEST_P(OpenCLSVMPool, CallingTheAllocatorGivesAnAllocationThatOwnsItself) {
  const SVMAllocator allocator(context(), 0, CL_MEM_READ_WRITE, queue());
  SVMAllocation allocation = allocator(1000);
  EXPECT_TRUE(allocation.valid());
  ASSERT_NE(allocation.ptr(), nullptr);
  EXPECT_EQ(allocation.size(), 1000u);
  EXPECT_EQ(allocation.queue(), queue()()) << "bound to the allocator's queue";
  EXPECT_EQ(allocation.context()(), context()());
  fill(queue(), allocation.ptr(), 250, 9u);
  EXPECT_EQ(read(queue(), allocation.ptr(), 250), std::vector<cl_uint>(250, 9u));

  SVMAllocation empty = allocator(0);
  EXPECT_TRUE(empty.valid()) << "0 bytes is an allocation with a null pointer, as PyOpenCL's";
  EXPECT_EQ(empty.ptr(), nullptr);
  EXPECT_EQ(empty.size(), 0u);
  empty.release();
  EXPECT_FALSE(empty.valid());

  SVMAllocation moved(std::move(allocation));
  EXPECT_FALSE(allocation.valid());  // NOLINT(bugprone-use-after-move): specified moved-from state
  EXPECT_EQ(allocation.ptr(), nullptr);
  EXPECT_TRUE(moved.valid());
  moved.release();  // enqueued on the bound queue
  EXPECT_FALSE(moved.valid());
  EXPECT_EQ(moved.size(), 0u);
  const std::string twice = thrown_message<polydev::error>([&] { moved.release(); });
  EXPECT_NE(twice.find("SVMAllocation::release: the allocation was released"), std::string::npos)
      << twice;
  EXPECT_EQ(queue().finish(), CL_SUCCESS);

  const SVMAllocator unbound(context());
  SVMAllocation at_once = unbound(64);
  EXPECT_EQ(at_once.queue(), nullptr);
  at_once.release();  // clSVMFree at once
}

TEST_P(OpenCLSVMPool, AllocationConstructorChecksWhatTheAllocatorChecks) {
  SVMAllocation allocation(context(), 256, 64, CL_MEM_READ_WRITE, queue());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(allocation.ptr()) % 64, 0u);
  EXPECT_EQ(allocation.queue(), queue()());
  const std::string alignment =
      thrown_message<polydev::error>([&] { SVMAllocation bad(context(), 16, 48); });
  EXPECT_NE(alignment.find("SVMAllocation: alignment 48 is not a power of two"), std::string::npos)
      << alignment;
  const cl::Context other = make_context();
  const cl::CommandQueue foreign(other, device());
  const std::string context_message = thrown_message<polydev::error>(
      [&] { SVMAllocation bad(context(), 16, 0, CL_MEM_READ_WRITE, foreign); });
  EXPECT_NE(context_message.find("SVMAllocation: the queue belongs to another context"),
            std::string::npos)
      << context_message;
  const std::size_t too_large =
      static_cast<std::size_t>(device().getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>()) + 1;
  try {
    SVMAllocation huge(context(), too_large);
    ADD_FAILURE() << "an allocation of " << too_large << " bytes succeeded";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.code(), CL_INVALID_BUFFER_SIZE) << failure.what();
    EXPECT_NE(std::string(failure.what()).find("SVMAllocation: "), std::string::npos)
        << failure.what();
  }
}

TEST_P(OpenCLSVMPool, EnqueueReleaseFreesAfterTheWaitListAndReturnsTheEvent) {
  SVMAllocation allocation(context(), 4096, 0, CL_MEM_READ_WRITE, queue());
  fill(queue(), allocation.ptr(), 1024, 3u);
  const cl::CommandQueue other = second_queue();
  const cl::Event slow = slow_kernel(other);
  ASSERT_EQ(other.flush(), CL_SUCCESS);
  const cl::Event freed = allocation.enqueue_release({slow});
  EXPECT_FALSE(allocation.valid()) << "the handle owns nothing once the free is enqueued";
  EXPECT_EQ(allocation.ptr(), nullptr);
  EXPECT_EQ(freed.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_SVM_FREE));
  ASSERT_EQ(freed.wait(), CL_SUCCESS);
  EXPECT_EQ(slow.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(), CL_COMPLETE)
      << "the free ran before the kernel in its wait list had finished";

  // Released: every use is refused.
  for (const auto& [name, use] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"enqueue_release", [&] { allocation.enqueue_release(); }},
           {"enqueue_release", [&] { allocation.enqueue_release(queue()); }},
           {"bind_to_queue", [&] { allocation.bind_to_queue(queue()); }},
           {"unbind_from_queue", [&] { allocation.unbind_from_queue(); }},
       }) {
    const std::string message = thrown_message<polydev::error>(use);
    EXPECT_NE(message.find("SVMAllocation::" + name + ": the allocation was released"),
              std::string::npos)
        << message;
  }
  const std::string span =
      thrown_message<polydev::error>([&] { polydev::opencl::memory::SVMSpan bad(allocation); });
  EXPECT_NE(span.find("the SVMAllocation was released"), std::string::npos) << span;
}

TEST_P(OpenCLSVMPool, EnqueueReleaseNeedsAQueueAndOrdersAfterTheBoundOne) {
  const SVMAllocator unbound_allocator(context());
  SVMAllocation unbound = unbound_allocator(256);
  const std::string no_queue = thrown_message<polydev::error>([&] { unbound.enqueue_release(); });
  EXPECT_NE(no_queue.find("SVMAllocation::enqueue_release: no queue was given and the allocation "
                          "is bound to none"),
            std::string::npos)
      << no_queue;
  EXPECT_TRUE(unbound.valid()) << "a refused release keeps the memory";
  EXPECT_EQ(unbound.enqueue_release(queue()).wait(), CL_SUCCESS);

  // Bound to `other`, freed on the fixture's queue: the free waits for the work on `other`
  // (which the test does not flush: the release must, or the free would wait forever).
  const cl::CommandQueue other = second_queue();
  SVMAllocation bound(context(), 256, 0, CL_MEM_READ_WRITE, other);
  const cl::Event slow = slow_kernel(other);
  const cl::Event freed = bound.enqueue_release(queue());
  ASSERT_EQ(freed.wait(), CL_SUCCESS);
  EXPECT_EQ(slow.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(), CL_COMPLETE)
      << "the free ran before the work already on the bound queue had finished";

  // 0 bytes: nothing to free, but a marker that waits for the wait list.
  SVMAllocation empty = unbound_allocator(0);
  const cl::Event marker = empty.enqueue_release(queue());
  EXPECT_NE(marker.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_SVM_FREE));
  EXPECT_EQ(marker.wait(), CL_SUCCESS);
  EXPECT_FALSE(empty.valid());

  const cl::Context foreign_context = make_context();
  const cl::CommandQueue foreign(foreign_context, device());
  SVMAllocation kept = unbound_allocator(64);
  const std::string wrong = thrown_message<polydev::error>([&] { kept.enqueue_release(foreign); });
  EXPECT_NE(wrong.find("SVMAllocation::enqueue_release: the queue belongs to another context"),
            std::string::npos)
      << wrong;
  EXPECT_TRUE(kept.valid());
}

// A wait list OpenCL refuses (an event of another context): a backend error, and the handle still
// owns the memory, which a later release frees.
TEST_P(OpenCLSVMPool, AFreeThatOpenCLRefusesLeavesTheMemoryOwned) {
  SVMAllocation allocation(context(), 128, 0, CL_MEM_READ_WRITE, queue());
  const cl::Context other = make_context();
  const cl::CommandQueue foreign_queue(other, device());
  cl::Event foreign;
  ASSERT_EQ(foreign_queue.enqueueMarkerWithWaitList(nullptr, &foreign), CL_SUCCESS);
  ASSERT_EQ(foreign.wait(), CL_SUCCESS);
  try {
    allocation.enqueue_release({foreign});
    ADD_FAILURE() << "clEnqueueSVMFree accepted an event of another context";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.api(), "clEnqueueSVMFree");
    EXPECT_EQ(failure.code(), CL_INVALID_CONTEXT) << failure.what();
  }
  EXPECT_TRUE(allocation.valid());
  EXPECT_NE(allocation.ptr(), nullptr);
  allocation.release();
  EXPECT_EQ(queue().finish(), CL_SUCCESS);
}

TEST_P(OpenCLSVMPool, AllocationsBindUnbindAndRefuseQueuesTheyCannotUse) {
  const SVMAllocator allocator(context());
  SVMAllocation allocation = allocator(64);
  EXPECT_EQ(allocation.queue(), nullptr);
  allocation.bind_to_queue(queue());
  EXPECT_EQ(allocation.queue(), queue()());
  const cl::CommandQueue other = second_queue();
  allocation.bind_to_queue(other);
  EXPECT_EQ(allocation.queue(), other());
  allocation.unbind_from_queue();
  EXPECT_EQ(allocation.queue(), nullptr);
  allocation.unbind_from_queue();  // unbound already: nothing to do

  const cl::Context foreign_context = make_context();
  const cl::CommandQueue foreign(foreign_context, device());
  const std::string wrong =
      thrown_message<polydev::error>([&] { allocation.bind_to_queue(foreign); });
  EXPECT_NE(wrong.find("SVMAllocation::bind_to_queue: the queue belongs to another context"),
            std::string::npos)
      << wrong;
  EXPECT_EQ(allocation.queue(), nullptr);

  const auto supported = device().getInfo<CL_DEVICE_QUEUE_ON_HOST_PROPERTIES>();
  if ((supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0) {
    const cl::CommandQueue out_of_order(context(), device(),
                                        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    const std::string message =
        thrown_message<polydev::error>([&] { allocation.bind_to_queue(out_of_order); });
    EXPECT_NE(message.find("SVMAllocation::bind_to_queue: the queue is out of order"),
              std::string::npos)
        << message;
  }
}

TEST_P(OpenCLSVMPool, AllocationsAreEqualAndHashedByTheirPointer) {
  const SVMAllocator allocator(context());
  SVMAllocation a = allocator(32);
  SVMAllocation b = allocator(32);
  EXPECT_TRUE(a == a);
  EXPECT_TRUE(a != b);
  EXPECT_EQ(std::hash<SVMAllocation>()(a), std::hash<void*>()(a.ptr()));
  EXPECT_NE(std::hash<SVMAllocation>()(a), std::hash<SVMAllocation>()(b));
  a.release();
  b.release();
  EXPECT_TRUE(a == b) << "released allocations hold no pointer";
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLSVMPool);

// The capability checks behind SVMAllocator, SVMAllocation and svm_empty, on capabilities this
// machine's devices may not have.
TEST(OpenCLSVMCapabilities, NamesEveryBit) {
  using polydev::opencl::detail::svm_capability_names;
  EXPECT_EQ(svm_capability_names(0), "none");
  EXPECT_EQ(svm_capability_names(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER),
            "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER");
  EXPECT_EQ(
      svm_capability_names(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                           CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS),
      "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER | "
      "CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS");
  EXPECT_EQ(svm_capability_names(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | (1u << 10)),
            "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | 0x400");
}

TEST(OpenCLSVMCapabilities, RefusalsSayWhatWasAskedAndWhatTheDeviceHas) {
  using polydev::opencl::detail::svm_flags_problem;
  const cl_device_svm_capabilities coarse = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
  EXPECT_EQ(svm_flags_problem("gpu", coarse, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                              "fsvm_empty"),
            "fsvm_empty: fine-grain SVM (CL_MEM_SVM_FINE_GRAIN_BUFFER) was asked for, but device "
            "'gpu' has no fine-grain SVM buffers (its CL_DEVICE_SVM_CAPABILITIES: "
            "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER); use coarse-grain SVM (csvm_empty, or flags "
            "without CL_MEM_SVM_FINE_GRAIN_BUFFER), which the host maps before it touches the "
            "memory");
  EXPECT_EQ(svm_flags_problem("old", 0, CL_MEM_READ_WRITE, "SVMAllocator"),
            "SVMAllocator: device 'old' does not support shared virtual memory (its "
            "CL_DEVICE_SVM_CAPABILITIES: none); SVM needs an OpenCL 2.0 or later device with "
            "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER");
  const std::optional<std::string> atomics = svm_flags_problem(
      "gpu", coarse | CL_DEVICE_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, "svm_empty");
  ASSERT_TRUE(atomics.has_value());
  EXPECT_NE(atomics->find("svm_empty: SVM atomics (CL_MEM_SVM_ATOMICS) were asked for, but device "
                          "'gpu' does not support them (its CL_DEVICE_SVM_CAPABILITIES: "
                          "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER)"),
            std::string::npos)
      << *atomics;
  EXPECT_EQ(svm_flags_problem("gpu", coarse, CL_MEM_READ_WRITE, "svm_empty"), std::nullopt);
  EXPECT_EQ(svm_flags_problem("gpu", coarse | CL_DEVICE_SVM_FINE_GRAIN_BUFFER,
                              CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, "fsvm_empty"),
            std::nullopt);
}

}  // namespace
