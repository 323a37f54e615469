// FirstArgMemoized (first_arg_dependent_memoize) on plain values; with OpenCL contexts in
// tests/framework/opencl/program_cache_test.cpp. ContextDependentMemoized needs a current CUDA
// context: tests/framework/cuda/memoize_test.cpp.
#include "polydev/memoize.hpp"

#include <gtest/gtest.h>

#if defined(POLYDEV_WITH_OPENCL)
#include <CL/opencl.hpp>
#endif
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

// PyOpenCL's test_context_dep_memoize memoizes a function that returns nothing.
TEST(FirstArgMemoized, AVoidFunctionRunsOncePerKeyAndLaterCallsDoNothing) {
  int calls = 0;
  FirstArgMemoized<void(int, std::string)> touch([&calls](int, const std::string&) { ++calls; });
  touch(1, "a");
  touch(1, "a");
  EXPECT_EQ(calls, 1);
  touch(1, "b");
  touch(2, "a");
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(touch.size(), 3u);
  polydev::clear_first_arg_caches();
  touch(1, "a");
  EXPECT_EQ(calls, 4) << "a cleared key runs the function again";
}

// (Built with the OpenCL backend only: cl::Context's destructor links clReleaseContext.)
#if defined(POLYDEV_WITH_OPENCL)
// The finding's own type; a default cl::Context holds no handle, so no driver is needed.
TEST(FirstArgMemoized, AVoidFunctionOfAContextCompilesAndRunsOnce) {
  int calls = 0;
  FirstArgMemoized<void(cl::Context)> do_something([&calls](const cl::Context&) { ++calls; });
  const cl::Context context;
  do_something(context);
  do_something(context);
  EXPECT_EQ(calls, 1);
}
#endif

TEST(FirstArgMemoized, AVoidFunctionThatThrowsIsNotMarkedAsRun) {
  int calls = 0;
  FirstArgMemoized<void(int)> flaky([&calls](int) {
    if (++calls == 1) throw std::runtime_error("first call fails");
  });
  EXPECT_THROW(flaky(4), std::runtime_error);
  EXPECT_EQ(flaky.size(), 0u);
  flaky(4);
  flaky(4);
  EXPECT_EQ(calls, 2);
}

}  // namespace
