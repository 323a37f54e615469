// Map, memfill, memcpy and migrate on pooled and plain SVM, on every selected OpenCL device with
// coarse-grain SVM (polydev/opencl/memory/svm_operations.hpp). The allocation helpers (svm_empty
// and its kin): svm_empty_test.cpp.
#include "polydev/opencl/memory/detail/svm_operations.hpp"

#include <cstdint>
#include <numeric>
#include <optional>
#include <polydev/gtest.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/characterize.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/memory/fill.hpp"
#include "polydev/opencl/memory/mapping.hpp"
#include "polydev/opencl/memory/svm_operations.hpp"
#include "polydev/opencl/svm_pool.hpp"
#include "support/fill_checks.hpp"
#include "support/opencl_checks.hpp"
#include "support/svm_test.hpp"

namespace {

using polydev::opencl::PooledSVM;
using polydev::opencl::SVMAllocation;
using polydev::opencl::SVMAllocator;
using polydev::opencl::SVMPool;
using polydev::opencl::memory::MappedRegion;
using polydev::opencl::memory::SVMSpan;
using polydev::opencl::memory::to_end;
using polydev::testing::pools_support::enqueue_sized_fills;
using polydev::testing::pools_support::expect_fill_refusals;
using polydev::testing::pools_support::expect_sized_fills;
using polydev::testing::pools_support::thrown_message;

// Pooled and plain SVM go wherever the operations take SVM, without spelling out a view.
static_assert(std::is_convertible_v<const PooledSVM&, SVMSpan>);
static_assert(std::is_convertible_v<const SVMAllocation&, SVMSpan>);

class OpenCLSVMOperations : public polydev::testing::pools_support::OpenCLSVMTest {
 protected:
  void SetUp() override {
    OpenCLSVMTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    pool_.emplace(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
  }

  std::optional<SVMPool> pool_;
};

TEST_P(OpenCLSVMOperations, MemfillCoversTheRequestOfAPooledBlock) {
  PooledSVM pooled = pool_->allocate(1000);  // a 1024-byte block
  SVMSpan whole(pooled.ptr(), 1024);
  polydev::opencl::memory::enqueue_svm_memfill(queue(), whole, cl_uchar{0xee}).wait();
  polydev::opencl::memory::enqueue_svm_memfill(queue(), pooled, cl_ushort{0x0102}).wait();
  polydev::opencl::memory::enqueue_svm_memfill(queue(), pooled, cl_uint{0xaabbccddu}, 16, 32)
      .wait();
  MappedRegion region = polydev::opencl::memory::map_svm(queue(), whole, CL_MAP_READ);
  const auto* bytes = region.as<const unsigned char>();
  const cl_ushort half = 0x0102;
  const cl_uint word = 0xaabbccddu;
  for (std::size_t i = 0; i < 1024; ++i) {
    const unsigned char expected = i >= 1000 ? 0xee
                                   : (i >= 16 && i < 48)
                                       ? reinterpret_cast<const unsigned char*>(&word)[i % 4]
                                       : reinterpret_cast<const unsigned char*>(&half)[i % 2];
    ASSERT_EQ(bytes[i], expected) << "at " << i;
  }
}

TEST_P(OpenCLSVMOperations, MemfillArgumentsOpenCLWouldRejectAreErrorsThatSayWhy) {
  PooledSVM pooled = pool_->allocate(1000);
  const unsigned char three[3] = {1, 2, 3};
  const std::string odd = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_svm_memfill(queue(), pooled, three, sizeof three); });
  EXPECT_NE(odd.find("enqueue_svm_memfill: a pattern of 3 bytes"), std::string::npos) << odd;
  const std::string misaligned = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_svm_memfill(queue(), pooled, cl_uint{1}, 2, 8); });
  EXPECT_NE(misaligned.find("(offset 2) and size 8 must be multiples of the pattern's 4 bytes"),
            std::string::npos)
      << misaligned;
  const std::string past = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_svm_memfill(queue(), pooled, cl_uint{1}, 992, 16); });
  EXPECT_NE(past.find("16 bytes from offset 992 reach past the 1000 bytes"), std::string::npos)
      << past;
  const std::string null = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_svm_memfill(queue(), SVMSpan(nullptr, 16), cl_uint{1});
  });
  EXPECT_NE(null.find("the destination pointer is null"), std::string::npos) << null;
  const cl::Event nothing =
      polydev::opencl::memory::enqueue_svm_memfill(queue(), pooled, cl_uint{1}, 1000, to_end);
  EXPECT_NE(nothing.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_SVM_MEMFILL))
      << "a marker (whose command type is not portable), not a fill";
  EXPECT_EQ(nothing.wait(), CL_SUCCESS);
}

