// Rectangular copies, fills, sub-regions, slices and maps on pooled buffers, on every selected
// OpenCL device (polydev/opencl/memory/buffer_operations.hpp and mapping.hpp).
#include "polydev/opencl/memory/buffer_operations.hpp"

#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <polydev/gtest.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/memory/fill.hpp"
#include "polydev/opencl/memory/mapping.hpp"
#include "polydev/opencl/memory_pool.hpp"
#include "support/fill_checks.hpp"
#include "support/opencl_checks.hpp"
#include "support/word_grid.hpp"

namespace {

using polydev::opencl::ImmediateAllocator;
using polydev::opencl::MemoryPool;
using polydev::opencl::PooledBuffer;
using polydev::opencl::memory::BufferSpan;
using polydev::opencl::memory::MappedRegion;
using polydev::opencl::memory::RectRegion;
using polydev::opencl::memory::RectSide;
using polydev::opencl::memory::to_end;
using polydev::testing::pools_support::enqueue_sized_fills;
using polydev::testing::pools_support::expect_fill_refusals;
using polydev::testing::pools_support::expect_sized_fills;
using polydev::testing::pools_support::Grid;
using polydev::testing::pools_support::thrown_message;

// Pooled handles go wherever the operations take a buffer, without spelling out a view.
static_assert(std::is_convertible_v<const PooledBuffer&, BufferSpan>);
static_assert(std::is_convertible_v<const cl::Buffer&, BufferSpan>);

constexpr cl_uint kWord = sizeof(cl_uint);

class OpenCLBufferOperations : public polydev::testing::OpenCLTest {
 protected:
  void SetUp() override {
    OpenCLTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    pool_.emplace(ImmediateAllocator(queue()));
  }

  // All `bytes` bytes of the pooled buffer's memory object, past the request included.
  std::vector<unsigned char> read_all(const PooledBuffer& pooled, std::size_t bytes) {
    std::vector<unsigned char> out(bytes);
    EXPECT_EQ(queue().enqueueReadBuffer(pooled.buffer(), CL_TRUE, 0, bytes, out.data()),
              CL_SUCCESS);
    return out;
  }

  std::vector<cl_uint> read_words(const cl::Buffer& buffer, std::size_t count,
                                  std::size_t offset = 0) {
    std::vector<cl_uint> out(count);
    EXPECT_EQ(queue().enqueueReadBuffer(buffer, CL_TRUE, offset, count * kWord, out.data()),
              CL_SUCCESS);
    return out;
  }

  cl_uint map_count(const cl::Buffer& buffer, cl_uint expected) {
    return polydev::testing::pools_support::settled_map_count(queue(), buffer, expected);
  }

  std::size_t base_alignment() { return device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8; }

  std::optional<MemoryPool> pool_;
};

TEST_P(OpenCLBufferOperations, SpansCoverTheRequestOfAPooledBuffer) {
  PooledBuffer pooled = pool_->allocate(1000);
  const BufferSpan span(pooled);
  EXPECT_EQ(span.size(), 1000u) << "the request, not the 1024 bytes of the size class";
  EXPECT_EQ(span.buffer()(), pooled.get());
  const BufferSpan whole(pooled.buffer());
  EXPECT_EQ(whole.size(), 1024u);
  EXPECT_EQ(BufferSpan(pooled.buffer(), 10).size(), 10u);

  const std::string too_many =
      thrown_message<polydev::error>([&] { BufferSpan bad(pooled.buffer(), 1025); });
  EXPECT_NE(too_many.find("1025 bytes asked of a buffer of 1024"), std::string::npos) << too_many;
  const std::string empty = thrown_message<polydev::error>([&] { BufferSpan bad{cl::Buffer()}; });
  EXPECT_NE(empty.find("the buffer is empty"), std::string::npos) << empty;
  pooled.release();
  const std::string released = thrown_message<polydev::error>([&] { BufferSpan bad(pooled); });
  EXPECT_NE(released.find("PooledBuffer was released"), std::string::npos) << released;
}

// A 3x2x2 box of a packed host array written into a (4, 5, 6) grid at element (1, 2, 1).
TEST_P(OpenCLBufferOperations, WriteRectPlacesAHostBoxInAPooledBuffer) {
  Grid grid(4, 5, 6, 0);
  std::fill(grid.values.begin(), grid.values.end(), 0u);
  PooledBuffer pooled = pool_->allocate(grid.bytes());
  polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, cl_uint{0}).wait();

