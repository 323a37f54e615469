// hostbuf, get_host_array and enqueue_migrate_mem_objects on every selected OpenCL device
// (polydev/opencl/memory/memory_object.hpp).
#include "polydev/opencl/memory/memory_object.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <polydev/gtest.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/memory/buffer_operations.hpp"
#include "polydev/opencl/memory/copy.hpp"
#include "polydev/opencl/memory_pool.hpp"
#include "pools/memory_operations/opencl/wait_gate.hpp"
#include "support/opencl_checks.hpp"

namespace {

using polydev::opencl::ImmediateAllocator;
using polydev::opencl::MemoryPool;
using polydev::opencl::Order;
using polydev::opencl::PooledBuffer;
using polydev::opencl::memory::enqueue_migrate_mem_objects;
using polydev::opencl::memory::get_host_array;
using polydev::opencl::memory::hostbuf;
using polydev::testing::pools_support::contains;
using polydev::testing::pools_support::execution_status;
using polydev::testing::pools_support::Gate;
using polydev::testing::pools_support::kRunsAtEnqueue;
using polydev::testing::pools_support::runs_commands_at_enqueue;
using polydev::testing::pools_support::thrown_message;

constexpr std::size_t kWord = sizeof(cl_uint);

class OpenCLMemoryObject : public polydev::testing::OpenCLTest {
 protected:
  void SetUp() override {
    OpenCLTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    pool_.emplace(ImmediateAllocator(queue()));
  }

  // A buffer over `host` (all of it) with CL_MEM_USE_HOST_PTR.
  cl::Buffer over(std::vector<cl_uint>& host) {
    cl_int status = CL_SUCCESS;
    cl::Buffer buffer(context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host.size() * kWord,
                      host.data(), &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return buffer;
  }

  std::vector<cl_uint> read_words(const cl::Buffer& buffer, std::size_t count) {
    std::vector<cl_uint> out(count);
    EXPECT_EQ(queue().enqueueReadBuffer(buffer, CL_TRUE, 0, count * kWord, out.data()), CL_SUCCESS);
    return out;
  }

  std::optional<MemoryPool> pool_;
};

TEST_P(OpenCLMemoryObject, HostbufIsTheHostMemoryABufferWasMadeOver) {
  const std::size_t align = device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
  ASSERT_GT(align, 0u);
  const std::size_t words = std::max<std::size_t>(64, 2 * align / kWord);
  std::vector<cl_uint> host(words);
  std::iota(host.begin(), host.end(), 0u);
  const cl::Buffer buffer = over(host);
  const std::optional<polydev::opencl::memory::HostSpan> span = hostbuf(buffer);
  ASSERT_TRUE(span.has_value());
  EXPECT_EQ(span->data(), host.data());
  EXPECT_EQ(span->size(), words * kWord);

  // A sub-buffer's host memory starts at its origin and spans its size.
  const cl::Buffer sub = polydev::opencl::memory::sub_region(buffer, align, 16);
  const std::optional<polydev::opencl::memory::HostSpan> part = hostbuf(sub);
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->data(), reinterpret_cast<unsigned char*>(host.data()) + align);
  EXPECT_EQ(part->size(), 16u);