// enqueue_fill takes PyOpenCL's order, size before offset, the reverse of enqueue_svm_memfill.
TEST_P(OpenCLSVMOperations, EnqueueFillFillsPooledBlocksAndAllocationsBySizeThenOffset) {
  PooledSVM pooled = pool_->allocate(1000);  // a 1024-byte block
  SVMSpan whole(pooled.ptr(), 1024);
  const cl::Event middle = enqueue_sized_fills(queue(), whole, pooled);
  EXPECT_EQ(middle.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_SVM_MEMFILL));
  {
    MappedRegion region = polydev::opencl::memory::map_svm(queue(), whole, CL_MAP_READ);
    expect_sized_fills(region.as<const unsigned char>());
  }

  SVMAllocation allocation(context(), 64, 0, CL_MEM_READ_WRITE, queue());
  polydev::opencl::memory::enqueue_fill(queue(), allocation, cl_uint{0x12345678u}).wait();
  EXPECT_EQ(read(allocation, 16), std::vector<cl_uint>(16, 0x12345678u));
}

TEST_P(OpenCLSVMOperations, EnqueueFillOnSVMReportsTheErrorsOfEnqueueSVMMemfill) {
  PooledSVM pooled = pool_->allocate(1000);
  expect_fill_refusals(queue(), pooled, "enqueue_svm_memfill");
}

// A block bound to queue A and used on queue B could be reused while B still works on it.
TEST_P(OpenCLSVMOperations, APooledBlockIsUsedOnlyOnTheQueueItIsBoundTo) {
  const cl::CommandQueue other(context(), device());
  PooledSVM pooled = pool_->allocate(64);
  ASSERT_EQ(pooled.queue(), queue()());
  EXPECT_NO_THROW(polydev::opencl::memory::enqueue_svm_memfill(queue(), pooled, cl_uint{1}))
      << "the bound queue is accepted";
  const std::string on_other = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_svm_memfill(other, pooled, cl_uint{1}); });
  EXPECT_NE(on_other.find("enqueue_svm_memfill: the SVM memory (a pooled block or an allocation) "
                          "is bound to another queue than the one given; bind it to this queue "
                          "first (bind_to_queue)"),
            std::string::npos)
      << on_other;
  std::vector<cl_uint> host(16);
  const std::string copy = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_svm_memcpy(other, SVMSpan(host.data(), 64), pooled);
  });
  EXPECT_NE(
      copy.find("enqueue_svm_memcpy: the SVM memory (a pooled block or an allocation) is bound"),
      std::string::npos)
      << copy;
  const std::string map = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::map_svm(other, pooled, CL_MAP_READ); });
  EXPECT_NE(map.find("map_svm: the SVM memory (a pooled block or an allocation) is bound"),
            std::string::npos)
      << map;

  pooled.bind_to_queue(other);
  polydev::opencl::memory::enqueue_svm_memfill(other, pooled, cl_uint{5}).wait();
  pooled.unbind_from_queue();  // unbound blocks go on any queue
  EXPECT_EQ(read(pooled, 16), std::vector<cl_uint>(16, 5u));
}

// The same for an allocation: its free is enqueued on its queue alone.
TEST_P(OpenCLSVMOperations, AnAllocationIsUsedOnlyOnTheQueueItIsBoundTo) {
  const cl::CommandQueue other(context(), device());
  SVMAllocation allocation(context(), 64, 0, CL_MEM_READ_WRITE, queue());
  polydev::opencl::memory::enqueue_svm_memfill(queue(), allocation, cl_uint{4});
  const std::string on_other = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_svm_memfill(other, allocation, cl_uint{1}); });
  EXPECT_NE(on_other.find("enqueue_svm_memfill: the SVM memory (a pooled block or an allocation) "
                          "is bound to another queue"),
            std::string::npos)
      << on_other;
  EXPECT_EQ(read(allocation, 16), std::vector<cl_uint>(16, 4u));
  allocation.bind_to_queue(other);
  polydev::opencl::memory::enqueue_svm_memfill(other, allocation, cl_uint{6}).wait();
  allocation.unbind_from_queue();
  EXPECT_EQ(read(allocation, 16), std::vector<cl_uint>(16, 6u));
}