  Grid box(2, 2, 3, 100);  // packed: its pitches are the defaults (0)
  const RectRegion region{3 * kWord, 2, 2};
  const cl::Event written = polydev::opencl::memory::enqueue_write_buffer_rect(
      queue(), pooled, grid.side(1, 2, 1), box.values.data(), box.bytes(), RectSide{}, region);
  EXPECT_EQ(written.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(), CL_COMPLETE)
      << "a blocking write";
  for (std::size_t z = 0; z < 2; ++z) {
    for (std::size_t y = 0; y < 2; ++y) {
      for (std::size_t x = 0; x < 3; ++x) grid.at(z + 1, y + 2, x + 1) = box.at(z, y, x);
    }
  }
  EXPECT_EQ(read_words(pooled.buffer(), grid.values.size()), grid.values);
}

// A 2x3x2 box read from a (4, 5, 6) grid at element (2, 1, 2) into a wider host array (3, 4, 8)
// at element (5, 2, 1): pitches on both sides differ from the box.
TEST_P(OpenCLBufferOperations, ReadRectTakesABoxOutOfAPooledBufferIntoAWiderHostArray) {
  Grid grid(4, 5, 6, 1);
  PooledBuffer pooled = pool_->allocate(grid.bytes());
  ASSERT_EQ(
      queue().enqueueWriteBuffer(pooled.buffer(), CL_TRUE, 0, grid.bytes(), grid.values.data()),
      CL_SUCCESS);
  Grid host(3, 5, 8, 0);
  std::fill(host.values.begin(), host.values.end(), 0xffffffffu);
  Grid expected = host;
  const RectRegion region{2 * kWord, 3, 2};
  const cl::Event read = polydev::opencl::memory::enqueue_read_buffer_rect(
      queue(), host.values.data(), host.bytes(), host.side(5, 2, 1), pooled, grid.side(2, 1, 2),
      region, /*blocking=*/false);
  ASSERT_EQ(read.wait(), CL_SUCCESS);
  for (std::size_t z = 0; z < 2; ++z) {
    for (std::size_t y = 0; y < 3; ++y) {
      for (std::size_t x = 0; x < 2; ++x)
        expected.at(z + 1, y + 2, x + 5) = grid.at(z + 2, y + 1, x + 2);
    }
  }
  EXPECT_EQ(host.values, expected.values);
}

TEST_P(OpenCLBufferOperations, CopyRectMovesABoxBetweenPooledBuffersOfOtherPitches) {
  Grid from(2, 6, 7, 500);
  Grid to(3, 3, 4, 0);
  PooledBuffer source = pool_->allocate(from.bytes());
  PooledBuffer target = pool_->allocate(to.bytes());
  ASSERT_EQ(
      queue().enqueueWriteBuffer(source.buffer(), CL_TRUE, 0, from.bytes(), from.values.data()),
      CL_SUCCESS);
  ASSERT_EQ(queue().enqueueWriteBuffer(target.buffer(), CL_TRUE, 0, to.bytes(), to.values.data()),
            CL_SUCCESS);
  const RectRegion region{3 * kWord, 2, 2};
  const cl::Event copied = polydev::opencl::memory::enqueue_copy_buffer_rect(
      queue(), target, to.side(1, 1, 1), source, from.side(4, 3, 0), region);
  ASSERT_EQ(copied.wait(), CL_SUCCESS);
  for (std::size_t z = 0; z < 2; ++z) {
    for (std::size_t y = 0; y < 2; ++y) {
      for (std::size_t x = 0; x < 3; ++x) to.at(z + 1, y + 1, x + 1) = from.at(z, y + 3, x + 4);
    }
  }
  EXPECT_EQ(read_words(target.buffer(), to.values.size()), to.values);
}

