// PYOPENCL_TEST: every observed PyOpenCL selection on the same fake machine, plus polydev's
// stricter errors and warnings where PyOpenCL raises a bare IndexError or silently repeats a
// device.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/selection.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::opencl::select_test_devices;
using polydev::opencl::Selection;
using polydev_test::Positions;
using polydev_test::positions;
using testing::AllOf;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

// What the error listings say about the fake machine.
const std::string kPlatform0Devices =
    "platform 0 'Intel(R) OpenCL' has 2 devices: 0 'Intel(R) Core(TM) i5 CPU', 1 'Intel(R) "
    "Iris(TM) Graphics'";
const std::string kPlatform1Devices =
    "platform 1 'NVIDIA CUDA' has 2 devices: 0 'NVIDIA H100', 1 'NVIDIA A100'";
const std::string kPlatform2Devices =
    "platform 2 'Portable Computing Language' has 1 device: 0 "
    "'cpu-skylake-avx512-Intel(R) Xeon(R)'";
const std::string kAllPlatforms = "there are 3 platforms: " + kPlatform0Devices + "; " +
                                  kPlatform1Devices + "; " + kPlatform2Devices;

class PyopenclTest : public testing::Test {
 protected:
  Selection select(const std::optional<std::string>& spec) const {
    return select_test_devices(spec, inventory_);
  }

  // The message of the selection_error that `spec` raises; a test failure if it raises none.
  std::string error_of(const std::string& spec) const {
    try {
      const Selection selection = select_test_devices(spec, inventory_);
      ADD_FAILURE() << "PYOPENCL_TEST='" << spec << "' selected " << selection.devices.size()
                    << " devices instead of throwing selection_error";
    } catch (const polydev::selection_error& failure) {
      return failure.what();
    }
    return {};
  }

  polydev::opencl::Inventory inventory_ = polydev_test::synthetic_opencl_inventory();
};

// --- rows of the §1.1 table ------------------------------------------------------------------

TEST_F(PyopenclTest, UnsetSelectsEveryDeviceInPlatformOrder) {
  const Selection selection = select(std::nullopt);
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}}));
  EXPECT_THAT(selection.warnings, IsEmpty());
}

TEST_F(PyopenclTest, EmptySelectsEveryDeviceInPlatformOrder) {
  const Selection selection = select("");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}}));
  EXPECT_THAT(selection.warnings, IsEmpty());
}

TEST_F(PyopenclTest, PlatformIndexSelectsAllItsDevices) {
  const Selection selection = select("0");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {0, 1}}));
  EXPECT_THAT(selection.warnings, IsEmpty());
}

TEST_F(PyopenclTest, PlatformAndDeviceIndex) {
  EXPECT_EQ(positions(select("1:1")), (Positions{{1, 1}}));
}

TEST_F(PyopenclTest, SeveralEntriesInTheOrderWritten) {
  const Selection selection = select("0:0,1;nvidia");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
  EXPECT_THAT(selection.warnings, IsEmpty());
}

TEST_F(PyopenclTest, DeviceNamesKeepTheOrderWritten) {
  EXPECT_EQ(positions(select("nvidia:a100,h100")), (Positions{{1, 1}, {1, 0}}));
}

TEST_F(PyopenclTest, NamesIgnoreCase) {
  EXPECT_EQ(positions(select("NVIDIA:H100")), (Positions{{1, 0}}));
}

TEST_F(PyopenclTest, VendorIsSearchedAndTheFirstMatchingPlatformWins) {
  // "corporation" is in the vendor of P0 and P1, in no platform name.
  EXPECT_EQ(positions(select("corporation")), (Positions{{0, 0}, {0, 1}}));
}

TEST_F(PyopenclTest, NegativePlatformIndexCountsFromTheEnd) {
  EXPECT_EQ(positions(select("-1")), (Positions{{2, 0}}));
}

TEST_F(PyopenclTest, NegativeDeviceIndexCountsFromTheEnd) {
  EXPECT_EQ(positions(select("1:-1")), (Positions{{1, 1}}));
}

TEST_F(PyopenclTest, PlatformIndexOutOfRangeNamesTheEntryAndListsThePlatforms) {
  EXPECT_EQ(error_of("5"),
            "PYOPENCL_TEST entry 1 '5': platform index 5 out of range; " + kAllPlatforms);
}

