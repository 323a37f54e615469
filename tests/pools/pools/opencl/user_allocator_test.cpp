// MemoryPool and SVMPool over allocators of the user's (the pool's allocator concept, as
// subclassing PyOpenCL's AllocatorBase gives), on every selected OpenCL device: the pool calls
// them as it calls its own, the counters are right, their optional members are used, and types
// that miss a requirement are not allocators (checked at compile time below).
#include <CL/opencl.hpp>
#include <atomic>
#include <cstddef>
#include <memory>
#include <numeric>
#include <polydev/gtest.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/buffer_allocators.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory/svm_operations.hpp"
#include "polydev/opencl/memory_pool.hpp"
#include "polydev/opencl/svm_pool.hpp"
#include "polydev/pools/pool.hpp"
#include "support/opencl_checks.hpp"
#include "support/pool_counters.hpp"

namespace {

using polydev::opencl::AnySVMAllocator;
using polydev::opencl::BufferAllocator;
using polydev::opencl::DeferredAllocator;
using polydev::opencl::ImmediateAllocator;
using polydev::opencl::is_buffer_allocator_v;
using polydev::opencl::is_svm_allocator_v;
using polydev::opencl::MemoryPool;
using polydev::opencl::PooledBuffer;
using polydev::opencl::PooledSVM;
using polydev::opencl::SVMAllocator;
using polydev::opencl::SVMBlock;
using polydev::opencl::SVMPool;
using polydev::pools::allocator_requirements;
using polydev::pools::is_allocator_v;
using polydev::testing::pools_support::expect_counters;
using polydev::testing::pools_support::thrown_message;

// What a user's allocator was asked, shared by its copies: the pool holds its own copy.
struct CallCounts {
  std::atomic<std::size_t> allocations{0};
  std::atomic<std::size_t> allocated_bytes{0};
  std::atomic<std::size_t> frees{0};
  std::atomic<std::size_t> hand_outs{0};
  std::atomic<bool> fail_next{false};  // the next allocate throws polydev::out_of_memory
};

// A buffer allocator of the user's: counts what the pool asks of it and lets ImmediateAllocator
// make the buffers. It has the reuse hook but no context() and no is_deferred().
class CountingBufferAllocator {
 public:
  using block_type = cl::Buffer;

  explicit CountingBufferAllocator(cl::CommandQueue queue) : upstream_(std::move(queue)) {}

  cl::Buffer allocate(std::size_t bytes) {
    if (counts_->fail_next.exchange(false)) {
      throw polydev::out_of_memory("CountingBufferAllocator: told to fail");
    }
    ++counts_->allocations;
    counts_->allocated_bytes += bytes;
    return upstream_.allocate(bytes);
  }
  void free(cl::Buffer /*block*/) noexcept { ++counts_->frees; }
  void hand_out_existing_block(cl::Buffer& /*block*/) { ++counts_->hand_outs; }

  CallCounts& counts() const { return *counts_; }

 private:
  ImmediateAllocator upstream_;
  std::shared_ptr<CallCounts> counts_ = std::make_shared<CallCounts>();
};

// Host-visible buffers (CL_MEM_ALLOC_HOST_PTR), made with the bindings; deferred, and it tells its
// context.
class HostMemoryAllocator {
 public:
  using block_type = cl::Buffer;

  explicit HostMemoryAllocator(cl::Context context) : context_(std::move(context)) {}

  cl::Buffer allocate(std::size_t bytes) const {
    cl_int status = CL_SUCCESS;
    cl::Buffer buffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &status);
    polydev::opencl::check(status, "clCreateBuffer", "HostMemoryAllocator");
    return buffer;
  }
  void free(cl::Buffer /*block*/) const noexcept {}
  static bool is_deferred() noexcept { return true; }
  const cl::Context& context() const noexcept { return context_; }

 private:
  cl::Context context_;
};

// An SVM allocator of the user's: counts, and lets SVMAllocator (queue binding included) work.
class CountingSVMAllocator {
 public:
  using block_type = SVMBlock;

  explicit CountingSVMAllocator(SVMAllocator upstream) : upstream_(std::move(upstream)) {}

  SVMBlock allocate(std::size_t bytes) {
    ++counts_->allocations;
    counts_->allocated_bytes += bytes;
    return upstream_.allocate(bytes);
  }
  void free(SVMBlock block) noexcept {
    ++counts_->frees;
    upstream_.free(std::move(block));
  }
  void hand_out_existing_block(SVMBlock& block) {
    ++counts_->hand_outs;
    upstream_.hand_out_existing_block(block);
  }
  const cl::Context& context() const noexcept { return upstream_.context(); }