TEST_P(OpenCLBufferOperations, RectBoxesAreCheckedAgainstTheRequestAndThePitches) {
  // 470 bytes requested: the buffer holds 480 (a size class), the span 470.
  PooledBuffer pooled = pool_->allocate(470);
  ASSERT_GE(pooled.buffer_size(), 480u);
  std::vector<unsigned char> host(480);
  const RectRegion rows{40, 12, 1};  // 480 bytes: fits the buffer, not the request
  const std::string past = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_write_buffer_rect(queue(), pooled, RectSide{}, host.data(),
                                                       host.size(), RectSide{}, rows);
  });
  EXPECT_NE(past.find("enqueue_write_buffer_rect: buffer box"), std::string::npos) << past;
  EXPECT_NE(past.find("ends at byte 480, past its 470 bytes"), std::string::npos) << past;

  const std::string host_short = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_read_buffer_rect(queue(), host.data(), 100, RectSide{}, pooled,
                                                      RectSide{}, RectRegion{40, 3, 1});
  });
  EXPECT_NE(host_short.find("host box"), std::string::npos) << host_short;
  EXPECT_NE(host_short.find("ends at byte 120, past its 100 bytes"), std::string::npos)
      << host_short;

  const std::string row_pitch = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_copy_buffer_rect(queue(), pooled, RectSide{{0, 0, 0}, 30, 0},
                                                      pooled, RectSide{{0, 5, 0}, 40, 0},
                                                      RectRegion{40, 2, 1});
  });
  EXPECT_NE(row_pitch.find("destination row_pitch 30 is less than the box's row of 40 bytes"),
            std::string::npos)
      << row_pitch;

  const std::string slice_pitch = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_read_buffer_rect(queue(), host.data(), host.size(),
                                                      RectSide{{0, 0, 0}, 10, 25}, pooled,
                                                      RectSide{}, RectRegion{10, 2, 2});
  });
  EXPECT_NE(slice_pitch.find("host slice_pitch 25 must be a multiple of the row pitch 10"),
            std::string::npos)
      << slice_pitch;

  const std::string overflow = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_read_buffer_rect(
        queue(), host.data(), host.size(), RectSide{}, pooled,
        RectSide{{0, static_cast<std::size_t>(-1) / 2, 0}, 16, 0}, RectRegion{16, 1, 1});
  });
  EXPECT_NE(overflow.find("origin overflows size_t"), std::string::npos) << overflow;

  const std::string null_host = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::enqueue_write_buffer_rect(queue(), pooled, RectSide{}, nullptr, 16,
                                                       RectSide{}, RectRegion{16, 1, 1});
  });
  EXPECT_NE(null_host.find("the host pointer is null"), std::string::npos) << null_host;
}

TEST_P(OpenCLBufferOperations, EmptyBoxesAndFillsMoveNothingAndStillGiveAnEvent) {
  PooledBuffer pooled = pool_->allocate(64);
  polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, cl_uint{7}).wait();
  const cl::Event box = polydev::opencl::memory::enqueue_write_buffer_rect(
      queue(), pooled, RectSide{}, nullptr, 0, RectSide{}, RectRegion{0, 4, 1});
  // A marker; its command type is not portable (NVIDIA reports a type of its own for markers with
  // a wait list), but it is not the transfer.
  EXPECT_NE(box.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_WRITE_BUFFER_RECT));
  EXPECT_EQ(box.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(), CL_COMPLETE);
  const cl::Event fill =
      polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, cl_uint{9}, 64, to_end, {box});
  EXPECT_NE(fill.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_FILL_BUFFER));
  ASSERT_EQ(fill.wait(), CL_SUCCESS);
  EXPECT_EQ(read_words(pooled.buffer(), 16), std::vector<cl_uint>(16, 7u));
}