TEST_F(PyopenclTest, DeviceIndexOutOfRangeNamesTheEntryAndListsTheDevices) {
  EXPECT_EQ(error_of("0:7"),
            "PYOPENCL_TEST entry 1 '0:7': device index 7 out of range; " + kPlatform0Devices);
}

TEST_F(PyopenclTest, ErrorNamesTheNumberOfTheFailingEntry) {
  EXPECT_EQ(error_of("0;nvidia:5"),
            "PYOPENCL_TEST entry 2 'nvidia:5': device index 5 out of range; platform 1 'NVIDIA "
            "CUDA' has 2 devices: 0 'NVIDIA H100', 1 'NVIDIA A100'");
}

TEST_F(PyopenclTest, UnderscoreDigitSeparatorMakesTenWhichIsOutOfRange) {
  EXPECT_THAT(error_of("1_0"),
              AllOf(HasSubstr("PYOPENCL_TEST entry 1 '1_0'"),
                    HasSubstr("platform index 1_0 out of range"), HasSubstr(kAllPlatforms)));
}

TEST_F(PyopenclTest, NumericNameFragmentIsAnIndexNotAName) {
  // "100" is in "NVIDIA H100" and "NVIDIA A100", but an int is always an index.
  EXPECT_THAT(error_of("nvidia:100"),
              AllOf(HasSubstr("PYOPENCL_TEST entry 1 'nvidia:100'"),
                    HasSubstr("device index 100 out of range"), HasSubstr(kPlatform1Devices)));
}

TEST_F(PyopenclTest, UnknownPlatformNameListsThePlatforms) {
  EXPECT_THAT(error_of("x"), AllOf(HasSubstr("PYOPENCL_TEST entry 1 'x'"),
                                   HasSubstr("no platform matches 'x'"), HasSubstr(kAllPlatforms)));
}

TEST_F(PyopenclTest, DeviceNameIsOnlySearchedInItsPlatform) {
  // The Xeon exists, but on PoCL, not on the platform that "cuda" selects.
  EXPECT_THAT(error_of("cuda:xeon"),
              AllOf(HasSubstr("PYOPENCL_TEST entry 1 'cuda:xeon'"),
                    HasSubstr("no device matches 'xeon'"), HasSubstr(kPlatform1Devices)));
}

TEST_F(PyopenclTest, EqualsSignIsRejectedWithTheColonSpellingSuggested) {
  EXPECT_THAT(error_of("intel=i5,i7"),
              AllOf(HasSubstr("PYOPENCL_TEST entry 1 'intel=i5,i7'"),
                    HasSubstr("'=' is not a separator"), HasSubstr("did you mean 'intel:i5,i7'?")));
}

TEST_F(PyopenclTest, EqualsSignInTheDocumentedExampleIsRejectedAtItsEntry) {
  // The docstring's `0:0,1;intel=i5,i7`: the first entry is fine, the second is not.
  EXPECT_THAT(error_of("0:0,1;intel=i5,i7"), AllOf(HasSubstr("PYOPENCL_TEST entry 2 'intel=i5,i7'"),
                                                   HasSubstr("did you mean 'intel:i5,i7'?")));
}

TEST_F(PyopenclTest, TwoColonsInOneEntryAreASyntaxError) {
  EXPECT_THAT(error_of("0:0:0"),
              AllOf(HasSubstr("PYOPENCL_TEST entry 1 '0:0:0'"), HasSubstr("more than one ':'")));
}

TEST_F(PyopenclTest, LoneColonSelectsTheFirstDeviceOfTheFirstPlatformWithWarnings) {
  const Selection selection = select(":");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}}));
  EXPECT_THAT(
      selection.warnings,
      ElementsAre(AllOf(HasSubstr("PYOPENCL_TEST entry 1 ':'"), HasSubstr("empty platform name"),
                        HasSubstr("first platform, 0 'Intel(R) OpenCL'")),
                  AllOf(HasSubstr("PYOPENCL_TEST entry 1 ':'"), HasSubstr("empty device name"),
                        HasSubstr("first device, 0 'Intel(R) Core(TM) i5 CPU'"))));
}