  // Objects made without host memory have none (PyOpenCL's None), pooled buffers included.
  PooledBuffer pooled = pool_->allocate(256);
  EXPECT_FALSE(hostbuf(pooled.buffer()).has_value());
  cl_int status = CL_SUCCESS;
  const cl::Buffer copied(context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, words * kWord,
                          host.data(), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_FALSE(hostbuf(copied).has_value());

  const std::string empty = thrown_message<std::invalid_argument>([] { hostbuf(cl::Buffer()); });
  EXPECT_TRUE(contains(empty, "hostbuf: the memory object is an empty handle")) << empty;
}

TEST_P(OpenCLMemoryObject, HostbufOfAnImageSpansItsRows) {
  POLYDEV_REQUIRE(polydev::testing::images());
  std::vector<cl_uint> pixels(6 * 4, 5u);
  cl_int status = CL_SUCCESS;
  const cl::Image2D image(context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                          cl::ImageFormat(CL_RGBA, CL_UNSIGNED_INT8), 6, 4, 0, pixels.data(),
                          &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const std::optional<polydev::opencl::memory::HostSpan> span = hostbuf(image);
  ASSERT_TRUE(span.has_value());
  EXPECT_EQ(span->data(), pixels.data());
  EXPECT_EQ(span->size(), 6 * 4 * kWord);
  const auto array = get_host_array<cl_uint>(image, {4, 6});
  EXPECT_EQ(array.at(3, 5), 5u);
}

TEST_P(OpenCLMemoryObject, GetHostArrayViewsTheHostMemoryWithAShapeAndOrder) {
  std::vector<cl_uint> host(32);
  std::iota(host.begin(), host.end(), 0u);
  const cl::Buffer buffer = over(host);

  const auto rows = get_host_array<cl_uint>(buffer, {4, 8});
  EXPECT_EQ(rows.data(), host.data());
  EXPECT_EQ(rows.size(), 32u);
  EXPECT_EQ(rows.nbytes(), 32 * kWord);
  EXPECT_EQ(rows.shape(), (std::vector<std::size_t>{4, 8}));
  EXPECT_EQ(rows.strides(), (std::vector<std::size_t>{8 * kWord, kWord}));
  EXPECT_EQ(rows.at(2, 5), 21u);
  const auto columns = get_host_array<cl_uint>(buffer, {4, 8}, Order::fortran);
  EXPECT_EQ(columns.strides(), (std::vector<std::size_t>{kWord, 4 * kWord}));
  EXPECT_EQ(columns.at(2, 5), 22u);
  const auto prefix = get_host_array<std::uint16_t>(buffer, {3});
  EXPECT_EQ(prefix.size(), 3u);
  const auto scalar = get_host_array<cl_uint>(buffer, {});
  EXPECT_EQ(scalar.at(), 0u);

  // What the device writes shows in the host memory once the buffer is mapped.
  const std::vector<cl_uint> written(32, 0x5a5a5a5au);
  polydev::opencl::memory::enqueue_copy(queue(), buffer, written);
  cl_int status = CL_SUCCESS;
  void* mapped = queue().enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ, 0, 32 * kWord, nullptr,
                                          nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(std::vector<cl_uint>(rows.begin(), rows.end()), written);
  ASSERT_EQ(queue().enqueueUnmapMemObject(buffer, mapped), CL_SUCCESS);
  ASSERT_EQ(queue().finish(), CL_SUCCESS);

  const std::string index = thrown_message<std::out_of_range>([&] { rows.at(4, 0); });
  EXPECT_TRUE(contains(index, "index 4 of dimension 0 is beyond its extent 4")) << index;
  const std::string count = thrown_message<std::out_of_range>([&] { rows.at(1); });
  EXPECT_TRUE(contains(count, "with 1 indices on a 2-d array")) << count;
}

TEST_P(OpenCLMemoryObject, GetHostArrayRefusesObjectsWithoutHostMemoryAndShapesTooLarge) {
  PooledBuffer pooled = pool_->allocate(1000);
  const std::string none =
      thrown_message<std::invalid_argument>([&] { get_host_array<cl_uint>(pooled.buffer(), {4}); });
  EXPECT_TRUE(contains(none,
                       "get_host_array: the memory object was made without "
                       "CL_MEM_USE_HOST_PTR"))
      << none;

  std::vector<cl_uint> host(16);
  const cl::Buffer buffer = over(host);
  const std::string large = thrown_message<std::out_of_range>([&] {
    get_host_array<cl_uint>(buffer, {4, 5});
  });
  EXPECT_TRUE(contains(large,
                       "shape (4, 5) of 4-byte elements needs 80 bytes; the memory object "
                       "spans 64 bytes of host memory"))
      << large;
  EXPECT_THROW(get_host_array<cl_uint>(buffer, {SIZE_MAX / 2, 4}), std::length_error);

  // Host memory one byte into a word is not aligned for words.
  std::vector<unsigned char> bytes(33);
  cl_int status = CL_SUCCESS;
  const cl::Buffer odd(context(), cl_mem_flags{CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR}, 32,
                       bytes.data() + 1, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  if (reinterpret_cast<std::uintptr_t>(bytes.data() + 1) % alignof(cl_uint) != 0) {
    const std::string aligned =
        thrown_message<std::invalid_argument>([&] { get_host_array<cl_uint>(odd, {8}); });
    EXPECT_TRUE(contains(aligned, "is not aligned to the 4 bytes its elements need")) << aligned;
  }
  EXPECT_EQ(get_host_array<unsigned char>(odd, {32}).data(), bytes.data() + 1);
}

TEST_P(OpenCLMemoryObject, MigrationToTheHostAndBackKeepsTheContents) {
  PooledBuffer pooled = pool_->allocate(256);
  std::vector<cl_uint> data(64);
  std::iota(data.begin(), data.end(), 40u);
  polydev::opencl::memory::enqueue_copy(queue(), pooled, data);

  const cl::Event to_host =
      enqueue_migrate_mem_objects(queue(), {pooled.buffer()}, CL_MIGRATE_MEM_OBJECT_HOST);
  ASSERT_EQ(to_host.wait(), CL_SUCCESS);
  EXPECT_EQ(to_host.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_MIGRATE_MEM_OBJECTS));
  ASSERT_EQ(enqueue_migrate_mem_objects(queue(), {pooled.buffer()}).wait(), CL_SUCCESS);
  EXPECT_EQ(read_words(pooled.buffer(), 64), data);

  // Content undefined: the migration may drop the contents, and still completes.
  ASSERT_EQ(enqueue_migrate_mem_objects(queue(), {pooled.buffer()},
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
                .wait(),
            CL_SUCCESS);
  // Nothing to migrate: a marker.
  EXPECT_EQ(enqueue_migrate_mem_objects(queue(), {}).wait(), CL_SUCCESS);
}

TEST_P(OpenCLMemoryObject, MigrationWaitsForItsWaitList) {
  if (runs_commands_at_enqueue(context(), device())) GTEST_SKIP() << kRunsAtEnqueue;
  PooledBuffer pooled = pool_->allocate(64);
  Gate gate(context());
  ASSERT_EQ(gate.status(), CL_SUCCESS);
  const cl::Event migrated = enqueue_migrate_mem_objects(
      queue(), {pooled.buffer()}, CL_MIGRATE_MEM_OBJECT_HOST, {gate.event()});
  const cl::Event nothing = enqueue_migrate_mem_objects(queue(), {}, 0, {gate.event()});
  EXPECT_NE(execution_status(migrated), CL_COMPLETE) << "held back by the wait list";
  EXPECT_NE(execution_status(nothing), CL_COMPLETE) << "a marker after the wait list";
  gate.open();
  EXPECT_EQ(migrated.wait(), CL_SUCCESS);
  EXPECT_EQ(nothing.wait(), CL_SUCCESS);
}

TEST_P(OpenCLMemoryObject, MigrationMovesABufferBetweenTheDevicesOfAContext) {
  std::vector<cl::Device> devices;
  ASSERT_EQ(platform().getDevices(CL_DEVICE_TYPE_ALL, &devices), CL_SUCCESS);
  std::optional<cl::Device> other;
  for (const cl::Device& candidate : devices) {
    if (candidate() != device()()) other = candidate;
  }
  if (!other) GTEST_SKIP() << "the platform has no second device to migrate to";
  cl_int status = CL_SUCCESS;
  const cl::Context shared({device(), *other}, nullptr, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) {
    GTEST_SKIP() << "no context holds this device and the next of its platform (" << status << ")";
  }
  cl::CommandQueue here(shared, device(), 0, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  cl::CommandQueue there(shared, *other, 0, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  MemoryPool pool{ImmediateAllocator(here)};
  PooledBuffer pooled = pool.allocate(128);
  std::vector<cl_uint> data(32);
  std::iota(data.begin(), data.end(), 900u);
  polydev::opencl::memory::enqueue_copy(here, pooled, data);

  const cl::Event moved = enqueue_migrate_mem_objects(there, {pooled.buffer()});
  std::vector<cl_uint> back(32, 0u);
  polydev::opencl::memory::enqueue_copy(there, back, pooled, 0, true, {moved});
  EXPECT_EQ(back, data);
}

TEST_P(OpenCLMemoryObject, MigrationArgumentsOpenCLWouldRejectAreErrorsThatSayWhy) {
  PooledBuffer pooled = pool_->allocate(64);
  const std::string flags = thrown_message<std::invalid_argument>(
      [&] { enqueue_migrate_mem_objects(queue(), {pooled.buffer()}, 1u << 5); });
  EXPECT_TRUE(contains(flags, "flags 32 hold bits other than CL_MIGRATE_MEM_OBJECT_HOST")) << flags;
  const std::string empty = thrown_message<std::invalid_argument>([&] {
    enqueue_migrate_mem_objects(queue(), {pooled.buffer(), cl::Buffer()});
  });
  EXPECT_TRUE(contains(empty, "mem_objects[1] is an empty handle")) << empty;
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLMemoryObject);

}  // namespace
