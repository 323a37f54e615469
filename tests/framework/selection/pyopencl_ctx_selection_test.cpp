// PYOPENCL_CTX (create_some_context, non-interactive): every behaviour observed of PyOpenCL's
// choice on the fake machine of the PYOPENCL_TEST tests, with PyOpenCL HEAD's behaviour for
// one-device platforms.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "polydev/error.hpp"
#include "polydev/opencl/selection.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::opencl::choose_devices;
using polydev::opencl::Selection;
using polydev_test::Positions;
using polydev_test::positions;
using testing::AllOf;
using testing::HasSubstr;

class PyopenclCtxTest : public testing::Test {
 protected:
  Positions choose(const std::optional<std::string>& ctx,
                   const std::optional<std::string>& test = std::nullopt) const {
    return positions(choose_devices(ctx, test, inventory_));
  }

  std::string error_of(const std::optional<std::string>& ctx,
                       const std::optional<std::string>& test = std::nullopt) const {
    try {
      const Selection selection = choose_devices(ctx, test, inventory_);
      ADD_FAILURE() << "PYOPENCL_CTX='" << ctx.value_or("<unset>") << "' chose "
                    << selection.devices.size() << " devices instead of throwing selection_error";
    } catch (const polydev::selection_error& failure) {
      return failure.what();
    }
    return {};
  }

  polydev::opencl::Inventory inventory_ = polydev_test::synthetic_opencl_inventory();
};

TEST_F(PyopenclCtxTest, PlatformIndexAloneChoosesItsFirstDevice) {
  EXPECT_EQ(choose("1"), (Positions{{1, 0}}));
}

TEST_F(PyopenclCtxTest, PlatformAndDeviceIndex) { EXPECT_EQ(choose("1:1"), (Positions{{1, 1}})); }

TEST_F(PyopenclCtxTest, DeviceListChoosesSeveralDevices) {
  EXPECT_EQ(choose("1:0,1"), (Positions{{1, 0}, {1, 1}}));
}

TEST_F(PyopenclCtxTest, PlatformAndDeviceNames) {
  EXPECT_EQ(choose("nvidia:a100"), (Positions{{1, 1}}));
}

TEST_F(PyopenclCtxTest, LastPlatformWhoseNameMatchesWins) {
  // "o" is in "Intel(R) OpenCL" and "Portable Computing Language": PoCL, the last one.
  EXPECT_EQ(choose("o"), (Positions{{2, 0}}));
}

TEST_F(PyopenclCtxTest, PlatformVendorIsNotSearched) {
  EXPECT_THAT(error_of("corporation"),
              AllOf(HasSubstr("PYOPENCL_CTX 'corporation'"),
                    HasSubstr("platform answer 'corporation' matches no platform"),
                    HasSubstr("platform 1 'NVIDIA CUDA' has 2 devices")));
}

TEST_F(PyopenclCtxTest, OutOfRangePlatformIndexFallsBackToNameAndFails) {
  EXPECT_THAT(error_of("7"), AllOf(HasSubstr("PYOPENCL_CTX '7'"),
                                   HasSubstr("platform answer '7' matches no platform"),
                                   HasSubstr("an index 0..2")));
}

TEST_F(PyopenclCtxTest, NegativeDeviceIndexIsNotAnIndex) {
  EXPECT_THAT(error_of("1:-1"),
              AllOf(HasSubstr("PYOPENCL_CTX '1:-1'"),
                    HasSubstr("device answer '-1' matches no "
                              "device"),
                    HasSubstr("an index 0..1"),
                    HasSubstr("platform 1 'NVIDIA CUDA' has 2 devices: 0 'NVIDIA H100', 1 "
                              "'NVIDIA A100'")));
}

TEST_F(PyopenclCtxTest, LeftoverAnswersAreAnError) {
  EXPECT_THAT(error_of("2:0:0"),
              AllOf(HasSubstr("PYOPENCL_CTX '2:0:0'"), HasSubstr("not all choices were used"),
                    HasSubstr("left over: '0'")));
  EXPECT_THAT(error_of("1:1:a:b"), HasSubstr("left over: 'a:b'"));
}

TEST_F(PyopenclCtxTest, SingleDevicePlatformConsumesADeviceAnswer) {
  // PyOpenCL HEAD; before v2024.3 this was "not all provided choices were used".
  EXPECT_EQ(choose("2:0"), (Positions{{2, 0}}));
}

TEST_F(PyopenclCtxTest, SingleDevicePlatformWithoutDeviceAnswer) {
  EXPECT_EQ(choose("2"), (Positions{{2, 0}}));
  EXPECT_EQ(choose("portable"), (Positions{{2, 0}}));
}

