// enqueue_copy in every direction, on every selected OpenCL device: host <-> buffer (linear and
// rectangular), buffer <-> buffer, host <-> image, buffer <-> image, image <-> image, SVM <-> SVM
// and SVM <-> host (polydev/opencl/memory/copy.hpp). Each copy moves real data that is read back by
// another path (the bindings' own reads, maps), and each bounds check has its refusal here.
#include "polydev/opencl/memory/copy.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <polydev/gtest.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/memory/mapping.hpp"
#include "polydev/opencl/memory_pool.hpp"
#include "polydev/opencl/svm_pool.hpp"
#include "pools/memory_operations/opencl/wait_gate.hpp"
#include "support/opencl_checks.hpp"
#include "support/word_grid.hpp"

namespace {

using polydev::opencl::ImmediateAllocator;
using polydev::opencl::MemoryPool;
using polydev::opencl::PooledBuffer;
using polydev::opencl::PooledSVM;
using polydev::opencl::SVMAllocator;
using polydev::opencl::SVMPool;
using polydev::opencl::memory::BufferSpan;
using polydev::opencl::memory::ConstHostSpan;
using polydev::opencl::memory::enqueue_copy;
using polydev::opencl::memory::HostSpan;
using polydev::opencl::memory::ImageBox;
using polydev::opencl::memory::RectRegion;
using polydev::opencl::memory::RectSide;
using polydev::opencl::memory::SVMSpan;
using polydev::testing::pools_support::contains;
using polydev::testing::pools_support::execution_status;
using polydev::testing::pools_support::Gate;
using polydev::testing::pools_support::Grid;
using polydev::testing::pools_support::kRunsAtEnqueue;
using polydev::testing::pools_support::runs_commands_at_enqueue;
using polydev::testing::pools_support::thrown_message;

constexpr std::size_t kWord = sizeof(cl_uint);

// Host memory goes to the copies as it is; a host-to-host copy has no overload.
static_assert(std::is_convertible_v<std::vector<cl_uint>&, HostSpan>);
static_assert(std::is_convertible_v<const std::vector<cl_uint>&, ConstHostSpan>);
static_assert(std::is_convertible_v<std::array<float, 4>&, HostSpan>);
static_assert(!std::is_convertible_v<const std::vector<cl_uint>&, HostSpan>);
static_assert(!std::is_convertible_v<std::vector<bool>&, HostSpan>);

std::vector<cl_uint> iota_words(std::size_t count, cl_uint first) {
  std::vector<cl_uint> words(count);
  std::iota(words.begin(), words.end(), first);
  return words;
}

class OpenCLCopy : public polydev::testing::OpenCLTest {
 protected:
  void SetUp() override {
    OpenCLTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    pool_.emplace(ImmediateAllocator(queue()));
  }

  // `count` words of `buffer` from byte `offset`, read by the bindings.
  std::vector<cl_uint> read_words(const cl::Buffer& buffer, std::size_t count,
                                  std::size_t offset = 0) {
    std::vector<cl_uint> out(count);
    EXPECT_EQ(queue().enqueueReadBuffer(buffer, CL_TRUE, offset, count * kWord, out.data()),
              CL_SUCCESS);
    return out;
  }

  void write_words(const cl::Buffer& buffer, const std::vector<cl_uint>& words,
                   std::size_t offset = 0) {
    ASSERT_EQ(
        queue().enqueueWriteBuffer(buffer, CL_TRUE, offset, words.size() * kWord, words.data()),
        CL_SUCCESS);
  }

