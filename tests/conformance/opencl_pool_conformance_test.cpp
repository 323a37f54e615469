// The conformance suite on polydev's OpenCL buffer pools, on every selected device, over both
// buffer allocators.
#include <polydev/gtest.hpp>

#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory_pool.hpp"
#include "polydev/testing/conformance/pool_conformance.hpp"

namespace {

using polydev::opencl::MemoryPool;
using polydev::opencl::PooledBuffer;

class BufferPoolAccess : public polydev::testing::OpenCLTest {
 public:
  void write(const PooledBuffer& block, const std::vector<unsigned char>& bytes) {
    polydev::opencl::check(
        queue().enqueueWriteBuffer(block.buffer(), CL_TRUE, 0, bytes.size(), bytes.data()),
        "clEnqueueWriteBuffer");
  }
  std::vector<unsigned char> read(const PooledBuffer& block, std::size_t count) {
    std::vector<unsigned char> bytes(count);
    polydev::opencl::check(
        queue().enqueueReadBuffer(block.buffer(), CL_TRUE, 0, count, bytes.data()),
        "clEnqueueReadBuffer");
    return bytes;
  }
};

class DeferredBufferPoolConformance : public BufferPoolAccess {
 public:
  MemoryPool make_pool() { return MemoryPool(polydev::opencl::DeferredAllocator(context())); }
};

// Immediate allocation enqueues on the fixture's queue; the many-thread check then has several
// threads enqueue on one queue, which deadlocks PoCL 3.1 (see tests/pools): it runs deferred only.
class ImmediateBufferPoolConformance : public BufferPoolAccess {
 public:
  MemoryPool make_pool() { return MemoryPool(polydev::opencl::ImmediateAllocator(queue())); }
};

POLYDEV_POOL_CONFORMANCE_TESTS(DeferredBufferPoolConformance)
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(DeferredBufferPoolConformance);

TEST_P(ImmediateBufferPoolConformance, AllSizesAreServedAndCounted) {
  auto pool = make_pool();
  polydev::testing::conformance::all_sizes_are_served_and_counted(pool);
}
TEST_P(ImmediateBufferPoolConformance, WrittenDataReadsBackIntact) {
  auto pool = make_pool();
  polydev::testing::conformance::written_data_reads_back_intact(*this, pool);
}
TEST_P(ImmediateBufferPoolConformance, ReturnedBlockIsReused) {
  auto pool = make_pool();
  polydev::testing::conformance::a_returned_block_is_reused_for_the_same_size_class(pool);
}
TEST_P(ImmediateBufferPoolConformance, StopHoldingFreesEverything) {
  auto pool = make_pool();
  polydev::testing::conformance::stop_holding_frees_everything_from_then_on(pool);
}
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(ImmediateBufferPoolConformance);

}  // namespace