  CallCounts& counts() const { return *counts_; }

 private:
  SVMAllocator upstream_;
  std::shared_ptr<CallCounts> counts_ = std::make_shared<CallCounts>();
};

// ----- The concept, at compile time: what meets it, and each requirement a type can miss.

static_assert(is_buffer_allocator_v<CountingBufferAllocator>);
static_assert(is_buffer_allocator_v<HostMemoryAllocator>);
static_assert(is_buffer_allocator_v<DeferredAllocator>);
static_assert(is_buffer_allocator_v<ImmediateAllocator>);
static_assert(is_buffer_allocator_v<BufferAllocator>);
static_assert(is_svm_allocator_v<CountingSVMAllocator>);
static_assert(is_svm_allocator_v<SVMAllocator>);
static_assert(is_svm_allocator_v<AnySVMAllocator>);
static_assert(!is_buffer_allocator_v<CountingSVMAllocator>);
static_assert(!is_svm_allocator_v<CountingBufferAllocator>);
// Allocators of the concept convert to what the pools hold; other types do not.
static_assert(std::is_convertible_v<CountingBufferAllocator, BufferAllocator>);
static_assert(std::is_convertible_v<CountingSVMAllocator, AnySVMAllocator>);
static_assert(!std::is_convertible_v<CountingSVMAllocator, BufferAllocator>);

struct NoBlockType {
  cl::Buffer allocate(std::size_t);
  void free(cl::Buffer) noexcept;
};
static_assert(!allocator_requirements<NoBlockType>::has_block_type);
static_assert(!is_allocator_v<NoBlockType> && !is_buffer_allocator_v<NoBlockType>);
static_assert(!std::is_convertible_v<NoBlockType, BufferAllocator>);

struct PointerBlocks {  // an allocator, but not of buffers
  using block_type = void*;
  void* allocate(std::size_t);
  void free(void*) noexcept;
};
static_assert(is_allocator_v<PointerBlocks>);
static_assert(!polydev::opencl::buffer_allocator_requirements<PointerBlocks>::makes_buffers);
static_assert(!is_buffer_allocator_v<PointerBlocks> && !is_svm_allocator_v<PointerBlocks>);

struct NoAllocate {
  using block_type = cl::Buffer;
  void free(cl::Buffer) noexcept;
};
static_assert(!allocator_requirements<NoAllocate>::has_allocate);
static_assert(!is_buffer_allocator_v<NoAllocate>);

struct AllocateGivesSomethingElse {
  using block_type = cl::Buffer;
  int allocate(std::size_t);
  void free(cl::Buffer) noexcept;
};
static_assert(!allocator_requirements<AllocateGivesSomethingElse>::has_allocate);
static_assert(!is_buffer_allocator_v<AllocateGivesSomethingElse>);

struct NoFree {
  using block_type = cl::Buffer;
  cl::Buffer allocate(std::size_t);
};
static_assert(!allocator_requirements<NoFree>::has_free);
static_assert(!is_buffer_allocator_v<NoFree>);

struct FreeMayThrow {
  using block_type = cl::Buffer;
  cl::Buffer allocate(std::size_t);
  void free(cl::Buffer);
};
static_assert(allocator_requirements<FreeMayThrow>::has_free);
static_assert(!allocator_requirements<FreeMayThrow>::free_is_noexcept);
static_assert(!is_buffer_allocator_v<FreeMayThrow>);

struct BlockWithoutEmptyState {
  struct Handle {
    explicit Handle(int) {}
  };
  using block_type = Handle;
  Handle allocate(std::size_t);
  void free(Handle) noexcept;
};
static_assert(!allocator_requirements<BlockWithoutEmptyState>::block_is_handle);
static_assert(!is_allocator_v<BlockWithoutEmptyState>);

struct Immovable {
  using block_type = cl::Buffer;
  Immovable() = default;
  Immovable(Immovable&&) = delete;
  cl::Buffer allocate(std::size_t);
  void free(cl::Buffer) noexcept;
};
static_assert(!allocator_requirements<Immovable>::is_movable);
static_assert(!is_buffer_allocator_v<Immovable>);

// ----- Buffer pools over the user's allocators, on every device.

