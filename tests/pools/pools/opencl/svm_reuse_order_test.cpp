// Reuse of a pooled SVM block across two queues is ordered: a block returned while a slow kernel on
// queue A still writes it, then handed out for queue B, is written by B only after A's kernel.
//
// Queue A is never flushed by the test. If the pool did not order B after A, B's fill would
// complete while A's kernel is still queued or running, and the kernel would then overwrite B's
// data; if the pool ordered B after A without flushing A, B would wait forever (the ctest timeout
// fails it). A device that runs each command before its enqueue call returns (PoCL's 'basic')
// leaves no pending work to order after: there the tests skip, saying so.
#include <polydev/gtest.hpp>
#include <vector>

#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/svm_pool.hpp"
#include "support/opencl_checks.hpp"

namespace {

using polydev::opencl::PooledSVM;
using polydev::opencl::SVMAllocator;
using polydev::opencl::SVMPool;
using polydev::testing::pools_support::build_program;

// Each work item spins before its store, so that the kernel is still running (on devices that
// start it) when the host enqueues the next user's commands. The spin's result is part of the
// stored value through `mask`, a run-time 0, so that the compiler cannot drop the loop.
constexpr const char* kSlowWriteSource = R"CLC(
__kernel void slow_write(__global uint* data, uint value, uint rounds, uint mask) {
  const size_t i = get_global_id(0);
  uint state = (uint)i;
  for (uint r = 0; r < rounds; ++r) state = state * 1664525u + 1013904223u;
  data[i] = value ^ (state & mask);
}
)CLC";

constexpr std::size_t kWords = 4096;
constexpr std::size_t kBytes = kWords * sizeof(cl_uint);
constexpr cl_uint kRounds = 20000;
constexpr cl_uint kFromA = 0xaaaaaaaau;
constexpr cl_uint kFromB = 0xbbbbbbbbu;
constexpr const char* kRanAtEnqueue =
    "the device ran queue A's kernel before clEnqueueNDRangeKernel returned (no asynchronous "
    "execution): no work is pending when the block is reused, so there is no order to check";

class OpenCLSVMReuseOrder : public polydev::testing::OpenCLTest {
 protected:
  // Devices without coarse-grain SVM skip in OpenCLTest::SetUp, with what SVM they have.
  polydev::testing::Capabilities required_capabilities() const override {
    return {polydev::testing::svm_coarse_grain_buffer()};
  }

  void SetUp() override {
    OpenCLTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    program_ = build_program(context(), device(), kSlowWriteSource);
    ASSERT_NE(program_(), nullptr);
    queue_a_ = cl::CommandQueue(context(), device());
    queue_b_ = cl::CommandQueue(context(), device());
  }

  // Enqueues the slow kernel writing `kFromA` into `ptr` on queue A, without flushing A.
  cl::Event slow_write_on_a(void* ptr) {
    cl::Kernel kernel(program_, "slow_write");
    EXPECT_EQ(kernel.setArg(0, ptr), CL_SUCCESS);
    EXPECT_EQ(kernel.setArg(1, kFromA), CL_SUCCESS);
    EXPECT_EQ(kernel.setArg(2, kRounds), CL_SUCCESS);
    EXPECT_EQ(kernel.setArg(3, cl_uint{0}), CL_SUCCESS);
    cl::Event done;
    EXPECT_EQ(queue_a_.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kWords),
                                            cl::NullRange, nullptr, &done),
              CL_SUCCESS);
    return done;
  }

  // Fills the block with `kFromB` on queue B and waits for that fill only (not for queue A).
  void fill_on_b_and_wait(void* ptr) {
    cl::Event filled;
    ASSERT_EQ(
        clEnqueueSVMMemFill(queue_b_(), ptr, &kFromB, sizeof kFromB, kBytes, 0, nullptr, &filled()),
        CL_SUCCESS);
    ASSERT_EQ(filled.wait(), CL_SUCCESS);
  }

  // After both queues are done: every word must hold B's value, written after A's kernel.
  void expect_b_wins(void* ptr) {
    ASSERT_EQ(queue_b_.finish(), CL_SUCCESS);
    ASSERT_EQ(queue_a_.finish(), CL_SUCCESS);
    ASSERT_EQ(queue_b_.enqueueMapSVM(ptr, CL_TRUE, CL_MAP_READ, kBytes), CL_SUCCESS);
    const auto* words = static_cast<const cl_uint*>(ptr);
    const std::vector<cl_uint> seen(words, words + kWords);
    ASSERT_EQ(queue_b_.enqueueUnmapSVM(ptr), CL_SUCCESS);
    ASSERT_EQ(queue_b_.finish(), CL_SUCCESS);
    std::size_t clobbered = 0;
    for (cl_uint word : seen) clobbered += word != kFromB ? 1 : 0;
    EXPECT_EQ(clobbered, 0u) << "words overwritten by queue A's kernel after queue B's fill";
  }

  static cl_int status_of(const cl::Event& event) {
    return event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
  }

  cl::Program program_;
  cl::CommandQueue queue_a_;
  cl::CommandQueue queue_b_;
};