TEST_P(OpenCLBufferOperations, FillsCoverTheRequestAndNotTheRestOfTheSizeClass) {
  PooledBuffer pooled = pool_->allocate(1000);  // a 1024-byte buffer
  polydev::opencl::memory::enqueue_fill_buffer(queue(), BufferSpan(pooled.buffer()), cl_uchar{0xee})
      .wait();
  polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, cl_uint{0x01020304u}).wait();
  const std::vector<unsigned char> bytes = read_all(pooled, 1024);
  for (std::size_t i = 0; i < 1000; ++i) {
    cl_uint word = 0x01020304u;
    ASSERT_EQ(bytes[i], reinterpret_cast<const unsigned char*>(&word)[i % 4]) << "at " << i;
  }
  for (std::size_t i = 1000; i < 1024; ++i) ASSERT_EQ(bytes[i], 0xee) << "at " << i;

  // A 16-byte vector pattern over a middle part, by offset and size.
  const cl_float4 pattern = {{1.5f, -2.0f, 3.25f, 0.0f}};
  polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, pattern, 32, 64).wait();
  std::vector<float> floats(24);
  ASSERT_EQ(queue().enqueueReadBuffer(pooled.buffer(), CL_TRUE, 0, 96, floats.data()), CL_SUCCESS);
  for (std::size_t i = 8; i < 24; ++i) EXPECT_EQ(floats[i], pattern.s[i % 4]) << "at " << i;
  EXPECT_NE(floats[7], pattern.s[3]) << "the word before the offset is left alone";
}

TEST_P(OpenCLBufferOperations, FillArgumentsOpenCLWouldRejectAreErrorsThatSayWhy) {
  PooledBuffer pooled = pool_->allocate(1000);
  const unsigned char three[3] = {1, 2, 3};
  const std::string odd = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, three, sizeof three); });
  EXPECT_NE(odd.find("a pattern of 3 bytes; OpenCL fills with patterns of 1, 2, 4"),
            std::string::npos)
      << odd;
  const std::string huge = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, three, 256); });
  EXPECT_NE(huge.find("a pattern of 256 bytes"), std::string::npos) << huge;
  const std::string null = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, nullptr, 4); });
  EXPECT_NE(null.find("the pattern is a null pointer"), std::string::npos) << null;
  const std::string misaligned = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, cl_uint{1}, 2, 8); });
  EXPECT_NE(misaligned.find("offset 2 and size 8 must be multiples of the pattern's 4 bytes"),
            std::string::npos)
      << misaligned;
  const std::string past = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, cl_uint{1}, 992, 16); });
  EXPECT_NE(past.find("16 bytes from offset 992 reach past the 1000 bytes"), std::string::npos)
      << past;
  const std::string start = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, cl_uint{1}, 1004, 0); });
  EXPECT_NE(start.find("offset 1004 is past the 1000 bytes"), std::string::npos) << start;
  const std::string tail = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill_buffer(queue(), pooled, cl_float4{}, 0); });
  EXPECT_NE(tail.find("size 1000 must be multiples of the pattern's 16 bytes"), std::string::npos)
      << tail;
}

// enqueue_fill takes PyOpenCL's order, size before offset, the reverse of enqueue_fill_buffer.
TEST_P(OpenCLBufferOperations, EnqueueFillFillsPooledAndPlainBuffersBySizeThenOffset) {
  PooledBuffer pooled = pool_->allocate(1000);  // a 1024-byte buffer
  const cl::Event middle = enqueue_sized_fills(queue(), pooled.buffer(), pooled);
  EXPECT_EQ(middle.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_FILL_BUFFER));
  expect_sized_fills(read_all(pooled, 1024).data());

  // A plain cl::Buffer is filled over all of its CL_MEM_SIZE.
  cl::Buffer plain(context(), CL_MEM_READ_WRITE, 64);
  polydev::opencl::memory::enqueue_fill(queue(), plain, cl_uint{0x12345678u}).wait();
  EXPECT_EQ(read_words(plain, 16), std::vector<cl_uint>(16, 0x12345678u));
}

TEST_P(OpenCLBufferOperations, EnqueueFillOnABufferReportsTheErrorsOfEnqueueFillBuffer) {
  PooledBuffer pooled = pool_->allocate(1000);
  expect_fill_refusals(queue(), pooled, "enqueue_fill_buffer");
}