TEST_F(PyopenclTest, EmptyDeviceNameSelectsTheFirstDeviceWithAWarning) {
  const Selection selection = select("0:");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}}));
  EXPECT_THAT(selection.warnings, ElementsAre(AllOf(HasSubstr("PYOPENCL_TEST entry 1 '0:'"),
                                                    HasSubstr("empty device name"))));
}

TEST_F(PyopenclTest, EmptyDeviceNameAfterAPlatformName) {
  const Selection selection = select("portable:");
  EXPECT_EQ(positions(selection), (Positions{{2, 0}}));
  EXPECT_THAT(selection.warnings, ElementsAre(HasSubstr("empty device name")));
}

TEST_F(PyopenclTest, LoneSemicolonSelectsTheFirstPlatformOnceWithWarnings) {
  // PyOpenCL yields P0 twice; polydev runs each device once and says why: the two empty entries
  // in one line, each device selected again in one line of its own.
  const Selection selection = select(";");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {0, 1}}));
  EXPECT_THAT(selection.warnings,
              ElementsAre("PYOPENCL_TEST: 2 empty entries (entries 1, 2; stray ';'?); like "
                          "PyOpenCL each selects the first platform, 0 'Intel(R) OpenCL', with "
                          "all its devices",
                          AllOf(HasSubstr("entry 2"), HasSubstr("already selected")),
                          AllOf(HasSubstr("entry 2"), HasSubstr("already selected"))));
}

TEST_F(PyopenclTest, RepeatedPlatformRunsEachDeviceOnceWithWarnings) {
  const Selection selection = select("0;0");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {0, 1}}));
  EXPECT_THAT(selection.warnings,
              ElementsAre("PYOPENCL_TEST entry 2 '0': device 0 'Intel(R) Core(TM) i5 CPU' of "
                          "platform 0 is already selected; it runs once",
                          "PYOPENCL_TEST entry 2 '0': device 1 'Intel(R) Iris(TM) Graphics' of "
                          "platform 0 is already selected; it runs once"));
}

TEST_F(PyopenclTest, SpacesAroundIndicesAreAccepted) {
  const Selection selection = select(" 1 : 0 ");
  EXPECT_EQ(positions(selection), (Positions{{1, 0}}));
  EXPECT_THAT(selection.warnings, IsEmpty());
}

TEST_F(PyopenclTest, TrailingSemicolonAddsTheRestOfTheFirstPlatform) {
  // PyOpenCL: P0:[i5], then P0:[i5, Iris]. polydev: i5 once, then Iris.
  const Selection selection = select("0:i5;");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {0, 1}}));
  EXPECT_THAT(selection.warnings,
              ElementsAre(AllOf(HasSubstr("PYOPENCL_TEST entry 2 ''"), HasSubstr("empty entry")),
                          AllOf(HasSubstr("entry 2"),
                                HasSubstr("device 0 'Intel(R) Core(TM) i5 CPU' of platform 0 is "
                                          "already selected"))));
}

// --- further rules of §1.1 -------------------------------------------------------------------

TEST_F(PyopenclTest, NeedleMaySpanNameAndVendor) {
  // "Portable Computing Language" + " " + "The pocl project".
  EXPECT_EQ(positions(select("language the")), (Positions{{2, 0}}));
  EXPECT_EQ(positions(select("LANGUAGE THE")), (Positions{{2, 0}}));
}

TEST_F(PyopenclTest, DeviceVendorIsSearched) {
  EXPECT_EQ(positions(select("pocl:genuineintel")), (Positions{{2, 0}}));
}

TEST_F(PyopenclTest, DeviceNeedlesHitTheirDeviceOnly) {
  EXPECT_EQ(positions(select("intel:i5")), (Positions{{0, 0}}));
  EXPECT_EQ(positions(select("intel:iris")), (Positions{{0, 1}}));
  EXPECT_EQ(positions(select("intel:graphics")), (Positions{{0, 1}}));
  EXPECT_EQ(positions(select("portable:xeon")), (Positions{{2, 0}}));
}

TEST_F(PyopenclTest, RepeatedDevicesInOneListRunOnceWithAWarning) {
  // PyOpenCL: [Iris, i5, i5].
  const Selection selection = select("intel:graphics,0,0");
  EXPECT_EQ(positions(selection), (Positions{{0, 1}, {0, 0}}));
  EXPECT_THAT(selection.warnings,
              ElementsAre(AllOf(HasSubstr("PYOPENCL_TEST entry 1 'intel:graphics,0,0'"),
                                HasSubstr("device 0 'Intel(R) Core(TM) i5 CPU' of platform 0 is "
                                          "already selected; it runs once"))));
}