  cl::Buffer plain_buffer(std::size_t bytes) {
    cl_int status = CL_SUCCESS;
    cl::Buffer buffer(context(), CL_MEM_READ_WRITE, bytes, nullptr, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return buffer;
  }

  std::size_t base_alignment() { return device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8; }

  std::optional<MemoryPool> pool_;
};

// Host and buffer.

TEST_P(OpenCLCopy, HostAndBufferRoundTripThroughPooledAndPlainBuffers) {
  const std::vector<cl_uint> data = iota_words(250, 7);  // 1000 bytes
  PooledBuffer pooled = pool_->allocate(1000);
  const cl::Event written = enqueue_copy(queue(), pooled, data);
  EXPECT_EQ(execution_status(written), CL_COMPLETE) << "host copies block by default";
  EXPECT_EQ(read_words(pooled.buffer(), 250), data);

  // Back out from byte 40 of the request: the host span's size is the transfer's.
  std::vector<cl_uint> back(240);
  enqueue_copy(queue(), back, pooled, 10 * kWord);
  EXPECT_EQ(back, std::vector<cl_uint>(data.begin() + 10, data.end()));

  // A plain buffer, at an offset, from a std::array.
  cl::Buffer plain = plain_buffer(64);
  const std::array<cl_uint, 4> four{{11, 22, 33, 44}};
  enqueue_copy(queue(), plain, four, 48);
  EXPECT_EQ(read_words(plain, 4, 48), std::vector<cl_uint>(four.begin(), four.end()));
  std::array<cl_uint, 4> out{};
  enqueue_copy(queue(), out, plain, 48);
  EXPECT_EQ(out, four);
}

TEST_P(OpenCLCopy, APooledBufferTakesNoByteBeyondItsRequest) {
  PooledBuffer pooled = pool_->allocate(1000);
  ASSERT_GE(pooled.buffer_size(), 1024u) << "the request is rounded up to a size class";
  const std::vector<cl_uint> before = iota_words(256, 1);
  write_words(pooled.buffer(), before);

  const std::vector<cl_uint> words(256, 0xdeadbeefu);  // 1024 bytes
  const std::string too_many =
      thrown_message<std::out_of_range>([&] { enqueue_copy(queue(), pooled, words); });
  EXPECT_TRUE(contains(too_many, "enqueue_copy (host -> buffer): dst_offset 0 + 1024 bytes"))
      << too_many;
  EXPECT_TRUE(contains(too_many,
                       "past the 1000 bytes of dest; dst_offset + bytes must be at "
                       "most 1000"))
      << too_many;
  EXPECT_EQ(read_words(pooled.buffer(), 256), before) << "nothing was written";

  // The same holds at an offset and for reads, and for the whole buffer taken as a cl::Buffer the
  // 1024 bytes fit.
  const std::vector<cl_uint> last(2, 5u);
  const std::string offset =
      thrown_message<std::out_of_range>([&] { enqueue_copy(queue(), pooled, last, 1000 - kWord); });
  EXPECT_TRUE(contains(offset, "dst_offset 996 + 8 bytes")) << offset;
  std::vector<cl_uint> read_back(256);
  const std::string read =
      thrown_message<std::out_of_range>([&] { enqueue_copy(queue(), read_back, pooled); });
  EXPECT_TRUE(contains(read, "src_offset 0 + 1024 bytes (the size of dest)")) << read;
  enqueue_copy(queue(), pooled, std::vector<cl_uint>(1, 5u), 1000 - kWord);
  EXPECT_EQ(read_words(pooled.buffer(), 1, 1000 - kWord), std::vector<cl_uint>(1, 5u));
  enqueue_copy(queue(), pooled.buffer(), words);
  EXPECT_EQ(read_words(pooled.buffer(), 256), words);
}

TEST_P(OpenCLCopy, ASubBufferTakesNoByteBeyondItsBounds) {
  const std::size_t align = base_alignment();
  ASSERT_GT(align, 0u);
  cl::Buffer parent = plain_buffer(4 * align);
  write_words(parent, std::vector<cl_uint>(align, 0u));
  const cl::Buffer sub = polydev::opencl::memory::sub_region(parent, align, 64);

  const std::vector<cl_uint> sixteen = iota_words(16, 100);  // 64 bytes
  enqueue_copy(queue(), sub, sixteen);
  EXPECT_EQ(read_words(parent, 16, align), sixteen) << "the sub-buffer starts at its origin";
  EXPECT_EQ(read_words(parent, 1, align - kWord), std::vector<cl_uint>(1, 0u));

  const std::vector<cl_uint> seventeen(17, 9u);
  const std::string past =
      thrown_message<std::out_of_range>([&] { enqueue_copy(queue(), sub, seventeen); });
  EXPECT_TRUE(contains(past,
                       "dst_offset 0 + 68 bytes (the size of src) reach past the 64 bytes "
                       "of dest"))
      << past;
  std::vector<cl_uint> out(2);
  const std::string read =
      thrown_message<std::out_of_range>([&] { enqueue_copy(queue(), out, sub, 60); });
  EXPECT_TRUE(contains(read, "src_offset 60 + 8 bytes")) << read;
  EXPECT_EQ(read_words(parent, 1, align + 64), std::vector<cl_uint>(1, 0u));

  // A sub-region of a pooled buffer is bounded the same way.
  PooledBuffer pooled = pool_->allocate(2 * align);
  const cl::Buffer pooled_part = polydev::opencl::memory::sub_region(pooled, align, 32);
  EXPECT_THROW(enqueue_copy(queue(), pooled_part, sixteen), std::out_of_range);
  enqueue_copy(queue(), pooled_part, std::vector<cl_uint>(sixteen.begin(), sixteen.begin() + 8));
  EXPECT_EQ(read_words(pooled.buffer(), 8, align),
            std::vector<cl_uint>(sixteen.begin(), sixteen.begin() + 8));
}

TEST_P(OpenCLCopy, NonBlockingCopiesReturnAtOnceAndCompleteTheirEvent) {
  PooledBuffer pooled = pool_->allocate(64);
  const std::vector<cl_uint> data = iota_words(16, 3);
  const cl::Event write = enqueue_copy(queue(), pooled, data, 0, false);
  std::vector<cl_uint> out(16, 0u);
  const cl::Event read = enqueue_copy(queue(), out, pooled, 0, false, {write});
  ASSERT_EQ(read.wait(), CL_SUCCESS);
  EXPECT_EQ(execution_status(write), CL_COMPLETE);
  EXPECT_EQ(out, data);
  EXPECT_EQ(read.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_READ_BUFFER));
}

// Each buffer and host direction, held back by a wait list: its event stays incomplete and its
// destination untouched until the wait list completes.
TEST_P(OpenCLCopy, EveryBufferDirectionWaitsForItsWaitList) {
  if (runs_commands_at_enqueue(context(), device())) GTEST_SKIP() << kRunsAtEnqueue;
  PooledBuffer pooled = pool_->allocate(64);
  PooledBuffer other = pool_->allocate(64);
  write_words(pooled.buffer(), std::vector<cl_uint>(16, 0u));
  write_words(other.buffer(), std::vector<cl_uint>(16, 0u));
  const std::vector<cl_uint> data = iota_words(16, 3);
  {
    Gate gate(context());
    ASSERT_EQ(gate.status(), CL_SUCCESS);
    const cl::Event write = enqueue_copy(queue(), pooled, data, 0, false, {gate.event()});
    EXPECT_NE(execution_status(write), CL_COMPLETE) << "held back by the wait list";
    gate.open();
    ASSERT_EQ(write.wait(), CL_SUCCESS);
    EXPECT_EQ(read_words(pooled.buffer(), 16), data);
  }
  {
    Gate gate(context());
    ASSERT_EQ(gate.status(), CL_SUCCESS);
    std::vector<cl_uint> out(16, 0u);
    const cl::Event read = enqueue_copy(queue(), out, pooled, 0, false, {gate.event()});
    EXPECT_NE(execution_status(read), CL_COMPLETE);
    EXPECT_EQ(out, std::vector<cl_uint>(16, 0u)) << "nothing read before the wait list is done";
    gate.open();
    ASSERT_EQ(read.wait(), CL_SUCCESS);
    EXPECT_EQ(out, data);
  }
  {
    Gate gate(context());
    ASSERT_EQ(gate.status(), CL_SUCCESS);
    const cl::Event copy = enqueue_copy(queue(), other, pooled, 8 * kWord, 0, 0, {gate.event()});
    EXPECT_NE(execution_status(copy), CL_COMPLETE);
    gate.open();
    ASSERT_EQ(copy.wait(), CL_SUCCESS);
    EXPECT_EQ(read_words(other.buffer(), 8), std::vector<cl_uint>(data.begin(), data.begin() + 8));
  }
  {
    // Rectangular: the 2x2 words at (1, 1) of a 4x4 grid, out to the host and into `other`.
    Gate gate(context());
    ASSERT_EQ(gate.status(), CL_SUCCESS);
    const RectSide grid{{kWord, 1, 0}, 4 * kWord, 0};
    std::vector<cl_uint> box(4, 0u);
    const cl::Event read = enqueue_copy(queue(), box, pooled, grid, RectSide{},
                                        RectRegion{2 * kWord, 2, 1}, false, {gate.event()});
    const cl::Event copy = enqueue_copy(queue(), other, pooled, grid, grid,
                                        RectRegion{2 * kWord, 2, 1}, {gate.event()});
    const cl::Event write =
        enqueue_copy(queue(), other, std::vector<cl_uint>{}, grid, RectSide{}, RectRegion{0, 2, 1},
                     false, {gate.event()});  // nothing: a marker
    EXPECT_NE(execution_status(read), CL_COMPLETE);
    EXPECT_NE(execution_status(copy), CL_COMPLETE);
    EXPECT_NE(execution_status(write), CL_COMPLETE);
    EXPECT_EQ(box, std::vector<cl_uint>(4, 0u));
    gate.open();
    ASSERT_EQ(read.wait(), CL_SUCCESS);
    ASSERT_EQ(copy.wait(), CL_SUCCESS);
    ASSERT_EQ(write.wait(), CL_SUCCESS);
    EXPECT_EQ(box, (std::vector<cl_uint>{8, 9, 12, 13}));
    EXPECT_EQ(read_words(other.buffer(), 2, 5 * kWord), (std::vector<cl_uint>{8, 9}));
  }
}

TEST_P(OpenCLCopy, CopiesOfNothingAreMarkersAndNullHostMemoryIsRefused) {
  PooledBuffer pooled = pool_->allocate(16);
  const cl::Event nothing = enqueue_copy(queue(), pooled, ConstHostSpan(nullptr, 0), 16, false);
  EXPECT_NE(nothing.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_WRITE_BUFFER));
  EXPECT_EQ(nothing.wait(), CL_SUCCESS);
  const cl::Event none = enqueue_copy(queue(), pooled, pooled, 0, 0, 0, {nothing});
  EXPECT_NE(none.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_COPY_BUFFER));
  EXPECT_EQ(none.wait(), CL_SUCCESS);

  const std::string null = thrown_message<std::invalid_argument>(
      [&] { enqueue_copy(queue(), pooled, ConstHostSpan(nullptr, 8)); });
  EXPECT_TRUE(contains(null, "src is a null pointer with 8 bytes to copy")) << null;
  const std::string null_dest = thrown_message<std::invalid_argument>(
      [&] { enqueue_copy(queue(), HostSpan(nullptr, 8), pooled); });
  EXPECT_TRUE(contains(null_dest, "dest is a null pointer with 8 bytes to copy")) << null_dest;
}

