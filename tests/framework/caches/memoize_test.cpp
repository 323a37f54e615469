// FirstArgMemoized (first_arg_dependent_memoize) on plain values; with OpenCL contexts in
// tests/framework/opencl/program_cache_test.cpp. ContextDependentMemoized needs a current CUDA
// context: tests/framework/cuda/memoize_test.cpp.
#include "polydev/memoize.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace {

using polydev::FirstArgMemoized;

TEST(FirstArgMemoized, ComputesOncePerArguments) {
  int calls = 0;
  FirstArgMemoized<std::string(int, std::string)> join([&calls](int first, const std::string& s) {
    ++calls;
    return std::to_string(first) + s;
  });
  EXPECT_EQ(join(1, "a"), "1a");
  EXPECT_EQ(join(1, "a"), "1a");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(join(1, "b"), "1b");
  EXPECT_EQ(join(2, "a"), "2a");
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(join.size(), 3u);
}

TEST(FirstArgMemoized, ExceptionsAreNotCached) {
  int calls = 0;
  FirstArgMemoized<int(int)> flaky([&calls](int x) {
    if (++calls == 1) throw std::runtime_error("first call fails");
    return x * 2;
  });
  EXPECT_THROW(flaky(4), std::runtime_error);
  EXPECT_EQ(flaky.size(), 0u);
  EXPECT_EQ(flaky(4), 8);
  EXPECT_EQ(flaky(4), 8);
  EXPECT_EQ(calls, 2);
}

TEST(FirstArgMemoized, ClearFirstArgCachesReleasesTheFirstArgumentAndTheResult) {
  auto first = std::make_shared<int>(7);
  std::weak_ptr<int> watched = first;
  FirstArgMemoized<std::shared_ptr<int>(std::shared_ptr<int>)> twice(
      [](const std::shared_ptr<int>& p) { return std::make_shared<int>(*p * 2); });
  std::weak_ptr<int> result = twice(first);
  EXPECT_EQ(*result.lock(), 14);
  first.reset();
  EXPECT_FALSE(watched.expired()) << "the cache keeps its first argument alive, like PyOpenCL";
  polydev::clear_context_caches();
  EXPECT_FALSE(watched.expired()) << "the CUDA-context clear must not touch first-arg caches";
  polydev::clear_first_arg_caches();
  EXPECT_TRUE(watched.expired());
  EXPECT_TRUE(result.expired());
  EXPECT_EQ(twice.size(), 0u);
}

}  // namespace
