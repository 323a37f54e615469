// context_dependent_memoize on every CUDA device: entries are keyed by the context current on the
// calling thread (the primary context and a cuCtxCreate context on one device have their own),
// only clear_context_caches() empties them (the CUDA fixture calls it after every test), a throw
// caches nothing, and a call with no current context is an error.
#include "polydev/cuda/memoize.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <polydev/gtest.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "driver_context.hpp"
#include "polydev/caches.hpp"
#include "polydev/cuda/device_data.hpp"
#include "polydev/cuda/inventory.hpp"
#include "polydev/error.hpp"

namespace {

using polydev::cuda::ContextDependentMemoized;
using polydev_test::driver_current_context_id;
using polydev_test::DriverContext;

// What a real user caches per context: something computed on the current device.
ContextDependentMemoized<std::string(int)>& device_descriptions() {
  static ContextDependentMemoized<std::string(int)> cache([](int tag) {
    int ordinal = -1;
    cudaDeviceProp properties{};
    if (cudaGetDevice(&ordinal) != cudaSuccess ||
        cudaGetDeviceProperties(&properties, ordinal) != cudaSuccess) {
      throw std::runtime_error("no current CUDA device");
    }
    return std::to_string(tag) + ":" + std::to_string(ordinal) + ":" + properties.name;
  });
  return cache;
}

class ContextMemoize : public polydev::testing::CudaTest {
 protected:
  // Every test of this suite starts from an empty cache and fills it: if the fixture stopped
  // clearing after each test, the second test to run would see the first one's entries.
  void starts_empty_and_caches_per_context() {
    EXPECT_EQ(device_descriptions().size(), 0u) << "the previous test's entries were not cleared";
    EXPECT_NE(driver_current_context_id(), 0u) << "the fixture made no context current";
    EXPECT_EQ(polydev::cuda::current_context_id(), driver_current_context_id());
    const std::string first = device_descriptions()(7);
    EXPECT_EQ(first, "7:" + std::to_string(ordinal()) + ":" + device_info().name);
    EXPECT_EQ(device_descriptions()(7), first);
    EXPECT_EQ(device_descriptions().size(), 1u);
  }