// Buffer and buffer.

TEST_P(OpenCLCopy, BufferToBufferCopiesWhatBothHoldOrWhatIsAsked) {
  PooledBuffer source = pool_->allocate(100 * kWord);
  PooledBuffer target = pool_->allocate(60 * kWord);
  const std::vector<cl_uint> data = iota_words(100, 1);
  write_words(source.buffer(), data);
  write_words(target.buffer(), std::vector<cl_uint>(60, 0u));

  // Default: as much as both hold from their offsets (50 words from word 50 into word 10).
  enqueue_copy(queue(), target, source, polydev::opencl::memory::to_end, 50 * kWord, 10 * kWord)
      .wait();
  std::vector<cl_uint> expected(60, 0u);
  std::copy(data.begin() + 50, data.end(), expected.begin() + 10);
  EXPECT_EQ(read_words(target.buffer(), 60), expected);

  // An explicit count.
  enqueue_copy(queue(), target, source, 4 * kWord).wait();
  std::copy(data.begin(), data.begin() + 4, expected.begin());
  EXPECT_EQ(read_words(target.buffer(), 60), expected);

  // Disjoint ranges of one buffer.
  enqueue_copy(queue(), source, source, 8 * kWord, 0, 80 * kWord).wait();
  EXPECT_EQ(read_words(source.buffer(), 8, 80 * kWord),
            std::vector<cl_uint>(data.begin(), data.begin() + 8));
}