// Makes the next allocation of the pool's CountingBufferAllocator fail with out-of-memory.
void counts_fail_next(const MemoryPool& pool) {
  pool.allocator().target<CountingBufferAllocator>()->counts().fail_next = true;
}

class OpenCLUserAllocator : public polydev::testing::OpenCLTest {
 protected:
  // Writes `count` words into `buffer` and reads them back.
  void expect_round_trip(const cl::Buffer& buffer, std::size_t count) {
    std::vector<cl_uint> written(count);
    std::iota(written.begin(), written.end(), 5u);
    std::vector<cl_uint> read(count);
    const std::size_t bytes = count * sizeof(cl_uint);
    ASSERT_EQ(queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, written.data()), CL_SUCCESS);
    ASSERT_EQ(queue().enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, read.data()), CL_SUCCESS);
    EXPECT_EQ(read, written);
  }
};

TEST_P(OpenCLUserAllocator, MemoryPoolCallsTheUsersAllocatorAsItsOwn) {
  MemoryPool pool(CountingBufferAllocator{queue()});
  const auto* user = pool.allocator().target<CountingBufferAllocator>();
  ASSERT_NE(user, nullptr);
  EXPECT_EQ(pool.allocator().target<ImmediateAllocator>(), nullptr);
  EXPECT_EQ(pool.allocator().deferred(), nullptr);
  EXPECT_FALSE(pool.allocator().is_deferred()) << "no is_deferred(): treated as immediate";
  EXPECT_EQ(pool.allocator().context()(), nullptr) << "no context(): an empty context";
  const CallCounts& calls = user->counts();

  PooledBuffer a = pool.allocate(1000);
  expect_counters(pool, {0, 1, 1024, 1000}, "a = allocate(1000)");
  EXPECT_EQ(calls.allocations, 1u);
  EXPECT_EQ(calls.allocated_bytes, 1024u) << "the pool asks for the size class";
  EXPECT_EQ(a.buffer().getInfo<CL_MEM_SIZE>(), 1024u);
  expect_round_trip(a, 250);
  const cl_mem a_memory = a.get();

  a.release();
  expect_counters(pool, {1, 0, 1024, 0}, "a.release()");
  EXPECT_EQ(calls.frees, 0u) << "a returned block is held, not freed";
  PooledBuffer b = pool.allocate(1010);
  EXPECT_EQ(b.get(), a_memory);
  EXPECT_EQ(calls.allocations, 1u);
  EXPECT_EQ(calls.hand_outs, 1u) << "the reuse hook of the user's allocator runs on reuse";

  PooledBuffer c = pool.allocate(5000);
  EXPECT_EQ(calls.allocations, 2u);
  EXPECT_EQ(calls.allocated_bytes, 1024u + 5120u);
  c.release();
  b.release();
  expect_counters(pool, {2, 0, 6144, 0}, "both returned");
  pool.free_held();
  expect_counters(pool, {0, 0, 0, 0}, "free_held()");
  EXPECT_EQ(calls.frees, 2u) << "held blocks go back to the user's free";

  // Out of memory from the user's allocator: the pool frees what it holds and asks again.
  pool.allocate(64).release();
  counts_fail_next(pool);
  PooledBuffer d = pool.allocate(300);
  EXPECT_TRUE(d.valid());
  EXPECT_EQ(calls.frees, 3u) << "the held 64-byte block was freed to make room";
  expect_counters(pool, {0, 1, 304, 300}, "d = allocate(300) after the retry");
}

