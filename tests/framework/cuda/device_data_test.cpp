// DeviceData without a device: the architecture table, PyCUDA's alignment helpers, and the errors.
#include "polydev/cuda/device_data.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <iterator>
#include <string>
#include <thread>
#include <utility>

#include "polydev/cuda/inventory.hpp"
#include "polydev/error.hpp"

namespace {

using polydev::cuda::DeviceData;
using ::testing::HasSubstr;

// The message of the polydev::error that `call` throws, or a failure when it throws none.
template <typename Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const polydev::error& failure) {
    return failure.what();
  }
  ADD_FAILURE() << "no polydev::error was thrown";
  return {};
}

TEST(CudaDeviceData, HopperRowHasTheH100sAttributes) {
  // The values an H100 reports (cudaGetDeviceProperties on an H100 with CUDA 13.0), except the SM
  // count, which is not an architecture value.
  const DeviceData h100 = DeviceData::for_compute_capability(9, 0);
  EXPECT_EQ(h100.max_threads, 1024);
  EXPECT_EQ(h100.warp_size, 32);
  EXPECT_EQ(h100.max_threads_per_mp, 2048);
  EXPECT_EQ(h100.warps_per_mp, 64);
  EXPECT_EQ(h100.thread_blocks_per_mp, 32);
  EXPECT_EQ(h100.registers, 65536);
  EXPECT_EQ(h100.max_registers_per_block, 65536);
  EXPECT_EQ(h100.max_registers_per_thread, 255);
  EXPECT_EQ(h100.shared_memory, 233472u);
  EXPECT_EQ(h100.max_shared_memory_per_block, 49152u);
  EXPECT_EQ(h100.max_shared_memory_per_block_optin, 232448u);
  EXPECT_EQ(h100.reserved_shared_memory_per_block, 1024u);
  EXPECT_EQ(h100.smem_alloc_granularity, 128);
  EXPECT_EQ(h100.smem_granularity, 32);
  EXPECT_EQ(h100.register_allocation_unit, "warp");
  EXPECT_EQ(h100.register_allocation_unit_size, 256);
  EXPECT_EQ(h100.warp_allocation_granularity, 4);
  EXPECT_EQ(h100.multiprocessors, 0);
  EXPECT_THAT(h100.name, HasSubstr("compute capability 9.0"));
}

TEST(CudaDeviceData, RowsFollowTheProgrammingGuide) {
  struct Expected {
    int major, minor, warps_per_mp, blocks_per_mp;
    std::size_t smem_kib, optin_kib;
  };
  // CUDA Programming Guide, "Compute Capabilities" Tables 30 and 31 (CUDA 12's for 7.0 and 7.2).
  const Expected rows[] = {
      {7, 0, 64, 32, 96, 96},    {7, 2, 64, 32, 96, 96},    {7, 5, 32, 16, 64, 64},
      {8, 0, 64, 32, 164, 163},  {8, 6, 48, 16, 100, 99},   {8, 7, 48, 16, 164, 163},
      {8, 9, 48, 24, 100, 99},   {9, 0, 64, 32, 228, 227},  {10, 0, 64, 32, 228, 227},
      {10, 3, 64, 32, 228, 227}, {11, 0, 48, 24, 228, 227}, {12, 0, 48, 24, 100, 99},
      {12, 1, 48, 24, 100, 99},
  };
  ASSERT_EQ(std::size(rows), DeviceData::supported_compute_capabilities().size());
  for (const Expected& row : rows) {
    SCOPED_TRACE(std::to_string(row.major) + "." + std::to_string(row.minor));
    const DeviceData data = DeviceData::for_compute_capability(row.major, row.minor);
    EXPECT_EQ(data.warps_per_mp, row.warps_per_mp);
    EXPECT_EQ(data.thread_blocks_per_mp, row.blocks_per_mp);
    EXPECT_EQ(data.shared_memory, row.smem_kib * 1024);
    EXPECT_EQ(data.max_shared_memory_per_block_optin, row.optin_kib * 1024);
    // 7.x reserves nothing per block and allocates in 256-byte units; later ones 1 KiB and 128.
    EXPECT_EQ(data.reserved_shared_memory_per_block, row.major >= 8 ? 1024u : 0u);
    EXPECT_EQ(data.smem_alloc_granularity, row.major >= 8 ? 128 : 256);
  }
}

TEST(CudaDeviceData, EveryRowIsConsistent) {
  for (const std::string& cc : DeviceData::supported_compute_capabilities()) {
    SCOPED_TRACE(cc);
    const DeviceData data = DeviceData::for_compute_capability(cc);
    EXPECT_EQ(data.max_threads_per_mp, data.warps_per_mp * data.warp_size);
    EXPECT_GE(data.max_threads_per_mp, data.max_threads);
    EXPECT_LE(data.max_shared_memory_per_block, data.max_shared_memory_per_block_optin);
    // What a block may take, with the driver's reservation, is exactly the SM's largest carve-out.
    EXPECT_EQ(data.max_shared_memory_per_block_optin + data.reserved_shared_memory_per_block,
              data.shared_memory);
    ASSERT_FALSE(data.shared_memory_capacities.empty());
    EXPECT_EQ(data.shared_memory_capacities.back(), data.shared_memory);
    for (std::size_t i = 1; i < data.shared_memory_capacities.size(); ++i) {
      EXPECT_LT(data.shared_memory_capacities[i - 1], data.shared_memory_capacities[i]);
    }
    EXPECT_EQ(data.max_shared_memory_per_block_optin % data.smem_alloc_granularity, 0u);
    EXPECT_EQ(
        data.registers % (data.warp_allocation_granularity * data.register_allocation_unit_size),
        0);
    EXPECT_THAT(data.name, HasSubstr("compute capability " + cc));
  }
}