TEST_P(OpenCLCopy, BufferToBufferRangesAreCheckedAgainstTheRequests) {
  PooledBuffer source = pool_->allocate(1000);
  PooledBuffer target = pool_->allocate(1000);
  const std::string count =
      thrown_message<std::out_of_range>([&] { enqueue_copy(queue(), target, source, 1024); });
  EXPECT_TRUE(contains(count,
                       "enqueue_copy (buffer -> buffer): src_offset 0 + 1024 bytes "
                       "(byte_count) reach past the 1000 bytes of src"))
      << count;
  const std::string dst = thrown_message<std::out_of_range>(
      [&] { enqueue_copy(queue(), target, source, 100, 0, 904); });
  EXPECT_TRUE(contains(dst,
                       "dst_offset 904 + 100 bytes (byte_count) reach past the 1000 bytes "
                       "of dest"))
      << dst;
  const std::string offset = thrown_message<std::out_of_range>(
      [&] { enqueue_copy(queue(), target, source, polydev::opencl::memory::to_end, 1001); });
  EXPECT_TRUE(contains(offset,
                       "src_offset 1001 is past the 1000 bytes of src; it must be at "
                       "most 1000"))
      << offset;

  const std::string overlap = thrown_message<std::invalid_argument>(
      [&] { enqueue_copy(queue(), source, source, 64, 0, 32); });
  EXPECT_TRUE(contains(overlap, "overlap; OpenCL copies between disjoint ranges only")) << overlap;
  // Sub-buffers of one buffer that overlap in it.
  const std::size_t align = base_alignment();
  PooledBuffer big = pool_->allocate(3 * align);
  const cl::Buffer first = polydev::opencl::memory::sub_region(big, 0, 2 * align);
  const cl::Buffer second = polydev::opencl::memory::sub_region(big, align, 2 * align);
  EXPECT_THROW(enqueue_copy(queue(), second, first, align, align / 2, 0), std::invalid_argument);
}

TEST_P(OpenCLCopy, RectangularCopiesMoveBoxesBetweenHostAndBuffers) {
  Grid device_grid(3, 4, 5, 0);
  PooledBuffer pooled = pool_->allocate(device_grid.bytes());
  write_words(pooled.buffer(), device_grid.values);

  // A 3x2x2 box of a (2, 3, 6) host grid at (1, 1, 0) into the device grid at (2, 1, 1).
  Grid host(2, 3, 6, 500);
  const RectRegion region{3 * kWord, 2, 2};
  enqueue_copy(queue(), pooled, host.values, device_grid.side(2, 1, 1), host.side(1, 1, 0), region);
  for (std::size_t z = 0; z < 2; ++z) {
    for (std::size_t y = 0; y < 2; ++y) {
      for (std::size_t x = 0; x < 3; ++x)
        device_grid.at(z + 1, y + 1, x + 2) = host.at(z, y + 1, x + 1);
    }
  }
  EXPECT_EQ(read_words(pooled.buffer(), device_grid.values.size()), device_grid.values);

  // And back into a packed host box (pitches 0), non-blocking.
  std::vector<cl_uint> box(3 * 2 * 2, 0u);
  const cl::Event read =
      enqueue_copy(queue(), box, pooled, device_grid.side(2, 1, 1), RectSide{}, region, false);
  ASSERT_EQ(read.wait(), CL_SUCCESS);
  std::vector<cl_uint> expected;
  for (std::size_t z = 0; z < 2; ++z) {
    for (std::size_t y = 0; y < 2; ++y) {
      for (std::size_t x = 0; x < 3; ++x) expected.push_back(host.at(z, y + 1, x + 1));
    }
  }
  EXPECT_EQ(box, expected);

  // Buffer to buffer: the same box into a second grid at (0, 2, 0).
  Grid other(2, 4, 4, 0);
  PooledBuffer target = pool_->allocate(other.bytes());
  write_words(target.buffer(), other.values);
  enqueue_copy(queue(), target, pooled, device_grid.side(2, 1, 1), other.side(0, 2, 0), region)
      .wait();
  for (std::size_t z = 0; z < 2; ++z) {
    for (std::size_t y = 0; y < 2; ++y) {
      for (std::size_t x = 0; x < 3; ++x)
        other.at(z, y + 2, x) = device_grid.at(z + 1, y + 1, x + 2);
    }
  }
  EXPECT_EQ(read_words(target.buffer(), other.values.size()), other.values);
}

TEST_P(OpenCLCopy, RectangularBoxesOutOfRangeOrBadlyPitchedAreRefused) {
  PooledBuffer pooled = pool_->allocate(470);  // a 480-byte size class
  ASSERT_GE(pooled.buffer_size(), 480u);
  std::vector<unsigned char> host(480);
  const RectRegion rows{40, 12, 1};  // 480 bytes: fit the buffer, not the request
  const std::string past = thrown_message<std::out_of_range>(
      [&] { enqueue_copy(queue(), pooled, host, RectSide{}, RectSide{}, rows); });
  EXPECT_TRUE(contains(past, "buffer side (dest) box")) << past;
  EXPECT_TRUE(contains(past, "ends at byte 480, past its 470 bytes")) << past;

  const std::string host_short = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), HostSpan(host.data(), 100), pooled, RectSide{}, RectSide{},
                 RectRegion{40, 3, 1});
  });
  EXPECT_TRUE(contains(host_short, "host side (dest) box")) << host_short;
  EXPECT_TRUE(contains(host_short, "ends at byte 120, past its 100 bytes")) << host_short;

  const std::string pitch = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), pooled, pooled, RectSide{{0, 0, 0}, 30, 0}, RectSide{{0, 5, 0}, 40, 0},
                 RectRegion{40, 2, 1});
  });
  EXPECT_TRUE(contains(pitch, "src side row_pitch 30 is less than the box's row of 40 bytes"))
      << pitch;
  const std::string slice = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), host, pooled, RectSide{}, RectSide{{0, 0, 0}, 10, 25},
                 RectRegion{10, 2, 2});
  });
  EXPECT_TRUE(contains(slice, "slice_pitch 25 must be a multiple of the row pitch 10")) << slice;
  const std::string overflow = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), host, pooled, RectSide{{0, static_cast<std::size_t>(-1) / 2, 0}, 16, 0},
                 RectSide{}, RectRegion{16, 1, 1});
  });
  EXPECT_TRUE(contains(overflow, "origin overflows size_t")) << overflow;
  const std::string copy_past = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), pooled, pooled, RectSide{}, RectSide{{0, 11, 0}, 40, 0},
                 RectRegion{40, 1, 1});
  });
  EXPECT_TRUE(contains(copy_past, "dst side box")) << copy_past;
  const std::string null = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), pooled, ConstHostSpan(nullptr, 16), RectSide{}, RectSide{},
                 RectRegion{16, 1, 1});
  });
  EXPECT_TRUE(contains(null, "src is a null pointer")) << null;
}