// The pool's allocator hands blocks out on queue B; the block's last user was queue A.
TEST_P(OpenCLSVMReuseOrder, ReuseOnTheAllocatorsQueueWaitsForTheReleasingQueue) {
  SVMPool pool(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue_b_));
  PooledSVM first = pool.allocate(kBytes);
  first.bind_to_queue(queue_a_);
  void* const block = first.ptr();
  const cl::Event kernel = slow_write_on_a(block);
  if (status_of(kernel) == CL_COMPLETE) GTEST_SKIP() << kRanAtEnqueue;
  first.enqueue_release();

  PooledSVM second = pool.allocate(kBytes);
  ASSERT_EQ(second.ptr(), block) << "the held block is reused";
  EXPECT_EQ(second.queue(), queue_b_());
  fill_on_b_and_wait(second.ptr());
  EXPECT_EQ(status_of(kernel), CL_COMPLETE) << "queue B ran before queue A's kernel had finished";
  expect_b_wins(second.ptr());
}

// The pool's allocator hands blocks out on queue A again; the new owner moves the block to B.
TEST_P(OpenCLSVMReuseOrder, BindingAReusedBlockToAnotherQueueWaitsForTheOldOne) {
  SVMPool pool(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue_a_));
  PooledSVM first = pool.allocate(kBytes);
  void* const block = first.ptr();
  const cl::Event kernel = slow_write_on_a(block);
  if (status_of(kernel) == CL_COMPLETE) GTEST_SKIP() << kRanAtEnqueue;
  first.release();

  PooledSVM second = pool.allocate(kBytes);
  ASSERT_EQ(second.ptr(), block);
  EXPECT_EQ(second.queue(), queue_a_());
  second.bind_to_queue(queue_b_);
  fill_on_b_and_wait(second.ptr());
  EXPECT_EQ(status_of(kernel), CL_COMPLETE) << "queue B ran before queue A's kernel had finished";
  expect_b_wins(second.ptr());
}

// A pool without a queue hands out unbound blocks, which the host may use at once: the reuse must
// wait until the releasing queue's work is done.
TEST_P(OpenCLSVMReuseOrder, ReuseWithoutAQueueWaitsUntilTheReleasingQueueIsDone) {
  SVMPool pool{SVMAllocator(context())};
  PooledSVM first = pool.allocate(kBytes);
  first.bind_to_queue(queue_a_);
  void* const block = first.ptr();
  const cl::Event kernel = slow_write_on_a(block);
  if (status_of(kernel) == CL_COMPLETE) GTEST_SKIP() << kRanAtEnqueue;
  first.release();

  PooledSVM second = pool.allocate(kBytes);
  ASSERT_EQ(second.ptr(), block);
  EXPECT_EQ(second.queue(), nullptr);
  EXPECT_EQ(status_of(kernel), CL_COMPLETE) << "an unbound block was handed out while in use";
  fill_on_b_and_wait(second.ptr());
  expect_b_wins(second.ptr());
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLSVMReuseOrder);

}  // namespace
