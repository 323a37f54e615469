// Enumeration and the process overview from many threads at once (run under ThreadSanitizer by
// ci/tsan.sh): the overview is built once and shared, and fresh enumerations in parallel agree with
// it, so nothing in polydev's enumeration keeps shared mutable state.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/overview.hpp"

namespace {

constexpr int kThreads = 16;

// The keys of an inventory, in enumeration order, as one comparable value.
std::vector<std::string> keys(const polydev::opencl::Inventory& inventory) {
  std::vector<std::string> result;
  for (const auto& platform : inventory.platforms) {
    for (const auto& device : platform.devices) result.push_back(device.key);
  }
  return result;
}

std::vector<std::string> keys(const polydev::cuda::Inventory& inventory) {
  std::vector<std::string> result;
  for (const auto& device : inventory.devices) result.push_back(device.key);
  return result;
}

TEST(ConcurrentEnumeration, EveryThreadGetsTheOneSystemOverview) {
  std::vector<const polydev::Overview*> seen(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&seen, i] { seen[i] = &polydev::system_overview(); });
  }
  for (auto& thread : threads) thread.join();
  for (const auto* overview : seen) EXPECT_EQ(overview, &polydev::system_overview());
}

TEST(ConcurrentEnumeration, ParallelEnumerationsAgreeWithTheSystemInventories) {
  const auto opencl_expected = keys(polydev::opencl::system_inventory());
  const auto cuda_expected = keys(polydev::cuda::system_inventory());
  std::vector<std::vector<std::string>> opencl_seen(kThreads);
  std::vector<std::vector<std::string>> cuda_seen(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      opencl_seen[i] = keys(polydev::opencl::enumerate());
      cuda_seen[i] = keys(polydev::cuda::enumerate());
    });
  }
  for (auto& thread : threads) thread.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(opencl_seen[i], opencl_expected) << "thread " << i;
    EXPECT_EQ(cuda_seen[i], cuda_expected) << "thread " << i;
  }
}

}  // namespace