// Found by tests/fuzz/fuzz_pyopencl_test: each repeat gave its own copy of one warning, each
// quoting the whole entry, so a long entry produced output quadratic in its length.
TEST_F(PyopenclTest, RepeatedEmptyDeviceNamesWarnOnce) {
  const Selection selection = select("0:,,");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}}));
  EXPECT_THAT(selection.warnings, ElementsAre(AllOf(HasSubstr("PYOPENCL_TEST entry 1 '0:,,'"),
                                                    HasSubstr("empty device name")),
                                              AllOf(HasSubstr("PYOPENCL_TEST entry 1 '0:,,'"),
                                                    HasSubstr("already selected; it runs once"))));
}

TEST_F(PyopenclTest, DeviceRepeatedManyTimesInOneEntryWarnsOnce) {
  std::string spec = "1:0";
  for (int i = 0; i < 1000; ++i) spec += ",0";
  const Selection selection = select(spec);
  EXPECT_EQ(positions(selection), (Positions{{1, 0}}));
  EXPECT_THAT(selection.warnings, ElementsAre(HasSubstr("device 0 'NVIDIA H100' of platform 1 is "
                                                        "already selected; it runs once")));
}

TEST_F(PyopenclTest, MostNegativeIndexIsTheFirstObject) {
  EXPECT_EQ(positions(select("-3")), (Positions{{0, 0}, {0, 1}}));
  EXPECT_EQ(positions(select("0:-2")), (Positions{{0, 0}}));
}

TEST_F(PyopenclTest, NegativeIndexBeyondTheStartIsOutOfRange) {
  EXPECT_THAT(error_of("-4"),
              AllOf(HasSubstr("platform index -4 out of range"), HasSubstr(kAllPlatforms)));
  EXPECT_THAT(error_of("2:-2"),
              AllOf(HasSubstr("device index -2 out of range"), HasSubstr(kPlatform2Devices)));
}

TEST_F(PyopenclTest, HugeIndicesAreOutOfRange) {
  EXPECT_THAT(error_of("99999999999999999999999"), HasSubstr("out of range"));
  EXPECT_THAT(error_of("-99999999999999999999999"), HasSubstr("out of range"));
  EXPECT_THAT(error_of("0:99999999999999999999999"), HasSubstr("device index"));
}

TEST_F(PyopenclTest, IndexWithSpacesIsReportedStripped) {
  EXPECT_THAT(error_of(" 9 "), HasSubstr("platform index 9 out of range"));
}

TEST_F(PyopenclTest, WhitespaceAroundANameIsPartOfTheNeedle) {
  // No trimming for names: the spaces must occur in "name vendor" as written.
  EXPECT_EQ(positions(select("cuda nvidia")), (Positions{{1, 0}, {1, 1}}));
  EXPECT_THAT(error_of("  cuda:h100"), HasSubstr("no platform matches '  cuda'"));
}

// --- indices as Python's int() reads them ------------------------------------------------------
// Each identifier below was checked with Python 3.11.7: int() accepts it (with the value used
// here) or raises ValueError, so that PyOpenCL takes it as an index or as a name.

TEST_F(PyopenclTest, UnicodeDecimalDigitsAreIndices) {
  EXPECT_EQ(positions(select("0:\xd9\xa1")), (Positions{{0, 1}}));                 // int('١') == 1
  EXPECT_EQ(positions(select("\xef\xbc\x91:\xef\xbc\x90")), (Positions{{1, 0}}));  // '１', '０'
  EXPECT_EQ(positions(select("-\xe0\xa5\xa7")), (Positions{{2, 0}}));  // int('-१') == -1
}

TEST_F(PyopenclTest, UnicodeWhitespaceAroundAnIndexIsStripped) {
  EXPECT_EQ(positions(select("\xc2\xa0"
                             "1\xe3\x80\x80:\xe2\x80\x83"
                             "0")),
            (Positions{{1, 0}}));  // U+00A0, U+3000, U+2003
  EXPECT_EQ(positions(select("\xc2\x85"
                             "1")),
            (Positions{{1, 0}, {1, 1}}));  // U+0085: platform 1, every device
}