// Images.

// RGBA with 8-bit unsigned channels: one pixel is one cl_uint, and OpenCL requires the format of
// every device with images.
const cl::ImageFormat kPixel(CL_RGBA, CL_UNSIGNED_INT8);

class OpenCLImageCopy : public OpenCLCopy {
 protected:
  // Devices without image support skip in OpenCLTest::SetUp (CL_DEVICE_IMAGE_SUPPORT false).
  polydev::testing::Capabilities required_capabilities() const override {
    return {polydev::testing::images()};
  }

  cl::Image2D image2d(std::size_t width, std::size_t height) {
    cl_int status = CL_SUCCESS;
    cl::Image2D image(context(), CL_MEM_READ_WRITE, kPixel, width, height, 0, nullptr, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return image;
  }

  // All pixels of `image`, read by the bindings.
  std::vector<cl_uint> read_image(const cl::Image& image, const ImageBox& extent) {
    std::vector<cl_uint> out(extent[0] * extent[1] * extent[2]);
    EXPECT_EQ(queue().enqueueReadImage(image, CL_TRUE, {0, 0, 0}, {extent[0], extent[1], extent[2]},
                                       0, 0, out.data()),
              CL_SUCCESS);
    return out;
  }
};

TEST_P(OpenCLImageCopy, HostAndImageRoundTripWithPitches) {
  cl::Image2D image = image2d(8, 5);
  const std::vector<cl_uint> all = iota_words(40, 1);
  enqueue_copy(queue(), image, all, ImageBox{0, 0, 0}, ImageBox{8, 5, 1});
  EXPECT_EQ(read_image(image, {8, 5, 1}), all);

  // A 3x2 box at (2, 1) into a host array of rows of 5 words, at its element (1, 0).
  std::vector<cl_uint> host(10, 0u);
  enqueue_copy(queue(), HostSpan(host.data() + 1, 9 * kWord), image, ImageBox{2, 1, 0},
               ImageBox{3, 2, 1}, {5 * kWord, 0});
  const std::vector<cl_uint> expected{0, 11, 12, 13, 0, 0, 19, 20, 21, 0};
  EXPECT_EQ(host, expected);

  // Written back one row lower, non-blocking.
  const cl::Event write = enqueue_copy(queue(), image, ConstHostSpan(host.data() + 1, 9 * kWord),
                                       ImageBox{2, 2, 0}, ImageBox{3, 2, 1}, {5 * kWord, 0}, false);
  ASSERT_EQ(write.wait(), CL_SUCCESS);
  std::vector<cl_uint> changed = all;
  for (std::size_t y = 0; y < 2; ++y) {
    for (std::size_t x = 0; x < 3; ++x) changed[(y + 2) * 8 + x + 2] = all[(y + 1) * 8 + x + 2];
  }
  EXPECT_EQ(read_image(image, {8, 5, 1}), changed);
}

TEST_P(OpenCLImageCopy, ArraysAnd3DImagesTakeSlicePitches) {
  // Three 1D images of 4 pixels, written from host rows 6 words apart. The images of a 1D array
  // are a slice pitch apart; PoCL 3.1 steps by the row pitch instead, so both are 24 bytes here.
  cl_int status = CL_SUCCESS;
  cl::Image1DArray array(context(), CL_MEM_READ_WRITE, kPixel, 3, 4, 0, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const std::vector<cl_uint> spaced = iota_words(18, 0);
  enqueue_copy(queue(), array, spaced, ImageBox{0, 0, 0}, ImageBox{4, 3, 1},
               {6 * kWord, 6 * kWord});
  const std::vector<cl_uint> packed{0, 1, 2, 3, 6, 7, 8, 9, 12, 13, 14, 15};
  EXPECT_EQ(read_image(array, {4, 3, 1}), packed);
  // Images 1 and 2, pixels 1..2, back out packed.
  std::vector<cl_uint> part(4);
  enqueue_copy(queue(), part, array, ImageBox{1, 1, 0}, ImageBox{2, 2, 1});
  EXPECT_EQ(part, (std::vector<cl_uint>{7, 8, 13, 14}));

  // A 3D image of (4, 3, 2); a 2x2x2 box read with host slices 6 words apart.
  cl::Image3D volume(context(), CL_MEM_READ_WRITE, kPixel, 4, 3, 2, 0, 0, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const std::vector<cl_uint> voxels = iota_words(24, 100);
  enqueue_copy(queue(), volume, voxels, ImageBox{0, 0, 0}, ImageBox{4, 3, 2});
  std::vector<cl_uint> slices(12, 0u);
  enqueue_copy(queue(), slices, volume, ImageBox{1, 1, 0}, ImageBox{2, 2, 2}, {0, 6 * kWord});
  EXPECT_EQ(slices, (std::vector<cl_uint>{105, 106, 109, 110, 0, 0, 117, 118, 121, 122, 0, 0}));

  // A slice pitch that is not a multiple of the row pitch (NVIDIA's driver refuses it).
  const std::string odd = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), slices, volume, ImageBox{1, 1, 0}, ImageBox{2, 2, 2}, {0, 5 * kWord});
  });
  EXPECT_TRUE(contains(odd, "slice pitch (pitches[1]) 20 must be a multiple of the row pitch 8"))
      << odd;
  const std::string short_slice = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), slices, volume, ImageBox{1, 1, 0}, ImageBox{2, 2, 2}, {0, kWord * 2});
  });
  EXPECT_TRUE(contains(short_slice, "at least the 16 bytes of a slice")) << short_slice;
}

