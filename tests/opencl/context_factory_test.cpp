// The fixture's context factory: a fresh context each call, first-argument caches cleared.
#include <memory>
#include <polydev/gtest.hpp>

#include "polydev/caches.hpp"

namespace {

class ContextFactory : public polydev::testing::OpenCLTest {};

TEST_P(ContextFactory, MakesANewContextEveryCall) {
  cl::Context first = make_context();
  cl::Context second = make_context();
  EXPECT_NE(first(), second());
}

TEST_P(ContextFactory, ClearsFirstArgumentCachesAndReleasesTheirContexts) {
  polydev::KeyedCache<cl_context, std::shared_ptr<cl::Context>> programs(
      polydev::CacheScope::first_argument);
  cl::Context context = make_context();
  auto cached =
      programs.get_or_compute(context(), [&] { return std::make_shared<cl::Context>(context); });
  std::weak_ptr<cl::Context> watch = cached;
  cached.reset();
  ASSERT_EQ(programs.size(), 1u);
  ASSERT_FALSE(watch.expired());

  cl::Context next = make_context();
  EXPECT_EQ(programs.size(), 0u);
  EXPECT_TRUE(watch.expired()) << "the cache still holds a reference to the old context";
}

TEST_P(ContextFactory, LeavesCudaContextCachesAlone) {
  polydev::KeyedCache<int, int> cuda_side(polydev::CacheScope::cuda_context);
  cuda_side.get_or_compute(1, [] { return 1; });
  make_context();
  EXPECT_EQ(cuda_side.size(), 1u);
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(ContextFactory);

}  // namespace