TEST_P(OpenCLUserAllocator, ErrorsOfTheUsersAllocatorReachTheCallerUnchanged) {
  MemoryPool pool(CountingBufferAllocator{queue()});
  counts_fail_next(pool);
  const std::string message = thrown_message<polydev::out_of_memory>([&] { pool.allocate(128); });
  EXPECT_NE(message.find("pool allocation of 128 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("CountingBufferAllocator: told to fail"), std::string::npos) << message;
  expect_counters(pool, {0, 0, 0, 0}, "a failed allocation");
}

TEST_P(OpenCLUserAllocator, HostMemoryAllocatorGivesHostVisibleBuffersAndTellsItsContext) {
  MemoryPool pool{HostMemoryAllocator(context())};
  EXPECT_TRUE(pool.allocator().is_deferred());
  EXPECT_EQ(pool.allocator().context()(), context()());
  ASSERT_NE(pool.allocator().target<HostMemoryAllocator>(), nullptr);
  PooledBuffer pooled = pool.allocate(4096);
  EXPECT_NE(pooled.buffer().getInfo<CL_MEM_FLAGS>() & CL_MEM_ALLOC_HOST_PTR, 0u);
  expect_round_trip(pooled, 1024);
  cl_int status = CL_SUCCESS;
  void* mapped =
      queue().enqueueMapBuffer(pooled, CL_TRUE, CL_MAP_READ, 0, 16, nullptr, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(*static_cast<const cl_uint*>(mapped), 5u);
  ASSERT_EQ(queue().enqueueUnmapMemObject(pooled, mapped), CL_SUCCESS);
  ASSERT_EQ(queue().finish(), CL_SUCCESS);
}

// PyOpenCL's allocators are callable because AllocatorBase is; a user's allocator is through
// BufferAllocator.
TEST_P(OpenCLUserAllocator, AUsersAllocatorIsCallableThroughBufferAllocator) {
  const BufferAllocator wrapped(CountingBufferAllocator{queue()});
  const CallCounts& calls = wrapped.target<CountingBufferAllocator>()->counts();
  {
    const cl::Buffer buffer = wrapped(64);
    EXPECT_EQ(buffer.getInfo<CL_MEM_SIZE>(), 64u);
    expect_round_trip(buffer, 16);
    EXPECT_EQ(calls.allocations, 1u);
  }
  EXPECT_EQ(calls.frees, 0u) << "the buffer owns itself: the allocator's free is the pool's";
  const BufferAllocator host(HostMemoryAllocator{context()});
  EXPECT_NE(host(32).getInfo<CL_MEM_FLAGS>() & CL_MEM_ALLOC_HOST_PTR, 0u);
  // Copies share the user's allocator, as PyOpenCL's pools share theirs.
  const BufferAllocator copy = wrapped;
  EXPECT_EQ(copy.target<CountingBufferAllocator>(), wrapped.target<CountingBufferAllocator>());
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLUserAllocator);

// ----- SVM pools over a user's allocator, on every device with coarse-grain SVM.

class OpenCLUserSVMAllocator : public polydev::testing::OpenCLTest {
 protected:
  // Devices without coarse-grain SVM skip in OpenCLTest::SetUp, with what SVM they have.
  polydev::testing::Capabilities required_capabilities() const override {
    return {polydev::testing::svm_coarse_grain_buffer()};
  }
};

TEST_P(OpenCLUserSVMAllocator, SVMPoolCallsTheUsersAllocatorAsItsOwn) {
  SVMPool pool(CountingSVMAllocator(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue())));
  const auto* user = pool.allocator().target<CountingSVMAllocator>();
  ASSERT_NE(user, nullptr);
  EXPECT_EQ(pool.allocator().target<SVMAllocator>(), nullptr);
  EXPECT_EQ(pool.allocator().context()(), context()());
  const CallCounts& calls = user->counts();

  PooledSVM a = pool.allocate(100);
  expect_counters(pool, {0, 1, 100, 100}, "a = allocate(100)");
  EXPECT_EQ(calls.allocations, 1u);
  EXPECT_EQ(a.queue(), queue()()) << "the wrapped SVMAllocator binds to its queue";
  polydev::opencl::memory::enqueue_svm_memfill(queue(), a, cl_uint{0x01020304u});
  std::vector<cl_uint> read(25);
  polydev::opencl::memory::enqueue_svm_memcpy(
      queue(), polydev::opencl::memory::SVMSpan(read.data(), 100), a);
  EXPECT_EQ(read, std::vector<cl_uint>(25, 0x01020304u));
  void* const a_ptr = a.ptr();

  const cl::CommandQueue other(context(), device());
  a.bind_to_queue(other);
  a.release();
  EXPECT_EQ(calls.frees, 0u);
  PooledSVM b = pool.allocate(99);  // the class of 100
  EXPECT_EQ(b.ptr(), a_ptr);
  EXPECT_EQ(calls.hand_outs, 1u);
  EXPECT_EQ(b.queue(), queue()()) << "the user's hook forwarded to SVMAllocator's rebinding";
  b.release();
  pool.free_held();
  EXPECT_EQ(calls.frees, 1u);
  expect_counters(pool, {0, 0, 0, 0}, "free_held()");
  ASSERT_EQ(queue().finish(), CL_SUCCESS);
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLUserSVMAllocator);

}  // namespace