TEST_P(OpenCLImageCopy, BufferAndImageAndImageToImage) {
  cl::Image2D image = image2d(6, 4);
  PooledBuffer pooled = pool_->allocate(40 * kWord);
  const std::vector<cl_uint> words = iota_words(40, 1);
  write_words(pooled.buffer(), words);

  // Eight packed pixels from word 4 of the buffer into the 4x2 box at (1, 1).
  enqueue_copy(queue(), image, pooled, 4 * kWord, ImageBox{1, 1, 0}, ImageBox{4, 2, 1}).wait();
  std::vector<cl_uint> box(8);
  ASSERT_EQ(queue().enqueueReadImage(image, CL_TRUE, {1, 1, 0}, {4, 2, 1}, 0, 0, box.data()),
            CL_SUCCESS);
  EXPECT_EQ(box, std::vector<cl_uint>(words.begin() + 4, words.begin() + 12));

  // And back to word 30.
  const cl::Event back =
      enqueue_copy(queue(), pooled, image, 30 * kWord, ImageBox{1, 1, 0}, ImageBox{4, 2, 1});
  ASSERT_EQ(back.wait(), CL_SUCCESS);
  EXPECT_EQ(read_words(pooled.buffer(), 8, 30 * kWord),
            std::vector<cl_uint>(words.begin() + 4, words.begin() + 12));

  // Image to image: the box into a second 2D image, and into slice 1 of a 3D image.
  cl::Image2D other = image2d(5, 5);
  enqueue_copy(queue(), other, std::vector<cl_uint>(25, 0u), ImageBox{0, 0, 0}, ImageBox{5, 5, 1});
  enqueue_copy(queue(), other, image, ImageBox{1, 1, 0}, ImageBox{0, 3, 0}, ImageBox{4, 2, 1})
      .wait();
  const std::vector<cl_uint> copied = read_image(other, {5, 5, 1});
  for (std::size_t y = 0; y < 2; ++y) {
    for (std::size_t x = 0; x < 4; ++x) {
      EXPECT_EQ(copied[(y + 3) * 5 + x], words[4 + y * 4 + x]) << x << ", " << y;
    }
  }
  EXPECT_EQ(copied[0], 0u);
  cl_int status = CL_SUCCESS;
  cl::Image3D volume(context(), CL_MEM_READ_WRITE, kPixel, 4, 2, 2, 0, 0, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  enqueue_copy(queue(), volume, image, ImageBox{1, 1, 0}, ImageBox{0, 0, 1}, ImageBox{4, 2, 1})
      .wait();
  std::vector<cl_uint> slice(8);
  ASSERT_EQ(queue().enqueueReadImage(volume, CL_TRUE, {0, 0, 1}, {4, 2, 1}, 0, 0, slice.data()),
            CL_SUCCESS);
  EXPECT_EQ(slice, std::vector<cl_uint>(words.begin() + 4, words.begin() + 12));
}

TEST_P(OpenCLImageCopy, EveryImageDirectionWaitsForItsWaitList) {
  if (runs_commands_at_enqueue(context(), device())) GTEST_SKIP() << kRunsAtEnqueue;
  cl::Image2D image = image2d(4, 2);
  cl::Image2D other = image2d(4, 2);
  PooledBuffer pooled = pool_->allocate(8 * kWord);
  const std::vector<cl_uint> pixels = iota_words(8, 1);
  const std::vector<cl_uint> zeros(8, 0u);
  enqueue_copy(queue(), other, zeros, ImageBox{0, 0, 0}, ImageBox{4, 2, 1});
  enqueue_copy(queue(), pooled, zeros);

  Gate gate(context());
  ASSERT_EQ(gate.status(), CL_SUCCESS);
  const cl::Event write = enqueue_copy(queue(), image, pixels, ImageBox{0, 0, 0}, ImageBox{4, 2, 1},
                                       {0, 0}, false, {gate.event()});
  std::vector<cl_uint> host(8, 0u);
  const cl::Event read = enqueue_copy(queue(), host, image, ImageBox{0, 0, 0}, ImageBox{4, 2, 1},
                                      {0, 0}, false, {write});
  const cl::Event to_image = enqueue_copy(queue(), other, image, ImageBox{0, 0, 0},
                                          ImageBox{0, 0, 0}, ImageBox{4, 2, 1}, {write});
  const cl::Event to_buffer =
      enqueue_copy(queue(), pooled, image, 0, ImageBox{0, 0, 0}, ImageBox{4, 2, 1}, {write});
  const cl::Event from_buffer = enqueue_copy(queue(), image, pooled, 0, ImageBox{0, 0, 0},
                                             ImageBox{4, 2, 1}, {to_buffer, read, to_image});
  for (const cl::Event& event : {write, read, to_image, to_buffer, from_buffer}) {
    EXPECT_NE(execution_status(event), CL_COMPLETE) << "held back by the wait list";
  }
  EXPECT_EQ(host, zeros) << "nothing read before the wait list is done";
  gate.open();
  ASSERT_EQ(from_buffer.wait(), CL_SUCCESS);
  ASSERT_EQ(cl::Event::waitForEvents({write, read, to_image, to_buffer}), CL_SUCCESS);
  EXPECT_EQ(host, pixels);
  EXPECT_EQ(read_image(other, {4, 2, 1}), pixels);
  EXPECT_EQ(read_words(pooled.buffer(), 8), pixels);
  EXPECT_EQ(read_image(image, {4, 2, 1}), pixels);
}

TEST_P(OpenCLImageCopy, ImageRegionsAndHostLayoutsOutOfRangeAreRefused) {
  cl::Image2D image = image2d(8, 5);
  std::vector<cl_uint> host(40);
  const std::string wide = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), host, image, ImageBox{6, 0, 0}, ImageBox{3, 1, 1});
  });
  EXPECT_TRUE(contains(wide,
                       "enqueue_copy (image -> host): origin[0] 6 + region[0] 3 reach past "
                       "the width 8 of src (a 2D image); their sum must be at most 8"))
      << wide;
  const std::string tall = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), image, host, ImageBox{0, 3, 0}, ImageBox{8, 3, 1});
  });
  EXPECT_TRUE(contains(tall, "origin[1] 3 + region[1] 3 reach past the height 5 of dest")) << tall;
  const std::string depth = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), host, image, ImageBox{0, 0, 1}, ImageBox{1, 1, 1});
  });
  EXPECT_TRUE(contains(depth, "origin[2] is 1; src is a 2D image, which uses 2 coordinate(s)"))
      << depth;
  const std::string region = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), host, image, ImageBox{0, 0, 0}, ImageBox{1, 1, 0});
  });
  EXPECT_TRUE(contains(region, "region[2] is 0; src is a 2D image")) << region;

  // The host side: too few bytes, a row pitch below the row, a slice pitch on a 2D image.
  const std::string small = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), HostSpan(host.data(), 39 * kWord), image, ImageBox{0, 0, 0},
                 ImageBox{8, 5, 1});
  });
  EXPECT_TRUE(contains(small, "spans 160 bytes, more than the 156 bytes of dest")) << small;
  const std::string pitch = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), host, image, ImageBox{0, 0, 0}, ImageBox{4, 2, 1}, {8, 0});
  });
  EXPECT_TRUE(contains(pitch, "row pitch (pitches[0]) 8 is less than the 16 bytes of a row"))
      << pitch;
  const std::string slice = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), host, image, ImageBox{0, 0, 0}, ImageBox{4, 2, 1}, {0, 64});
  });
  EXPECT_TRUE(contains(slice, "slice pitch (pitches[1]) 64 on a 2D image, which has no slices"))
      << slice;

  // Buffers: the box's bytes against a pooled request.
  PooledBuffer pooled = pool_->allocate(100);
  const std::string buffer = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), pooled, image, 0, ImageBox{0, 0, 0}, ImageBox{8, 4, 1});
  });
  EXPECT_TRUE(contains(buffer,
                       "offset 0 + 128 bytes (the box's pixels) reach past the 100 bytes "
                       "of dest"))
      << buffer;
  const std::string from_buffer = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), image, pooled, 8, ImageBox{0, 0, 0}, ImageBox{6, 4, 1});
  });
  EXPECT_TRUE(contains(from_buffer,
                       "enqueue_copy (buffer -> image): offset 8 + 96 bytes (the box's pixels) "
                       "reach past the 100 bytes of src"))
      << from_buffer;

  // Images: formats must agree, and boxes fit both.
  cl_int status = CL_SUCCESS;
  cl::Image2D floats(context(), CL_MEM_READ_WRITE, cl::ImageFormat(CL_RGBA, CL_FLOAT), 8, 5, 0,
                     nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const std::string format = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), floats, image, ImageBox{0, 0, 0}, ImageBox{0, 0, 0}, ImageBox{1, 1, 1});
  });
  EXPECT_TRUE(contains(format, "OpenCL copies between images of one format only")) << format;
  cl::Image2D small_image = image2d(4, 4);
  const std::string dest = thrown_message<std::out_of_range>([&] {
    enqueue_copy(queue(), small_image, image, ImageBox{0, 0, 0}, ImageBox{1, 0, 0},
                 ImageBox{4, 4, 1});
  });
  EXPECT_TRUE(contains(dest, "dest_origin[0] 1 + region[0] 4 reach past the width 4 of dest"))
      << dest;
  const std::string empty = thrown_message<std::invalid_argument>([&] {
    enqueue_copy(queue(), host, cl::Image2D(), ImageBox{0, 0, 0}, ImageBox{1, 1, 1});
  });
  EXPECT_TRUE(contains(empty, "src is an empty image")) << empty;
}

