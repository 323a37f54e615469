// DeferredAllocator, ImmediateAllocator and BufferAllocator on every selected OpenCL device. A
// BufferAllocator over an allocator of the user's: user_allocator_test.cpp.
#include "polydev/opencl/buffer_allocators.hpp"

#include <cstdio>
#include <numeric>
#include <polydev/gtest.hpp>
#include <string>
#include <vector>

#include "polydev/error.hpp"
#include "support/opencl_checks.hpp"

namespace {

using polydev::opencl::BufferAllocator;
using polydev::opencl::DeferredAllocator;
using polydev::opencl::ImmediateAllocator;
using polydev::opencl::Residency;
using polydev::testing::pools_support::thrown_message;

class OpenCLBufferAllocators : public polydev::testing::OpenCLTest {
 protected:
  cl_ulong max_allocation() const { return device().getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>(); }

  // Writes a pattern of `bytes` bytes into `buffer` and reads it back.
  void expect_round_trip(const cl::Buffer& buffer, std::size_t bytes) {
    std::vector<unsigned char> written(bytes);
    std::iota(written.begin(), written.end(), static_cast<unsigned char>(7));
    std::vector<unsigned char> read(bytes);
    ASSERT_EQ(queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, written.data()), CL_SUCCESS);
    ASSERT_EQ(queue().enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, read.data()), CL_SUCCESS);
    EXPECT_EQ(read, written);
  }
};

TEST_P(OpenCLBufferAllocators, ZeroBytesGiveAnEmptyBuffer) {
  EXPECT_EQ(DeferredAllocator(context()).allocate(0)(), nullptr);
  EXPECT_EQ(ImmediateAllocator(queue()).allocate(0)(), nullptr);
  EXPECT_EQ(ImmediateAllocator(queue(), CL_MEM_READ_WRITE, Residency::write).allocate(0)(),
            nullptr);
}

TEST_P(OpenCLBufferAllocators, HostPointerFlagsAreRejectedWithTheReason) {
  for (const auto& [flag, name] :
       {std::pair<cl_mem_flags, std::string>{CL_MEM_USE_HOST_PTR, "CL_MEM_USE_HOST_PTR"},
        {CL_MEM_COPY_HOST_PTR, "CL_MEM_COPY_HOST_PTR"}}) {
    const cl_mem_flags flags = CL_MEM_READ_WRITE | flag;
    const std::string deferred =
        thrown_message<polydev::error>([&] { DeferredAllocator allocator(context(), flags); });
    EXPECT_NE(deferred.find("DeferredAllocator"), std::string::npos) << deferred;
    EXPECT_NE(deferred.find("contain " + name), std::string::npos) << deferred;
    EXPECT_NE(deferred.find("not allowed"), std::string::npos) << deferred;
    const std::string immediate =
        thrown_message<polydev::error>([&] { ImmediateAllocator allocator(queue(), flags); });
    EXPECT_NE(immediate.find("ImmediateAllocator"), std::string::npos) << immediate;
    EXPECT_NE(immediate.find("contain " + name), std::string::npos) << immediate;
  }
}

TEST_P(OpenCLBufferAllocators, DeferredBufferHasTheRequestedSizeFlagsAndContext) {
  const DeferredAllocator allocator(context(), CL_MEM_READ_ONLY);
  EXPECT_TRUE(allocator.is_deferred());
  const cl::Buffer buffer = allocator.allocate(1000);
  ASSERT_NE(buffer(), nullptr);
  EXPECT_EQ(buffer.getInfo<CL_MEM_SIZE>(), 1000u);
  EXPECT_EQ(buffer.getInfo<CL_MEM_FLAGS>() & CL_MEM_READ_ONLY, CL_MEM_READ_ONLY);
  EXPECT_EQ(buffer.getInfo<CL_MEM_CONTEXT>()(), context()());
}

TEST_P(OpenCLBufferAllocators, ImmediateResolvesAutomaticResidencyFromTheDeviceVersion) {
  int major = 0;
  int minor = 0;
  ASSERT_EQ(std::sscanf(descriptor().device.version.c_str(), "OpenCL %d.%d", &major, &minor), 2)
      << descriptor().device.version;
  const ImmediateAllocator allocator(queue());
  EXPECT_FALSE(allocator.is_deferred());
  EXPECT_EQ(allocator.residency(),
            major > 1 || (major == 1 && minor >= 2) ? Residency::migrate : Residency::write);
  EXPECT_EQ(allocator.context()(), context()());
  EXPECT_EQ(ImmediateAllocator(queue(), CL_MEM_READ_WRITE, Residency::write).residency(),
            Residency::write);
}

TEST_P(OpenCLBufferAllocators, ImmediateBuffersHoldDataWithEitherResidency) {
  for (const Residency residency : {Residency::migrate, Residency::write}) {
    const ImmediateAllocator allocator(queue(), CL_MEM_READ_WRITE, residency);
    for (const std::size_t bytes : {std::size_t{1}, std::size_t{3}, std::size_t{4096}}) {
      const cl::Buffer buffer = allocator.allocate(bytes);
      ASSERT_NE(buffer(), nullptr);
      EXPECT_EQ(buffer.getInfo<CL_MEM_SIZE>(), bytes);
      expect_round_trip(buffer, bytes);
    }
  }
}

