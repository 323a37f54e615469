// The conformance suite run on a host-memory pool: checks the suite itself on every machine, and
// that the pool core passes it without any device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "polydev/pools/arena.hpp"
#include "polydev/pools/pool.hpp"
#include "polydev/testing/conformance/pool_conformance.hpp"
#include "support/aligned_host_allocator.hpp"

namespace {

struct HostAllocator {
  using block_type = unsigned char*;
  block_type allocate(std::size_t bytes) {
    auto* memory = static_cast<unsigned char*>(std::malloc(bytes));
    if (memory == nullptr) throw polydev::out_of_memory("malloc of " + std::to_string(bytes));
    return memory;
  }
  void free(block_type block) noexcept { std::free(block); }
};

using HostPool = polydev::pools::Pool<HostAllocator>;
using HostBlock = polydev::pools::PooledAllocation<HostAllocator>;

// Parametrized by the bin scheme, so the suite also runs with coarse and fine size classes.
class HostPoolConformance : public ::testing::TestWithParam<unsigned> {
 public:
  HostPool make_pool() { return HostPool(HostAllocator{}, GetParam()); }
  void write(const HostBlock& block, const std::vector<unsigned char>& bytes) {
    std::memcpy(block.block(), bytes.data(), bytes.size());
  }
  std::vector<unsigned char> read(const HostBlock& block, std::size_t count) {
    return {block.block(), block.block() + count};
  }
};

POLYDEV_POOL_CONFORMANCE_TESTS(HostPoolConformance)

INSTANTIATE_TEST_SUITE_P(LeadingBits, HostPoolConformance, ::testing::Values(0u, 2u, 4u, 8u),
                         [](const ::testing::TestParamInfo<unsigned>& bits) {
                           return "b" + std::to_string(bits.param);
                         });

// The same pool in front of an arena (the design of cuda::CompactDeviceMemoryPool), over host
// memory aligned as cudaMalloc's.
using polydev::testing::AlignedHostAllocator;
using HostArena = polydev::pools::Arena<AlignedHostAllocator>;
using ArenaPool = polydev::pools::Pool<HostArena>;
using ArenaBlock = polydev::pools::PooledAllocation<HostArena>;

class ArenaPoolConformance : public ::testing::TestWithParam<unsigned> {
 public:
  ArenaPool make_pool() {
    polydev::pools::ArenaOptions options;
    options.segment_granularity = 1 << 16;  // small segments: the suite's blocks span several
    return ArenaPool(HostArena(AlignedHostAllocator{}, options), GetParam());
  }
  void write(const ArenaBlock& block, const std::vector<unsigned char>& bytes) {
    std::memcpy(block.block().ptr, bytes.data(), bytes.size());
  }
  std::vector<unsigned char> read(const ArenaBlock& block, std::size_t count) {
    const auto* first = static_cast<const unsigned char*>(block.block().ptr);
    return {first, first + count};
  }
};

POLYDEV_POOL_CONFORMANCE_TESTS(ArenaPoolConformance)

INSTANTIATE_TEST_SUITE_P(LeadingBits, ArenaPoolConformance, ::testing::Values(4u, 6u),
                         [](const ::testing::TestParamInfo<unsigned>& bits) {
                           return "b" + std::to_string(bits.param);
                         });

}  // namespace