// Svm.

// Frees memory from clSVMAlloc (after the queue's commands that use it are finished).
struct SVMFree {
  cl::Context context;
  void operator()(void* pointer) const { clSVMFree(context(), pointer); }
};

class OpenCLSVMCopy : public OpenCLCopy {
 protected:
  // Devices without coarse-grain SVM skip in OpenCLTest::SetUp, with what SVM they have.
  polydev::testing::Capabilities required_capabilities() const override {
    return {polydev::testing::svm_coarse_grain_buffer()};
  }

  void SetUp() override {
    OpenCLCopy::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    svm_pool_.emplace(SVMAllocator(context(), 0, CL_MEM_READ_WRITE, queue()));
  }

  // The `count` words of the span, read through a map on the fixture's queue.
  std::vector<cl_uint> map_read(const SVMSpan& span, std::size_t count) {
    polydev::opencl::memory::MappedRegion region =
        polydev::opencl::memory::map_svm(queue(), span, CL_MAP_READ);
    return std::vector<cl_uint>(region.as<cl_uint>(), region.as<cl_uint>() + count);
  }

  std::optional<SVMPool> svm_pool_;
};

TEST_P(OpenCLSVMCopy, SVMAndHostRoundTripAndSVMToSVM) {
  PooledSVM first = (*svm_pool_)(64 * kWord);
  const std::vector<cl_uint> data = iota_words(64, 9);
  const cl::Event written = enqueue_copy(queue(), first, data);
  EXPECT_EQ(execution_status(written), CL_COMPLETE);
  EXPECT_EQ(map_read(first, 64), data);

  PooledSVM second = (*svm_pool_)(64 * kWord);
  enqueue_copy(queue(), second, SVMSpan(first).subspan(16 * kWord, 32 * kWord)).wait();
  EXPECT_EQ(map_read(second, 32), std::vector<cl_uint>(data.begin() + 16, data.begin() + 48));

  std::vector<cl_uint> back(64, 0u);
  enqueue_copy(queue(), back, first);
  EXPECT_EQ(back, data);

  // Plain SVM (any pointer and size), non-blocking.
  const std::size_t bytes = 8 * kWord;
  const std::unique_ptr<void, SVMFree> plain(clSVMAlloc(context()(), CL_MEM_READ_WRITE, bytes, 0),
                                             SVMFree{context()});
  ASSERT_NE(plain.get(), nullptr);
  const std::vector<cl_uint> eight = iota_words(8, 70);
  const cl::Event copy = enqueue_copy(queue(), SVMSpan(plain.get(), bytes), eight, false);
  ASSERT_EQ(copy.wait(), CL_SUCCESS);
  EXPECT_EQ(map_read(SVMSpan(plain.get(), bytes), 8), eight);
  std::vector<cl_uint> out(8);
  enqueue_copy(queue(), out, SVMSpan(plain.get(), bytes));
  EXPECT_EQ(out, eight);
}