TEST(CudaDeviceData, TextNamesTheSameRow) {
  const DeviceData from_text = DeviceData::for_compute_capability("12.1");
  EXPECT_EQ(from_text.compute_capability_major, 12);
  EXPECT_EQ(from_text.compute_capability_minor, 1);
  EXPECT_EQ(from_text.shared_memory, DeviceData::for_compute_capability(12, 1).shared_memory);
}

TEST(CudaDeviceData, UnknownArchitectureListsTheSupportedOnes) {
  const std::initializer_list<std::pair<int, int>> unknown{{6, 1}, {8, 8}, {13, 0}, {10, 1}};
  for (const auto& [major, minor] : unknown) {
    const std::string message = error_of([&] { DeviceData::for_compute_capability(major, minor); });
    EXPECT_THAT(message, HasSubstr("compute capability " + std::to_string(major) + "." +
                                   std::to_string(minor)));
    EXPECT_THAT(message, HasSubstr("7.0, 7.2, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.3, 11.0, "
                                   "12.0, 12.1"));
  }
}

TEST(CudaDeviceData, MalformedTextSaysWhatIsExpected) {
  for (const char* text : {"9", "9.", ".0", "9.x", "", " 9.0", "9.0.1", "sm_90", "-9.0"}) {
    EXPECT_THAT(error_of([&] { DeviceData::for_compute_capability(text); }),
                HasSubstr("'" + std::string(text) + "' is not of the form MAJOR.MINOR"))
        << text;
  }
}

TEST(CudaDeviceData, FromDeviceWithoutADeviceIsAnError) {
  const auto& inventory = polydev::cuda::system_inventory();
  if (inventory.available) GTEST_SKIP() << "this machine has a CUDA device";
  // Without the backend the message says so; with it, the runtime's error names the call.
  EXPECT_THROW(DeviceData::from_device(0), polydev::error);
}

TEST(CudaDeviceData, FromTheCurrentContextWithoutOneIsAnError) {
  // A new thread has no current context; the message depends on the build and the machine.
  std::string message;
  std::thread([&message] { message = error_of([] { DeviceData::from_device(); }); }).join();
#if !defined(POLYDEV_WITH_CUDA)
  EXPECT_THAT(message, HasSubstr("polydev was built without the CUDA backend"));
#else
  if (polydev::cuda::system_inventory().available) {
    EXPECT_THAT(message, HasSubstr("no CUDA context is current on this thread"));
  } else {
    EXPECT_THAT(message, HasSubstr("cudaGetDriverEntryPointByVersion failed"));
  }
#endif
}

TEST(CudaDeviceData, AlignBytesFollowsPyCuda) {
  const DeviceData data = DeviceData::for_compute_capability(9, 0);
  EXPECT_EQ(data.align_bytes(), 64);
  EXPECT_EQ(data.align_bytes(4), 64);
  EXPECT_EQ(data.align_bytes(8), 128);
  EXPECT_EQ(data.align_bytes(16), 128);
  for (int size : {0, 1, 2, 3, 12, 32, -4}) {
    EXPECT_THAT(error_of([&] { data.align_bytes(size); }),
                HasSubstr("no alignment possible for fetches of size " + std::to_string(size)))
        << size;
  }
}

TEST(CudaDeviceData, AlignRoundsUpToTheAlignment) {
  const DeviceData data = DeviceData::for_compute_capability(9, 0);
  EXPECT_EQ(data.align(0), 0u);
  EXPECT_EQ(data.align(1), 64u);
  EXPECT_EQ(data.align(64), 64u);
  EXPECT_EQ(data.align(100), 128u);
  EXPECT_EQ(data.align(100, 8), 128u);
  EXPECT_EQ(data.align(129, 16), 256u);
  EXPECT_THROW(data.align(100, 3), polydev::error);
}

TEST(CudaDeviceData, AlignWordsAndDtype) {
  const DeviceData data = DeviceData::for_compute_capability(9, 0);
  EXPECT_EQ(data.align_words(4), 16);
  EXPECT_EQ(data.align_words(8), 16);
  EXPECT_EQ(data.align_words(16), 8);
  EXPECT_THROW(data.align_words(3), polydev::error);
  EXPECT_EQ(data.align_dtype(10, 8), 16u);
  EXPECT_EQ(data.align_dtype(16, 8), 16u);
  EXPECT_EQ(data.align_dtype(17, 4), 32u);
  EXPECT_EQ(data.align_dtype(0, 16), 0u);
  EXPECT_THROW(data.align_dtype(10, 2), polydev::error);
}

TEST(CudaDeviceData, CoalesceRoundsToSixteen) {
  const DeviceData data = DeviceData::for_compute_capability(9, 0);
  EXPECT_EQ(data.coalesce(0), 0);
  EXPECT_EQ(data.coalesce(1), 16);
  EXPECT_EQ(data.coalesce(16), 16);
  EXPECT_EQ(data.coalesce(17), 32);
  EXPECT_THAT(error_of([&] { data.coalesce(-1); }), HasSubstr("thread count -1 is negative"));
}

TEST(CudaDeviceData, TextureChannelCounts) {
  EXPECT_EQ(DeviceData::make_valid_tex_channel_count(1), 1);
  EXPECT_EQ(DeviceData::make_valid_tex_channel_count(2), 2);
  EXPECT_EQ(DeviceData::make_valid_tex_channel_count(3), 4);
  EXPECT_EQ(DeviceData::make_valid_tex_channel_count(4), 4);
  for (int size : {0, -1, 5, 8}) {
    EXPECT_THAT(error_of([&] { DeviceData::make_valid_tex_channel_count(size); }),
                HasSubstr("expected 1..4"))
        << size;
  }
}

}  // namespace