TEST_P(OpenCLSVMOperations, MemcpyMovesDataBetweenPooledBlocksAndTheHost) {
  constexpr std::size_t n = 256;
  std::vector<cl_uint> host(n);
  std::iota(host.begin(), host.end(), 7u);
  PooledSVM first = pool_->allocate(n * sizeof(cl_uint));
  PooledSVM second = pool_->allocate(2 * n * sizeof(cl_uint));
  polydev::opencl::memory::enqueue_svm_memcpy(queue(), first,
                                              SVMSpan(host.data(), n * sizeof(cl_uint)));
  const SVMSpan upper = SVMSpan(second).subspan(n * sizeof(cl_uint));
  const cl::Event copied =
      polydev::opencl::memory::enqueue_svm_memcpy(queue(), upper, first, /*blocking=*/false);
  std::vector<cl_uint> back(n);
  polydev::opencl::memory::enqueue_svm_memcpy(queue(), SVMSpan(back.data(), n * sizeof(cl_uint)),
                                              upper,
                                              /*blocking=*/true, {copied});
  EXPECT_EQ(back, host);

  const std::string small = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_svm_memcpy(queue(), first, second); });
  EXPECT_NE(small.find("the destination has 1024 bytes, fewer than the 2048 of the source"),
            std::string::npos)
      << small;
  const std::string overlap = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_svm_memcpy(queue(), SVMSpan(second).subspan(4, 64),
                                                SVMSpan(second).subspan(0, 64));
  });
  EXPECT_NE(overlap.find("source and destination overlap"), std::string::npos) << overlap;
  const std::string null = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_svm_memcpy(queue(), SVMSpan(nullptr, 64),
                                                SVMSpan(host.data(), 64));
  });
  EXPECT_NE(null.find("the destination pointer is null"), std::string::npos) << null;
  const std::string subspan =
      thrown_message<polydev::error>([&] { SVMSpan(first).subspan(512, 1024); });
  EXPECT_NE(subspan.find("1024 bytes from offset 512 reach past the 1024 bytes of the span"),
            std::string::npos)
      << subspan;
  const std::string start = thrown_message<polydev::error>([&] { SVMSpan(first).subspan(1025); });
  EXPECT_NE(start.find("offset 1025 is past the 1024 bytes"), std::string::npos) << start;
  first.release();
  const std::string released = thrown_message<polydev::error>([&] { SVMSpan bad(first); });
  EXPECT_NE(released.find("the PooledSVM was released"), std::string::npos) << released;
}

TEST_P(OpenCLSVMOperations, MigrateMovesBlocksToTheHostAndBackOrSaysWhatIsMissing) {
  const auto [major, minor] = polydev::opencl::parse_opencl_version(descriptor().device.version)
                                  .value_or(polydev::opencl::Version{});
  constexpr std::size_t n = 128;
  PooledSVM pooled = pool_->allocate(n * sizeof(cl_uint));
  PooledSVM empty = pool_->allocate(0);
  if (major < 2 || (major == 2 && minor < 1)) {
    const std::string message = thrown_message<polydev::error>(
        [&] { polydev::opencl::memory::enqueue_svm_migrate(queue(), {pooled}); });
    EXPECT_NE(message.find("needs OpenCL 2.1 or later"), std::string::npos) << message;
    GTEST_SKIP() << "device is OpenCL " << major << "." << minor
                 << ", SVM migration is 2.1: checked that enqueue_svm_migrate says so";
  }
  polydev::opencl::memory::enqueue_svm_memfill(queue(), pooled, cl_uint{3});
  run_twice(pooled.ptr(), n);
  const cl::Event to_host = polydev::opencl::memory::enqueue_svm_migrate(
      queue(), {pooled, empty}, CL_MIGRATE_MEM_OBJECT_HOST);
  EXPECT_EQ(to_host.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_SVM_MIGRATE_MEM));
  EXPECT_EQ(read(pooled, n), std::vector<cl_uint>(n, 7u));
  const cl::Event to_device = polydev::opencl::memory::enqueue_svm_migrate(
      queue(), {SVMSpan(pooled).subspan(0, 64)}, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED);
  ASSERT_EQ(to_device.wait(), CL_SUCCESS);
  const cl::Event nothing = polydev::opencl::memory::enqueue_svm_migrate(queue(), {empty});
  EXPECT_NE(nothing.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_SVM_MIGRATE_MEM))
      << "empty spans are left out (OpenCL would read size 0 as the whole allocation)";
  EXPECT_EQ(nothing.wait(), CL_SUCCESS);
}

TEST_P(OpenCLSVMOperations, BadSVMMapsAreErrorsThatSayWhy) {
  PooledSVM pooled = pool_->allocate(0);
  const std::string empty = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::map_svm(queue(), pooled, CL_MAP_READ); });
  EXPECT_NE(empty.find("map_svm: a map of 0 bytes"), std::string::npos) << empty;
  const std::string null = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::map_svm(queue(), SVMSpan(nullptr, 8), CL_MAP_READ); });
  EXPECT_NE(null.find("map_svm: the SVM pointer is null"), std::string::npos) << null;
}

// The version check behind enqueue_svm_migrate, on version strings of devices this machine may
// not have.
TEST(OpenCLVersionRequirement, OlderDevicesAreRefusedWithTheirVersion) {
  using polydev::opencl::memory::detail::require_opencl_version;
  EXPECT_NO_THROW(require_opencl_version("OpenCL 2.1 X", "dev", 2, 1, "migrate"));
  EXPECT_NO_THROW(require_opencl_version("OpenCL 3.0 X", "dev", 2, 1, "migrate"));
  const std::string message = thrown_message<polydev::error>(
      [] { require_opencl_version("OpenCL 2.0 AMD-APP", "gfx900", 2, 1, "migrate"); });
  EXPECT_EQ(message,
            "migrate needs OpenCL 2.1 or later; device 'gfx900' reports 'OpenCL 2.0 AMD-APP'");
  EXPECT_THROW(require_opencl_version("OpenCL 1.2 CUDA", "GPU", 2, 1, "migrate"), polydev::error);
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLSVMOperations);

}  // namespace