TEST_P(OpenCLSVMCopy, EverySVMDirectionWaitsForItsWaitList) {
  if (runs_commands_at_enqueue(context(), device())) GTEST_SKIP() << kRunsAtEnqueue;
  PooledSVM first = (*svm_pool_)(8 * kWord);
  PooledSVM second = (*svm_pool_)(8 * kWord);
  const std::vector<cl_uint> zeros(8, 0u);
  enqueue_copy(queue(), first, zeros);
  enqueue_copy(queue(), second, zeros);
  const std::vector<cl_uint> data = iota_words(8, 30);

  Gate gate(context());
  ASSERT_EQ(gate.status(), CL_SUCCESS);
  const cl::Event in = enqueue_copy(queue(), first, data, false, {gate.event()});
  const cl::Event across = enqueue_copy(queue(), second, first, false, {in});
  std::vector<cl_uint> out(8, 0u);
  const cl::Event back = enqueue_copy(queue(), out, second, false, {across});
  for (const cl::Event& event : {in, across, back}) {
    EXPECT_NE(execution_status(event), CL_COMPLETE) << "held back by the wait list";
  }
  EXPECT_EQ(out, zeros);
  gate.open();
  ASSERT_EQ(back.wait(), CL_SUCCESS);
  EXPECT_EQ(out, data);
}

TEST_P(OpenCLSVMCopy, SVMCopiesAreCheckedAgainstTheRequestedSizes) {
  PooledSVM pooled = (*svm_pool_)(1000);
  const std::vector<unsigned char> kib(1024, 1);
  const std::string host =
      thrown_message<std::out_of_range>([&] { enqueue_copy(queue(), pooled, kib); });
  EXPECT_TRUE(contains(host,
                       "enqueue_copy (host -> SVM): the 1024 bytes of src do not fit the "
                       "1000 bytes of dest"))
      << host;
  PooledSVM big = (*svm_pool_)(1024);
  EXPECT_THROW(enqueue_copy(queue(), pooled, big), std::out_of_range);
  std::vector<unsigned char> small(999);
  const std::string read =
      thrown_message<std::out_of_range>([&] { enqueue_copy(queue(), small, pooled); });
  EXPECT_TRUE(contains(read, "the 1000 bytes of src do not fit the 999 bytes of dest")) << read;

  const std::string overlap = thrown_message<std::invalid_argument>(
      [&] { enqueue_copy(queue(), SVMSpan(big).subspan(8, 64), SVMSpan(big).subspan(0, 64)); });
  EXPECT_TRUE(contains(overlap, "src and dest overlap")) << overlap;

  // A block bound to another queue is refused until it is bound to this one.
  cl_int status = CL_SUCCESS;
  cl::CommandQueue other(context(), device(), 0, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const std::string bound = thrown_message<polydev::error>(
      [&] { enqueue_copy(other, pooled, std::vector<unsigned char>(8, 2)); });
  EXPECT_TRUE(contains(bound, "bound to another queue")) << bound;
  pooled.bind_to_queue(other);
  enqueue_copy(other, pooled, std::vector<unsigned char>(8, 2));
  pooled.bind_to_queue(queue());
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLCopy);
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLImageCopy);
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLSVMCopy);

}  // namespace