TEST_F(PyopenclTest, InformationSeparatorsMakeANameNotAnIndex) {
  // int('\x1c1') raises: PyOpenCL looks for a platform whose name contains "\x1c1". The
  // message shows the control character escaped.
  EXPECT_THAT(error_of("\x1c"
                       "1"),
              HasSubstr(R"(no platform matches '\x1c1')"));
  EXPECT_THAT(error_of("0:1\x1f"), HasSubstr(R"(no device matches '1\x1f')"));
}

TEST_F(PyopenclTest, UnicodeIndexOutOfRangeShowsItsValue) {
  EXPECT_THAT(error_of("\xd9\xa5"),
              HasSubstr("platform index \xd9\xa5 (5) out of range"));  // '٥'
}

TEST_F(PyopenclTest, InvalidUtf8IsANameNotAnIndex) {
  // Python decodes the environment with surrogateescape; int() rejects the escaped bytes.
  EXPECT_THAT(error_of("1\xff"), HasSubstr(R"(no platform matches '1\xff')"));
  EXPECT_THAT(error_of("\xd9"), HasSubstr(R"(no platform matches '\xd9')"));  // a cut '١'
}

TEST_F(PyopenclTest, MoreThan4300DigitsAreANameNotAnIndex) {
  // int() of a 4301-digit text raises ValueError (CPython's int_max_str_digits), so PyOpenCL looks
  // for a name; 4300 digits are an index, out of range.
  EXPECT_THAT(error_of(std::string(4300, '1')), HasSubstr("platform index 1111"));
  EXPECT_THAT(error_of(std::string(4301, '1')), HasSubstr("no platform matches '1111"));
}

// --- repeated warnings, long selectors ------------------------------------------------------

std::size_t total_bytes(const std::vector<std::string>& lines) {
  std::size_t bytes = 0;
  for (const std::string& line : lines) bytes += line.size() + 1;
  return bytes;
}

TEST_F(PyopenclTest, HundredThousandEmptyEntriesGiveAFewShortLines) {
  // Each empty entry selects the first platform again: once one line per entry and per device.
  const Selection selection = select(std::string(99999, ';'));
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {0, 1}}));
  EXPECT_LT(selection.warnings.size(), 10u);
  EXPECT_LT(total_bytes(selection.warnings), 2048u);
  EXPECT_THAT(
      selection.warnings,
      ElementsAre("PYOPENCL_TEST: 100000 empty entries (entries 1, 2, 3, ... 100000; stray "
                  "';'?); like PyOpenCL each selects the first platform, 0 'Intel(R) OpenCL', "
                  "with all its devices",
                  "PYOPENCL_TEST: device 0 'Intel(R) Core(TM) i5 CPU' of platform 0 is selected "
                  "again by 99999 entries (entries 2, 3, 4, ... 100000); it runs once",
                  "PYOPENCL_TEST: device 1 'Intel(R) Iris(TM) Graphics' of platform 0 is selected "
                  "again by 99999 entries (entries 2, 3, 4, ... 100000); it runs once"));
}

TEST_F(PyopenclTest, RepeatedEntriesOfEveryKindGiveOneLineEach) {
  std::string spec;
  for (int i = 0; i < 50000; ++i) spec += ":;1:;";  // entries ':', '1:', ':', ...
  const Selection selection = select(spec + "2");
  EXPECT_EQ(positions(selection), (Positions{{0, 0}, {1, 0}, {2, 0}}));
  EXPECT_LT(selection.warnings.size(), 10u);
  EXPECT_LT(total_bytes(selection.warnings), 2048u);
  EXPECT_THAT(selection.warnings,
              testing::Contains(HasSubstr("PYOPENCL_TEST: 50000 entries with an empty platform "
                                          "name (entries 1, 3, 5, ... 99999)")));
  EXPECT_THAT(selection.warnings,
              testing::Contains(HasSubstr("PYOPENCL_TEST: 50000 entries with an empty device "
                                          "name for platform 1 (entries 2, 4, 6, ... 100000)")));
}