TEST_P(OpenCLBufferAllocators, WriteResidencyRejectsFlagsThatForbidHostWrites) {
  for (const cl_mem_flags host :
       {cl_mem_flags{CL_MEM_HOST_READ_ONLY}, cl_mem_flags{CL_MEM_HOST_NO_ACCESS}}) {
    const std::string message = thrown_message<polydev::error>(
        [&] { ImmediateAllocator allocator(queue(), CL_MEM_READ_WRITE | host, Residency::write); });
    EXPECT_NE(message.find("forbid host writes"), std::string::npos) << message;
    // Migration needs no host access.
    const ImmediateAllocator migrating(queue(), CL_MEM_READ_WRITE | host, Residency::migrate);
    EXPECT_NE(migrating.allocate(64)(), nullptr);
  }
}

TEST_P(OpenCLBufferAllocators, InvalidFlagsAreBackendErrorsNamingTheCall) {
  // READ_ONLY and WRITE_ONLY together are invalid: an error that is not a lack of memory.
  const cl_mem_flags flags = CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
  for (const BufferAllocator& allocator : {BufferAllocator(DeferredAllocator(context(), flags)),
                                           BufferAllocator(ImmediateAllocator(queue(), flags))}) {
    try {
      allocator.allocate(16);
      ADD_FAILURE() << "allocation with invalid flags succeeded";
    } catch (const polydev::backend_error& failure) {
      EXPECT_EQ(failure.api(), "clCreateBuffer");
      EXPECT_EQ(failure.code(), CL_INVALID_VALUE);
      EXPECT_NE(std::string(failure.what()).find("16 bytes"), std::string::npos) << failure.what();
    }
  }
}

TEST_P(OpenCLBufferAllocators, RequestsAboveTheLargestAllocationAreBackendErrors) {
  const std::size_t too_large = static_cast<std::size_t>(max_allocation()) + 1;
  for (const BufferAllocator& allocator : {BufferAllocator(DeferredAllocator(context())),
                                           BufferAllocator(ImmediateAllocator(queue()))}) {
    try {
      allocator.allocate(too_large);
      // The specification asks for CL_INVALID_BUFFER_SIZE, but NVIDIA's driver (580, H200)
      // accepts such buffers: nothing to check on a driver that does.
      GTEST_SKIP() << "this driver accepts a buffer of " << too_large
                   << " bytes, above CL_DEVICE_MAX_MEM_ALLOC_SIZE";
    } catch (const polydev::backend_error& failure) {
      EXPECT_EQ(failure.code(), CL_INVALID_BUFFER_SIZE) << failure.what();
    }
  }
}

TEST_P(OpenCLBufferAllocators, BufferAllocatorWrapsEitherKind) {
  const BufferAllocator deferred{DeferredAllocator(context())};
  EXPECT_TRUE(deferred.is_deferred());
  ASSERT_NE(deferred.deferred(), nullptr);
  EXPECT_EQ(deferred.immediate(), nullptr);
  EXPECT_EQ(deferred.context()(), context()());
  const BufferAllocator immediate{ImmediateAllocator(queue())};
  EXPECT_FALSE(immediate.is_deferred());
  ASSERT_NE(immediate.immediate(), nullptr);
  EXPECT_EQ(immediate.deferred(), nullptr);
  EXPECT_EQ(immediate.context()(), context()());
  expect_round_trip(immediate.allocate(256), 256);
  EXPECT_EQ(deferred.target<DeferredAllocator>(), deferred.deferred());
  EXPECT_EQ(deferred.target<ImmediateAllocator>(), nullptr);
  EXPECT_EQ(immediate.target<ImmediateAllocator>(), immediate.immediate());
}

// PyOpenCL's allocators are called: `allocator(size)` is a buffer of its own.
TEST_P(OpenCLBufferAllocators, AllocatorsAreCallableAndTheBufferOwnsItself) {
  const DeferredAllocator deferred(context());
  const ImmediateAllocator immediate(queue());
  const BufferAllocator either(immediate);
  for (const cl::Buffer& buffer : {deferred(100), immediate(200), either(300)}) {
    ASSERT_NE(buffer(), nullptr);
    EXPECT_EQ(buffer.getInfo<CL_MEM_REFERENCE_COUNT>(), 1u) << "only the returned buffer holds it";
    expect_round_trip(buffer, buffer.getInfo<CL_MEM_SIZE>());
  }
  EXPECT_EQ(deferred(100).getInfo<CL_MEM_SIZE>(), 100u);
  EXPECT_EQ(immediate(200).getInfo<CL_MEM_SIZE>(), 200u);
  EXPECT_EQ(either(300).getInfo<CL_MEM_SIZE>(), 300u);
  EXPECT_EQ(deferred(0)(), nullptr) << "0 bytes: an empty buffer, as PyOpenCL's None";
  EXPECT_EQ(either(0)(), nullptr);
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLBufferAllocators);

}  // namespace