  // Computes the ID of the context current while it runs, straight from the driver, and counts
  // its calls: a result tells which context it was computed in.
  int calls_ = 0;
  ContextDependentMemoized<unsigned long long(int)> context_of_computation_{[this](int) {
    ++calls_;
    return driver_current_context_id();
  }};
};

TEST_P(ContextMemoize, FirstTestStartsWithEmptyCache) { starts_empty_and_caches_per_context(); }

TEST_P(ContextMemoize, SecondTestStartsWithEmptyCache) { starts_empty_and_caches_per_context(); }

TEST_P(ContextMemoize, OnlyClearContextCachesEmptiesIt) {
  EXPECT_EQ(context_of_computation_(3), polydev::cuda::current_context_id());
  EXPECT_EQ(context_of_computation_(3), polydev::cuda::current_context_id());
  EXPECT_EQ(calls_, 1);
  polydev::clear_first_arg_caches();
  EXPECT_EQ(context_of_computation_.size(), 1u) << "the first-arg clear must not touch it";
  polydev::clear_context_caches();
  EXPECT_EQ(context_of_computation_.size(), 0u);
  context_of_computation_(3);
  EXPECT_EQ(calls_, 2);
}

TEST_P(ContextMemoize, AFunctionThatThrowsCachesNothing) {
  int attempts = 0;
  ContextDependentMemoized<int(int)> failing_once([&attempts](int x) {
    if (++attempts == 1) throw std::runtime_error("first attempt fails");
    return x;
  });
  EXPECT_THROW(failing_once(4), std::runtime_error);
  EXPECT_EQ(failing_once.size(), 0u);
  EXPECT_EQ(failing_once(4), 4);
  EXPECT_EQ(failing_once(4), 4);
  EXPECT_EQ(attempts, 2);
}

TEST_P(ContextMemoize, TwoContextsOnOneDeviceHaveTheirOwnEntries) {
  const unsigned long long primary = polydev::cuda::current_context_id();
  EXPECT_EQ(context_of_computation_(5), primary);
  {
    DriverContext second(ordinal());  // current now, on the same device
    ASSERT_NE(second.id(), primary);
    EXPECT_EQ(polydev::cuda::current_context_id(), second.id());
    EXPECT_EQ(polydev::cuda::current_context_device(), ordinal());
    EXPECT_EQ(context_of_computation_(5), second.id()) << "the primary context's entry was used";
    EXPECT_EQ(context_of_computation_(5), second.id());
    EXPECT_EQ(calls_, 2);
    EXPECT_EQ(context_of_computation_.size(), 2u);
  }
  // The second context is popped and destroyed: the primary context is current again and finds
  // its own entry.
  EXPECT_EQ(polydev::cuda::current_context_id(), primary);
  EXPECT_EQ(context_of_computation_(5), primary);
  EXPECT_EQ(calls_, 2);
}

TEST_P(ContextMemoize, ALaterContextNeverGetsADestroyedOnesEntries) {
  unsigned long long first_id = 0;
  {
    DriverContext first(ordinal());
    first_id = first.id();
    EXPECT_EQ(context_of_computation_(1), first_id);
  }
  // The driver may put the next context at the destroyed one's address; its ID is new.
  DriverContext second(ordinal());
  EXPECT_NE(second.id(), first_id);
  EXPECT_EQ(context_of_computation_(1), second.id());
  EXPECT_EQ(calls_, 2);
}

TEST_P(ContextMemoize, ThePrimaryContextMadeAgainAfterAResetIsANewContext) {
  const unsigned long long before = polydev::cuda::current_context_id();
  EXPECT_EQ(context_of_computation_(3), before);
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  ASSERT_EQ(cudaFree(nullptr), cudaSuccess);  // makes the primary context again
  const unsigned long long after = polydev::cuda::current_context_id();
  EXPECT_NE(after, before);
  EXPECT_EQ(context_of_computation_(3), after);
  EXPECT_EQ(calls_, 2);
}

TEST_P(ContextMemoize, AnotherDeviceGetsItsOwnEntry) {
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  if (count < 2) GTEST_SKIP() << "needs a second CUDA device; this machine has " << count;
  const std::string here = device_descriptions()(1);
  const int other = (ordinal() + 1) % count;
  ASSERT_EQ(cudaSetDevice(other), cudaSuccess);
  ASSERT_EQ(cudaFree(nullptr), cudaSuccess);
  EXPECT_EQ(polydev::cuda::current_context_device(), other);
  const std::string there = device_descriptions()(1);
  ASSERT_EQ(cudaSetDevice(ordinal()), cudaSuccess);
  EXPECT_NE(here, there);
  EXPECT_EQ(there.rfind("1:" + std::to_string(other) + ":", 0), 0u) << there;
  EXPECT_EQ(device_descriptions().size(), 2u);
}

POLYDEV_INSTANTIATE_CUDA_TEST_SUITE_P(ContextMemoize);

// The message of what `call` throws as polydev::error (any other outcome fails the test).
template <typename Call>
std::string error_on_a_thread_without_context(Call call) {
  std::string message = "<nothing was thrown>";
  // A new thread has no current context until something makes one current on it.
  std::thread([&] {
    try {
      call();
    } catch (const polydev::error& failure) {
      message = failure.what();
    } catch (const std::exception& failure) {
      message = std::string("<not a polydev::error> ") + failure.what();
    }
  }).join();
  return message;
}

// The start of the message: without a driver no context can exist, and the lookup of the driver
// says so; with one, the thread simply has none.
std::string expected_no_context_message() {
  return polydev::cuda::system_inventory().available
             ? "no CUDA context is current on this thread; make one current first"
             : "cudaGetDriverEntryPointByVersion failed: ";
}

TEST(ContextDependentMemoizedWithoutContext, IsAnErrorAndCachesNothing) {
  int calls = 0;
  ContextDependentMemoized<int(int)> square([&calls](int x) {
    ++calls;
    return x * x;
  });
  const std::string message = error_on_a_thread_without_context([&] { square(3); });
  EXPECT_NE(message.find(expected_no_context_message()), std::string::npos) << message;
  EXPECT_EQ(calls, 0) << "the function ran without a context";
  EXPECT_EQ(square.size(), 0u);
}

TEST(CurrentContextWithoutContext, IdAndDeviceAreErrors) {
  for (const auto& [what, call] :
       {std::pair<std::string, std::function<void()>>{"current_context_id",
                                                      [] { polydev::cuda::current_context_id(); }},
        {"current_context_device", [] { polydev::cuda::current_context_device(); }},
        {"DeviceData::from_device()", [] { polydev::cuda::DeviceData::from_device(); }}}) {
    const std::string message = error_on_a_thread_without_context(call);
    EXPECT_NE(message.find(expected_no_context_message()), std::string::npos)
        << what << ": " << message;
  }
}

}  // namespace