TEST_F(PyopenclTest, FourPlacesAreAllListed) {
  const Selection selection = select("1;1;1;1;1");
  EXPECT_THAT(selection.warnings,
              ElementsAre(HasSubstr("is selected again by 4 entries (entries 2, 3, 4, 5)"),
                          HasSubstr("is selected again by 4 entries (entries 2, 3, 4, 5)")));
}

TEST_F(PyopenclTest, AWarningQuotesOnlyTheStartOfALongEntry) {
  std::string entry = "1:0";
  for (int i = 0; i < 60000; ++i) entry += ",0";
  const Selection selection = select(entry);
  ASSERT_EQ(selection.warnings.size(), 1u);
  EXPECT_LT(selection.warnings[0].size(), 300u);
  EXPECT_THAT(selection.warnings[0],
              AllOf(HasSubstr("PYOPENCL_TEST entry 1 '1:0,0,0,0,"),
                    HasSubstr("'... (120003 bytes): device 0 'NVIDIA H100' of platform 1 is "
                              "already selected; it runs once")));
}

TEST_F(PyopenclTest, AnErrorQuotesOnlyTheStartOfALongEntryOrName) {
  const std::string name(100000, 'x');
  const std::string message = error_of("0:" + name);
  EXPECT_LT(message.size(), 600u);
  EXPECT_THAT(message, HasSubstr("no device matches 'xxxx"));
  EXPECT_THAT(message, HasSubstr("'... (100000 bytes)"));
}

// --- set selectors that select nothing ----------------------------------------------------

TEST(PyopenclTestEmptyInventory, UnsetOrEmptySelectorSelectsNothingWithoutError) {
  const auto inventory = polydev_test::empty_opencl_inventory();
  EXPECT_THAT(select_test_devices(std::nullopt, inventory).devices, IsEmpty());
  EXPECT_THAT(select_test_devices("", inventory).devices, IsEmpty());
}

TEST(PyopenclTestEmptyInventory, SetSelectorThrowsWithTheInventoryReason) {
  const auto inventory = polydev_test::empty_opencl_inventory();
  try {
    select_test_devices("0", inventory);
    ADD_FAILURE() << "expected selection_error";
  } catch (const polydev::selection_error& failure) {
    EXPECT_THAT(failure.what(),
                AllOf(HasSubstr("PYOPENCL_TEST entry 1 '0'"), HasSubstr("no OpenCL platform"),
                      HasSubstr("no OpenCL ICD loader")));
  }
}

TEST(PyopenclTestEmptyPlatform, UnsetSelectorSkipsThePlatformWithoutDevices) {
  const auto inventory = polydev_test::opencl_inventory_with_empty_platform();
  EXPECT_EQ(positions(select_test_devices(std::nullopt, inventory)), (Positions{{1, 0}}));
}

TEST(PyopenclTestEmptyPlatform, SelectorThatSelectsNoDeviceThrows) {
  const auto inventory = polydev_test::opencl_inventory_with_empty_platform();
  try {
    select_test_devices("0", inventory);
    ADD_FAILURE() << "expected selection_error";
  } catch (const polydev::selection_error& failure) {
    EXPECT_THAT(failure.what(),
                AllOf(HasSubstr("PYOPENCL_TEST '0' selects no device"),
                      HasSubstr("platform 0 'Empty Platform' has 0 devices (CL_DEVICE_NOT_FOUND)"),
                      HasSubstr("platform 1 'Portable Computing Language' has 1 device")));
  }
}

TEST(PyopenclTestEmptyPlatform, EmptyPlatformNextToAnotherWarns) {
  const auto inventory = polydev_test::opencl_inventory_with_empty_platform();
  const Selection selection = select_test_devices("0;1", inventory);
  EXPECT_EQ(positions(selection), (Positions{{1, 0}}));
  EXPECT_THAT(selection.warnings, ElementsAre(AllOf(HasSubstr("PYOPENCL_TEST entry 1 '0'"),
                                                    HasSubstr("selects no device"))));
}

TEST(PyopenclTestEmptyPlatform, DeviceOfAPlatformWithoutDevicesIsAnError) {
  const auto inventory = polydev_test::opencl_inventory_with_empty_platform();
  EXPECT_THROW(select_test_devices("0:0", inventory), polydev::selection_error);
  EXPECT_THROW(select_test_devices("0:", inventory), polydev::selection_error);
}

}  // namespace