TEST_P(OpenCLBufferOperations, SlicesAndSubRegionsSeeTheirPartOfThePooledBuffer) {
  const std::size_t align = base_alignment();
  ASSERT_GT(align, 0u);
  const std::size_t words = 4 * align / kWord;
  PooledBuffer pooled = pool_->allocate(4 * align);
  std::vector<cl_uint> data(words);
  std::iota(data.begin(), data.end(), 0u);
  ASSERT_EQ(queue().enqueueWriteBuffer(pooled.buffer(), CL_TRUE, 0, 4 * align, data.data()),
            CL_SUCCESS);

  const cl::Buffer middle = polydev::opencl::memory::slice(pooled, align, 3 * align);
  EXPECT_EQ(middle.getInfo<CL_MEM_SIZE>(), 2 * align);
  EXPECT_EQ(middle.getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()(), pooled.get());
  const std::size_t per = align / kWord;
  EXPECT_EQ(read_words(middle, 2 * per),
            std::vector<cl_uint>(data.begin() + static_cast<std::ptrdiff_t>(per),
                                 data.begin() + static_cast<std::ptrdiff_t>(3 * per)));

  // A region of a region is a sub-buffer of the pooled buffer itself, at the summed offset.
  const cl::Buffer inner = polydev::opencl::memory::sub_region(middle, align, align);
  EXPECT_EQ(inner.getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()(), pooled.get());
  EXPECT_EQ(inner.getInfo<CL_MEM_OFFSET>(), 2 * align);
  polydev::opencl::memory::enqueue_fill_buffer(queue(), inner, cl_uint{0xabcdefu}).wait();
  const std::vector<cl_uint> all = read_words(pooled.buffer(), words);
  for (std::size_t i = 0; i < words; ++i) {
    ASSERT_EQ(all[i], i >= 2 * per && i < 3 * per ? 0xabcdefu : static_cast<cl_uint>(i))
        << "at " << i;
  }

  const cl::Buffer read_only =
      polydev::opencl::memory::sub_region(pooled, 0, align, CL_MEM_READ_ONLY);
  EXPECT_EQ(read_only.getInfo<CL_MEM_FLAGS>() & CL_MEM_READ_ONLY,
            static_cast<cl_mem_flags>(CL_MEM_READ_ONLY));
}

TEST_P(OpenCLBufferOperations, BadRegionsAndSlicesAreErrorsThatSayWhy) {
  const std::size_t align = base_alignment();
  PooledBuffer pooled = pool_->allocate(4 * align - 8);  // the request ends inside the last block
  if (align > 1) {
    const std::string misaligned = thrown_message<polydev::error>(
        [&] { polydev::opencl::memory::sub_region(pooled, align / 2, 8); });
    EXPECT_NE(misaligned.find("origin " + std::to_string(align / 2) +
                              " (from the start of the memory object) is not a multiple of " +
                              std::to_string(align) + " bytes, CL_DEVICE_MEM_BASE_ADDR_ALIGN"),
              std::string::npos)
        << misaligned;
  }
  const std::string empty =
      thrown_message<polydev::error>([&] { polydev::opencl::memory::sub_region(pooled, 0, 0); });
  EXPECT_NE(empty.find("a region of 0 bytes"), std::string::npos) << empty;
  const std::string past = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::slice(pooled, 3 * align, 4 * align); });
  EXPECT_NE(past.find(std::to_string(align) + " bytes at origin " + std::to_string(3 * align) +
                      " reach past the " + std::to_string(4 * align - 8) + " bytes"),
            std::string::npos)
      << past;
  const std::string reversed =
      thrown_message<polydev::error>([&] { polydev::opencl::memory::slice(pooled, 8, 4); });
  EXPECT_NE(reversed.find("begin 8 is after end 4"), std::string::npos) << reversed;

  // Flags the parent forbids come back from OpenCL as they are.
  MemoryPool read_only{ImmediateAllocator(queue(), CL_MEM_READ_ONLY)};
  PooledBuffer constant = read_only.allocate(align);
  try {
    polydev::opencl::memory::sub_region(constant, 0, align, CL_MEM_WRITE_ONLY);
    ADD_FAILURE() << "a writable region of a read-only buffer was made";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.api(), "clCreateSubBuffer");
    EXPECT_EQ(failure.code(), CL_INVALID_VALUE) << failure.what();
  }
}