TEST_F(PyopenclCtxTest, PyopenclTestTakesPrecedence) {
  EXPECT_EQ(choose("1:1", "2"), (Positions{{2, 0}}));
}

TEST_F(PyopenclCtxTest, EmptyPyopenclTestMeansFirstDeviceOfFirstPlatform) {
  EXPECT_EQ(choose("1:1", ""), (Positions{{0, 0}}));
}

TEST_F(PyopenclCtxTest, PyopenclTestGivesOnlyItsFirstDevice) {
  EXPECT_EQ(choose(std::nullopt, "nvidia:a100,h100"), (Positions{{1, 1}}));
  EXPECT_EQ(choose(std::nullopt, "1;0"), (Positions{{1, 0}}));
}

TEST_F(PyopenclCtxTest, PyopenclCtxIsNotParsedWhenPyopenclTestIsSet) {
  EXPECT_EQ(choose("no such platform:9:9", "1"), (Positions{{1, 0}}));
}

TEST_F(PyopenclCtxTest, InvalidPyopenclTestIsAnErrorEvenWithAValidPyopenclCtx) {
  EXPECT_THAT(error_of("1:1", "5"), HasSubstr("PYOPENCL_TEST entry 1 '5'"));
}

TEST_F(PyopenclCtxTest, UnsetOrEmptyChoosesTheFirstDeviceOfTheFirstPlatform) {
  EXPECT_EQ(choose(std::nullopt), (Positions{{0, 0}}));
  EXPECT_EQ(choose(""), (Positions{{0, 0}}));
}

TEST_F(PyopenclCtxTest, EmptyAnswersMeanIndexZero) {
  EXPECT_EQ(choose(":"), (Positions{{0, 0}}));
  EXPECT_EQ(choose("1:"), (Positions{{1, 0}}));
  EXPECT_EQ(choose(":1"), (Positions{{0, 1}}));
}

TEST_F(PyopenclCtxTest, DeviceVendorIsNotSearched) {
  // Both P0 devices have vendor "Intel(R) Corporation"; only names count here.
  EXPECT_THAT(error_of("0:corporation"),
              HasSubstr("device answer 'corporation' matches no device"));
}

TEST_F(PyopenclCtxTest, FirstDeviceWhoseNameMatchesWins) {
  // "intel" is in both P0 device names.
  EXPECT_EQ(choose("0:intel"), (Positions{{0, 0}}));
  EXPECT_EQ(choose("0:GRAPHICS"), (Positions{{0, 1}}));
}

TEST_F(PyopenclCtxTest, OutOfRangeDeviceIndexFallsBackToANameMatch) {
  // 5 is no device index of P0, but "5" is in "Intel(R) Core(TM) i5 CPU".
  EXPECT_EQ(choose("0:5"), (Positions{{0, 0}}));
}

TEST_F(PyopenclCtxTest, PlatformIndexTakesSpacesLikePythonInt) {
  EXPECT_EQ(choose(" 1 : 1 "), (Positions{{1, 1}}));
}

TEST(PyopenclCtxNoDevice, NoPlatformIsAnError) {
  const auto inventory = polydev_test::empty_opencl_inventory();
  try {
    choose_devices(std::nullopt, std::nullopt, inventory);
    ADD_FAILURE() << "expected selection_error";
  } catch (const polydev::selection_error& failure) {
    EXPECT_THAT(failure.what(),
                AllOf(HasSubstr("no OpenCL platform"), HasSubstr("no OpenCL ICD loader")));
  }
}

TEST(PyopenclCtxNoDevice, EmptyPyopenclTestOnEmptyInventoryFallsThroughToTheSameError) {
  const auto inventory = polydev_test::empty_opencl_inventory();
  EXPECT_THROW(choose_devices("0", "", inventory), polydev::selection_error);
}

TEST(PyopenclCtxNoDevice, PlatformWithoutDevicesIsAnError) {
  const auto inventory = polydev_test::opencl_inventory_with_empty_platform();
  try {
    choose_devices("0", std::nullopt, inventory);
    ADD_FAILURE() << "expected selection_error";
  } catch (const polydev::selection_error& failure) {
    EXPECT_THAT(
        failure.what(),
        AllOf(HasSubstr("PYOPENCL_CTX '0'"), HasSubstr("no devices found"),
              HasSubstr("platform 0 'Empty Platform' has 0 devices (CL_DEVICE_NOT_FOUND)")));
  }
}

}  // namespace
