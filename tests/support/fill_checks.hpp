#pragma once

// What the enqueue_fill tests of buffers and of SVM share: the same fills in PyOpenCL's argument
// order (size before offset), the bytes they leave, and the errors of the operation they dispatch
// to, so that both kinds of memory are held to one behaviour.

#include <gtest/gtest.h>

#include <CL/opencl.hpp>
#include <cstddef>
#include <string>

#include "polydev/error.hpp"
#include "polydev/opencl/memory/fill.hpp"
#include "support/opencl_checks.hpp"

namespace polydev::testing::pools_support {

// Fills `block` (1024 bytes) with 0xee, then, through `request` (its first 1000 bytes), words of 5,
// 9s over the 16 bytes at 32, and the 2-byte pattern 0x0a0b over the 8 bytes at 992. Returns the
// finished event of the fill of 9s, the one given a size and an offset.
template <typename Block, typename Request>
cl::Event enqueue_sized_fills(const cl::CommandQueue& queue, const Block& block,
                              const Request& request) {
  polydev::opencl::memory::enqueue_fill(queue, block, cl_uchar{0xee}).wait();
  polydev::opencl::memory::enqueue_fill(queue, request, cl_uint{5}).wait();
  cl::Event middle = polydev::opencl::memory::enqueue_fill(queue, request, cl_uint{9}, 16, 32);
  EXPECT_EQ(middle.wait(), CL_SUCCESS);
  const cl_ushort half = 0x0a0b;
  polydev::opencl::memory::enqueue_fill(queue, request, &half, sizeof half, 8, 992).wait();
  return middle;
}

// Checks the 1024 bytes of the block after enqueue_sized_fills.
inline void expect_sized_fills(const unsigned char* bytes) {
  const cl_ushort half = 0x0a0b;
  for (std::size_t i = 0; i < 1024; ++i) {
    const cl_uint word = (i >= 32 && i < 48) ? 9u : 5u;
    const unsigned char expected = i >= 1000 ? 0xee
                                   : i >= 992
                                       ? reinterpret_cast<const unsigned char*>(&half)[i % 2]
                                       : reinterpret_cast<const unsigned char*>(&word)[i % 4];
    ASSERT_EQ(bytes[i], expected) << "at " << i;
  }
}

// enqueue_fill over `request` (1000 bytes) refuses a range past it, and a pattern of 3 bytes with
// the message of `who`, the operation it dispatches to.
template <typename Request>
void expect_fill_refusals(const cl::CommandQueue& queue, const Request& request, const char* who) {
  const std::string past = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill(queue, request, cl_uint{1}, 16, 992); });
  EXPECT_NE(past.find("16 bytes from offset 992 reach past the 1000 bytes"), std::string::npos)
      << past;
  const unsigned char three[3] = {1, 2, 3};
  const std::string odd = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::enqueue_fill(queue, request, three, sizeof three); });
  EXPECT_NE(odd.find(std::string(who) + ": a pattern of 3 bytes"), std::string::npos) << odd;
}

}  // namespace polydev::testing::pools_support