TEST_P(OpenCLBufferOperations, MappedRegionUnmapsWhenItGoes) {
  PooledBuffer pooled = pool_->allocate(256 * kWord);
  const cl::Buffer buffer = pooled.buffer();
  {
    MappedRegion region =
        polydev::opencl::memory::map_buffer(queue(), pooled, CL_MAP_WRITE_INVALIDATE_REGION);
    ASSERT_TRUE(region.mapped());
    EXPECT_EQ(region.size(), 256 * kWord);
    EXPECT_EQ(region.row_pitch(), 0u);
    EXPECT_EQ(map_count(buffer, 1), 1u);
    cl_uint* words = region.as<cl_uint>();
    for (cl_uint i = 0; i < 256; ++i) words[i] = i * i;
  }
  ASSERT_EQ(queue().finish(), CL_SUCCESS);
  EXPECT_EQ(map_count(buffer, 0), 0u) << "the destructor unmapped";
  std::vector<cl_uint> squares(256);
  for (cl_uint i = 0; i < 256; ++i) squares[i] = i * i;
  EXPECT_EQ(read_words(buffer, 256), squares);

  // A part, mapped without blocking: usable once its event completes.
  MappedRegion part = polydev::opencl::memory::map_buffer(queue(), pooled, CL_MAP_READ, 16 * kWord,
                                                          4 * kWord, /*blocking=*/false);
  ASSERT_EQ(part.event().wait(), CL_SUCCESS);
  EXPECT_EQ(std::vector<cl_uint>(part.as<cl_uint>(), part.as<cl_uint>() + 4),
            (std::vector<cl_uint>{256, 289, 324, 361}));
  const cl::Event unmapped = part.unmap();
  ASSERT_EQ(unmapped.wait(), CL_SUCCESS);
  EXPECT_EQ(unmapped.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_UNMAP_MEM_OBJECT));
  EXPECT_FALSE(part.mapped());
  EXPECT_EQ(part.data(), nullptr);
  const std::string twice = thrown_message<polydev::error>([&] { part.unmap(); });
  EXPECT_NE(twice.find("nothing is mapped"), std::string::npos) << twice;
  EXPECT_EQ(map_count(buffer, 0), 0u);
}

TEST_P(OpenCLBufferOperations, MovingAMappedRegionMovesTheUnmap) {
  PooledBuffer first = pool_->allocate(64);
  PooledBuffer second = pool_->allocate(64);
  MappedRegion kept = polydev::opencl::memory::map_buffer(queue(), first, CL_MAP_READ);
  MappedRegion moved(std::move(kept));
  EXPECT_FALSE(kept.mapped());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_TRUE(moved.mapped());
  EXPECT_EQ(map_count(first.buffer(), 1), 1u) << "a move does not unmap";
  moved = polydev::opencl::memory::map_buffer(queue(), second, CL_MAP_READ);
  ASSERT_EQ(queue().finish(), CL_SUCCESS);
  EXPECT_EQ(map_count(first.buffer(), 0), 0u) << "assignment unmapped the region it replaced";
  EXPECT_EQ(map_count(second.buffer(), 1), 1u);
  moved.unmap().wait();
  EXPECT_EQ(map_count(second.buffer(), 0), 0u);
}

TEST_P(OpenCLBufferOperations, BadMapsAreErrorsThatSayWhy) {
  PooledBuffer pooled = pool_->allocate(1000);
  const std::string past = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::map_buffer(queue(), pooled, CL_MAP_READ, 996, 8); });
  EXPECT_NE(past.find("map_buffer: 8 bytes from offset 996 reach past the 1000 bytes"),
            std::string::npos)
      << past;
  const std::string start = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::map_buffer(queue(), pooled, CL_MAP_READ, 1001); });
  EXPECT_NE(start.find("offset 1001 is past the 1000 bytes"), std::string::npos) << start;
  const std::string empty = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::map_buffer(queue(), pooled, CL_MAP_READ, 1000); });
  EXPECT_NE(empty.find("a map of 0 bytes"), std::string::npos) << empty;
  const std::string invalidate = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::map_buffer(queue(), pooled,
                                        CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION);
  });
  EXPECT_NE(invalidate.find("map_buffer: CL_MAP_WRITE_INVALIDATE_REGION goes alone"),
            std::string::npos)
      << invalidate;
  const std::string unknown = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::map_buffer(queue(), pooled, CL_MAP_READ | (1u << 10)); });
  EXPECT_NE(unknown.find("map flags 1025 hold bits other than CL_MAP_READ"), std::string::npos)
      << unknown;
  EXPECT_EQ(map_count(pooled.buffer(), 0), 0u);
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLBufferOperations);

}  // namespace
