// make_default_context with a fake context maker: the configured device without fallback,
// otherwise the first device on which a context can be made (PyCUDA's sequential rule).
#include "polydev/cuda/context.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "polydev/error.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::cuda::ContextChoice;
using polydev::cuda::DeviceSetting;
using polydev::cuda::DeviceSources;
using polydev::cuda::make_default_context;
using testing::AllOf;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

// Records every device it is asked for and fails (with polydev::error) on the `failing` ones.
struct FakeMaker {
  std::set<int> failing;
  std::vector<int> calls;

  polydev::cuda::ContextMaker maker() {
    return [this](int ordinal) {
      calls.push_back(ordinal);
      if (failing.count(ordinal) != 0) {
        throw polydev::error("device " + std::to_string(ordinal) + " is busy");
      }
    };
  }
};

class DefaultContextTest : public testing::Test {
 protected:
  polydev::cuda::Inventory inventory_ = polydev_test::synthetic_cuda_inventory();
  FakeMaker fake_;
};

TEST_F(DefaultContextTest, WithoutSettingTheFirstDeviceIsUsed) {
  const ContextChoice choice = make_default_context(DeviceSources{}, inventory_, fake_.maker());
  EXPECT_EQ(choice.ordinal, 0);
  EXPECT_EQ(choice.how, "first device on which a context could be made");
  EXPECT_THAT(fake_.calls, ElementsAre(0));
}

TEST_F(DefaultContextTest, WithoutSettingTheNextDeviceIsTriedWhenOneFails) {
  fake_.failing = {0};
  const ContextChoice choice = make_default_context(DeviceSources{}, inventory_, fake_.maker());
  EXPECT_EQ(choice.ordinal, 1);
  EXPECT_THAT(fake_.calls, ElementsAre(0, 1));
}

TEST_F(DefaultContextTest, AllDevicesFailingIsAnErrorListingEachFailure) {
  fake_.failing = {0, 1};
  try {
    make_default_context(DeviceSources{}, inventory_, fake_.maker());
    ADD_FAILURE() << "expected polydev::error";
  } catch (const polydev::selection_error&) {
    ADD_FAILURE() << "a device that refuses a context is not a selection error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), AllOf(HasSubstr("any of the 2 CUDA devices"),
                                      HasSubstr("0 'NVIDIA H200': device 0 is busy"),
                                      HasSubstr("1 'NVIDIA H200': device 1 is busy")));
  }
  EXPECT_THAT(fake_.calls, ElementsAre(0, 1));
}

TEST_F(DefaultContextTest, ConfiguredDeviceIsUsed) {
  DeviceSources sources;
  sources.cuda_device = "1";
  const ContextChoice choice = make_default_context(sources, inventory_, fake_.maker());
  EXPECT_EQ(choice.ordinal, 1);
  EXPECT_EQ(choice.how, "CUDA_DEVICE='1'");
  EXPECT_THAT(fake_.calls, ElementsAre(1));
}

TEST_F(DefaultContextTest, ConfiguredDeviceFromAFileNamesTheFile) {
  DeviceSources sources;
  sources.underscore_file = DeviceSetting{"/home/user/.cuda_device", "1"};
  const ContextChoice choice = make_default_context(sources, inventory_, fake_.maker());
  EXPECT_EQ(choice.ordinal, 1);
  EXPECT_EQ(choice.how, "file /home/user/.cuda_device");
}

TEST_F(DefaultContextTest, ConfiguredDeviceFailureIsNotFollowedByAFallback) {
  fake_.failing = {0};
  DeviceSources sources;
  sources.cuda_device = "0";
  try {
    make_default_context(sources, inventory_, fake_.maker());
    ADD_FAILURE() << "expected polydev::error";
  } catch (const polydev::error& failure) {
    EXPECT_STREQ(failure.what(), "device 0 is busy");
  }
  EXPECT_THAT(fake_.calls, ElementsAre(0));
}

TEST_F(DefaultContextTest, BadSettingIsASelectionErrorAndNoContextIsMade) {
  DeviceSources sources;
  sources.cuda_device = "2";
  EXPECT_THROW(make_default_context(sources, inventory_, fake_.maker()), polydev::selection_error);
  sources.cuda_device = "0,1";
  EXPECT_THROW(make_default_context(sources, inventory_, fake_.maker()), polydev::selection_error);
  EXPECT_THAT(fake_.calls, IsEmpty());
}

TEST_F(DefaultContextTest, NoDeviceIsAnError) {
  const auto inventory = polydev_test::unavailable_cuda_inventory();
  try {
    make_default_context(DeviceSources{}, inventory, fake_.maker());
    ADD_FAILURE() << "expected polydev::error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(),
                AllOf(HasSubstr("no CUDA device"), HasSubstr("cudaErrorInsufficientDriver")));
  }
  EXPECT_THAT(fake_.calls, IsEmpty());
}

TEST_F(DefaultContextTest, SettingWithoutDeviceIsASelectionError) {
  DeviceSources sources;
  sources.cuda_device = "0";
  EXPECT_THROW(
      make_default_context(sources, polydev_test::unavailable_cuda_inventory(), fake_.maker()),
      polydev::selection_error);
  EXPECT_THAT(fake_.calls, IsEmpty());
}

TEST_F(DefaultContextTest, FailureThatIsNotAPolydevErrorIsNotSwallowed) {
  // Only polydev::error means "this device cannot take a context"; anything else is a bug.
  std::vector<int> calls;
  const auto maker = [&calls](int ordinal) {
    calls.push_back(ordinal);
    throw std::logic_error("bug in the maker");
  };
  EXPECT_THROW(make_default_context(DeviceSources{}, inventory_, maker), std::logic_error);
  EXPECT_THAT(calls, ElementsAre(0));
}

// The statuses whose documentation says they leave the context unusable, and some that do not:
// success, invalid value, out of memory, devices unavailable, launch out of resources, unknown.
TEST(StickyErrors, AreTheKernelFaultsTheCudaDocumentationNames) {
  for (long sticky : {226L, 700L, 702L, 714L, 715L, 716L, 717L, 718L, 719L, 721L, 911L}) {
    EXPECT_TRUE(polydev::cuda::is_sticky_error(sticky)) << sticky;
  }
  for (long other : {0L, 1L, 2L, 46L, 701L, 720L, 999L, -1L}) {
    EXPECT_FALSE(polydev::cuda::is_sticky_error(other)) << other;
  }
}

// A new thread has no current context: whatever the build and the machine, asking for it is an
// error (polydev::error; polydev::backend_error where the driver cannot be reached).
TEST(CurrentContext, OnAThreadWithoutOneIsAnError) {
  for (const bool device : {false, true}) {
    std::string message = "<nothing was thrown>";
    std::thread([&] {
      try {
        if (device) {
          polydev::cuda::current_context_device();
        } else {
          polydev::cuda::current_context_id();
        }
      } catch (const polydev::error& failure) {
        message = failure.what();
      }
    }).join();
    EXPECT_THAT(message, testing::AnyOf(HasSubstr("no CUDA context is current on this thread"),
                                        HasSubstr("no CUDA context can be current"),
                                        HasSubstr("no CUDA context can exist")))
        << (device ? "current_context_device" : "current_context_id");
  }
}

}  // namespace
