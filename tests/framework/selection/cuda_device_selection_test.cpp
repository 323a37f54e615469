// CUDA_DEVICE, ~/.cuda_device and ~/.cuda-device: precedence, lists, errors naming the source and
// the valid range, and reading the real files from $HOME.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <optional>
#include <string>

#include "polydev/cuda/selection.hpp"
#include "polydev/error.hpp"
#include "support/scoped_environment.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::cuda::default_ordinal;
using polydev::cuda::DeviceSetting;
using polydev::cuda::DeviceSources;
using polydev::cuda::effective_setting;
using polydev::cuda::select_test_devices;
using polydev::cuda::Selection;
using testing::AllOf;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

const std::string kUnderscore = "/home/user/.cuda_device";
const std::string kHyphen = "/home/user/.cuda-device";

DeviceSources from_variable(const std::string& value) {
  DeviceSources sources;
  sources.cuda_device = value;
  return sources;
}

DeviceSources from_underscore_file(const std::string& value) {
  DeviceSources sources;
  sources.underscore_file = DeviceSetting{kUnderscore, value};
  return sources;
}

// The message of the selection_error that selecting from `sources` raises.
std::string error_of(const DeviceSources& sources, const polydev::cuda::Inventory& inventory) {
  try {
    const Selection selection = select_test_devices(sources, inventory);
    ADD_FAILURE() << "selected " << selection.ordinals.size()
                  << " devices instead of throwing selection_error";
  } catch (const polydev::selection_error& failure) {
    return failure.what();
  }
  return {};
}

class CudaSelectionTest : public testing::Test {
 protected:
  polydev::cuda::Inventory inventory_ = polydev_test::synthetic_cuda_inventory();
};

TEST_F(CudaSelectionTest, NoSettingSelectsEveryDevice) {
  const Selection selection = select_test_devices(DeviceSources{}, inventory_);
  EXPECT_THAT(selection.ordinals, ElementsAre(0, 1));
  EXPECT_FALSE(selection.setting.has_value());
  EXPECT_THAT(selection.warnings, IsEmpty());
}

TEST_F(CudaSelectionTest, NoSettingOnAMachineWithoutCudaSelectsNothingWithoutError) {
  const Selection selection =
      select_test_devices(DeviceSources{}, polydev_test::unavailable_cuda_inventory());
  EXPECT_THAT(selection.ordinals, IsEmpty());
}

TEST_F(CudaSelectionTest, VariableSelectsOneDevice) {
  const Selection selection = select_test_devices(from_variable("1"), inventory_);
  EXPECT_THAT(selection.ordinals, ElementsAre(1));
  ASSERT_TRUE(selection.setting.has_value());
  EXPECT_EQ(selection.setting->source, "CUDA_DEVICE");
  EXPECT_EQ(selection.setting->value, "1");
}

TEST_F(CudaSelectionTest, VariableTakesPrecedenceOverBothFiles) {
  DeviceSources sources = from_variable("1");
  sources.underscore_file = DeviceSetting{kUnderscore, "0"};
  sources.hyphen_file = DeviceSetting{kHyphen, "0"};
  const Selection selection = select_test_devices(sources, inventory_);
  EXPECT_THAT(selection.ordinals, ElementsAre(1));
  EXPECT_EQ(selection.setting->source, "CUDA_DEVICE");
}

TEST_F(CudaSelectionTest, UnderscoreFileTakesPrecedenceOverHyphenFileWithAWarning) {
  DeviceSources sources = from_underscore_file("1");
  sources.hyphen_file = DeviceSetting{kHyphen, "0"};
  const Selection selection = select_test_devices(sources, inventory_);
  EXPECT_THAT(selection.ordinals, ElementsAre(1));
  EXPECT_EQ(selection.setting->source, kUnderscore);
  EXPECT_THAT(selection.warnings,
              ElementsAre(AllOf(HasSubstr(kUnderscore + " ('1')"), HasSubstr(kHyphen + " ('0')"),
                                HasSubstr("using " + kUnderscore))));
}

TEST_F(CudaSelectionTest, FilesThatAgreeDoNotWarn) {
  DeviceSources sources = from_underscore_file("1");
  sources.hyphen_file = DeviceSetting{kHyphen, "1"};
  EXPECT_THAT(select_test_devices(sources, inventory_).warnings, IsEmpty());
}

TEST_F(CudaSelectionTest, HyphenFileAloneIsUsed) {
  DeviceSources sources;
  sources.hyphen_file = DeviceSetting{kHyphen, "1"};
  const Selection selection = select_test_devices(sources, inventory_);
  EXPECT_THAT(selection.ordinals, ElementsAre(1));
  EXPECT_EQ(selection.setting->source, kHyphen);
}

TEST_F(CudaSelectionTest, EffectiveSettingWithoutWarningsPointerStillPicksByPrecedence) {
  DeviceSources sources = from_underscore_file("1");
  sources.hyphen_file = DeviceSetting{kHyphen, "0"};
  const auto setting = effective_setting(sources);
  ASSERT_TRUE(setting.has_value());
  EXPECT_EQ(setting->source, kUnderscore);
  EXPECT_FALSE(effective_setting(DeviceSources{}).has_value());
}

TEST_F(CudaSelectionTest, CommaListKeepsTheOrderWritten) {
  EXPECT_THAT(select_test_devices(from_variable("1,0"), inventory_).ordinals, ElementsAre(1, 0));
}

TEST_F(CudaSelectionTest, RepeatedOrdinalRunsOnceWithAWarning) {
  const Selection selection = select_test_devices(from_variable("0,1,0"), inventory_);
  EXPECT_THAT(selection.ordinals, ElementsAre(0, 1));
  EXPECT_THAT(selection.warnings,
              ElementsAre(AllOf(HasSubstr("CUDA_DEVICE='0,1,0'"),
                                HasSubstr("device 0 is listed more than once; it runs once"))));
}

// The rule tests/fuzz checks for every selector (no warning given twice): one warning per repeat,
// each quoting the whole value, made a long list's warnings quadratic in its length.
TEST_F(CudaSelectionTest, OrdinalRepeatedManyTimesWarnsOnce) {
  std::string value = "1";
  for (int i = 0; i < 1000; ++i) value += ",1,0";
  const Selection selection = select_test_devices(from_variable(value), inventory_);
  EXPECT_THAT(selection.ordinals, ElementsAre(1, 0));
  EXPECT_THAT(selection.warnings, ElementsAre(HasSubstr("device 1 is listed more than once"),
                                              HasSubstr("device 0 is listed more than once")));
}

TEST_F(CudaSelectionTest, OrdinalsAcceptPythonIntSpelling) {
  EXPECT_THAT(select_test_devices(from_variable(" 1 ,+0"), inventory_).ordinals, ElementsAre(1, 0));
}

TEST_F(CudaSelectionTest, NonIntegerNamesTheVariableAndTheRange) {
  EXPECT_THAT(error_of(from_variable("first"), inventory_),
              AllOf(HasSubstr("CUDA_DEVICE='first'"), HasSubstr("'first' is not a device ordinal"),
                    HasSubstr("0..1")));
}

TEST_F(CudaSelectionTest, NonIntegerItemOfAList) {
  EXPECT_THAT(error_of(from_variable("0,x"), inventory_),
              AllOf(HasSubstr("CUDA_DEVICE='0,x'"), HasSubstr("'x' is not a device ordinal")));
  EXPECT_THAT(error_of(from_variable("0,"), inventory_), HasSubstr("'' is not a device ordinal"));
}

TEST_F(CudaSelectionTest, EmptyVariableIsAnError) {
  // PyCUDA raises a bare ValueError for CUDA_DEVICE= ; set-but-empty is not "unset".
  EXPECT_THAT(error_of(from_variable(""), inventory_),
              AllOf(HasSubstr("CUDA_DEVICE=''"), HasSubstr("is empty"), HasSubstr("0..1")));
}

TEST_F(CudaSelectionTest, EmptyFileIsAnErrorNamingThePath) {
  EXPECT_THAT(error_of(from_underscore_file(""), inventory_),
              AllOf(HasSubstr("file " + kUnderscore), HasSubstr("is empty"), HasSubstr("0..1")));
}

TEST_F(CudaSelectionTest, NegativeOrdinalIsOutOfRange) {
  EXPECT_THAT(error_of(from_variable("-1"), inventory_),
              AllOf(HasSubstr("CUDA_DEVICE='-1'"), HasSubstr("device ordinal -1 out of range"),
                    HasSubstr("0..1")));
}

TEST_F(CudaSelectionTest, OrdinalOutOfRangeListsTheDevices) {
  EXPECT_THAT(error_of(from_variable("2"), inventory_),
              AllOf(HasSubstr("CUDA_DEVICE='2'"), HasSubstr("device ordinal 2 out of range"),
                    HasSubstr("expected an ordinal 0..1"),
                    HasSubstr("there are 2 CUDA devices: 0 'NVIDIA H200', 1 'NVIDIA H200'")));
}

TEST_F(CudaSelectionTest, OrdinalOutOfRangeInAFileNamesThePath) {
  EXPECT_THAT(error_of(from_underscore_file("7"), inventory_),
              AllOf(HasSubstr("file " + kUnderscore + " ('7')"),
                    HasSubstr("device ordinal 7 out of range"), HasSubstr("0..1")));
}

TEST_F(CudaSelectionTest, HugeOrdinalIsOutOfRange) {
  EXPECT_THAT(error_of(from_variable("99999999999999999999"), inventory_),
              HasSubstr("out of range"));
}

TEST_F(CudaSelectionTest, SettingWithoutAnyCudaDeviceIsAnError) {
  EXPECT_THAT(error_of(from_variable("0"), polydev_test::unavailable_cuda_inventory()),
              AllOf(HasSubstr("CUDA_DEVICE='0'"), HasSubstr("CUDA is unavailable"),
                    HasSubstr("cudaErrorInsufficientDriver")));
}

// --- default_ordinal (make_default_context's reading) --------------------------------------

TEST_F(CudaSelectionTest, DefaultOrdinalIsEmptyWithoutSetting) {
  EXPECT_FALSE(default_ordinal(DeviceSources{}, inventory_).has_value());
}

TEST_F(CudaSelectionTest, DefaultOrdinalReadsOneOrdinal) {
  EXPECT_EQ(default_ordinal(from_variable("1"), inventory_), 1);
  EXPECT_EQ(default_ordinal(from_underscore_file(" 1\n"), inventory_), 1);
}

TEST_F(CudaSelectionTest, DefaultOrdinalRejectsAList) {
  try {
    default_ordinal(from_variable("0,1"), inventory_);
    ADD_FAILURE() << "expected selection_error";
  } catch (const polydev::selection_error& failure) {
    EXPECT_THAT(failure.what(), AllOf(HasSubstr("CUDA_DEVICE='0,1'"),
                                      HasSubstr("lists several devices"), HasSubstr("0..1")));
  }
  EXPECT_THROW(default_ordinal(from_variable("0,0"), inventory_), polydev::selection_error);
}

TEST_F(CudaSelectionTest, DefaultOrdinalRejectsBadValues) {
  EXPECT_THROW(default_ordinal(from_variable(""), inventory_), polydev::selection_error);
  EXPECT_THROW(default_ordinal(from_variable("x"), inventory_), polydev::selection_error);
  EXPECT_THROW(default_ordinal(from_variable("2"), inventory_), polydev::selection_error);
  EXPECT_THROW(default_ordinal(from_variable("0"), polydev_test::unavailable_cuda_inventory()),
               polydev::selection_error);
}

// --- reading the environment and $HOME ------------------------------------------------------

class CudaDeviceSourcesTest : public testing::Test {
 protected:
  polydev_test::TemporaryDirectory home_;
  polydev_test::ScopedEnvironmentVariable home_variable_{"HOME", home_.path()};
  polydev_test::ScopedEnvironmentVariable cuda_device_{"CUDA_DEVICE", std::nullopt};
};

TEST_F(CudaDeviceSourcesTest, NothingSet) {
  const DeviceSources sources = polydev::cuda::read_device_sources();
  EXPECT_FALSE(sources.cuda_device.has_value());
  EXPECT_FALSE(sources.underscore_file.has_value());
  EXPECT_FALSE(sources.hyphen_file.has_value());
}

TEST_F(CudaDeviceSourcesTest, EmptyVariableIsSetNotUnset) {
  const polydev_test::ScopedEnvironmentVariable variable("CUDA_DEVICE", "");
  const DeviceSources sources = polydev::cuda::read_device_sources();
  ASSERT_TRUE(sources.cuda_device.has_value());
  EXPECT_EQ(*sources.cuda_device, "");
}

TEST_F(CudaDeviceSourcesTest, VariableIsReadVerbatim) {
  const polydev_test::ScopedEnvironmentVariable variable("CUDA_DEVICE", " 1 ");
  EXPECT_EQ(polydev::cuda::read_device_sources().cuda_device, " 1 ");
}

TEST_F(CudaDeviceSourcesTest, BothFilesAreReadAndStripped) {
  const std::string underscore = home_.write(".cuda_device", "  1\n");
  const std::string hyphen = home_.write(".cuda-device", "0\n");
  const DeviceSources sources = polydev::cuda::read_device_sources();
  ASSERT_TRUE(sources.underscore_file.has_value());
  ASSERT_TRUE(sources.hyphen_file.has_value());
  EXPECT_EQ(sources.underscore_file->source, underscore);
  EXPECT_EQ(sources.underscore_file->value, "1");
  EXPECT_EQ(sources.hyphen_file->source, hyphen);
  EXPECT_EQ(sources.hyphen_file->value, "0");
}

TEST_F(CudaDeviceSourcesTest, FilesSelectWithPrecedenceAndWarning) {
  const std::string underscore = home_.write(".cuda_device", "1\n");
  home_.write(".cuda-device", "0\n");
  const Selection selection = select_test_devices(polydev::cuda::read_device_sources(),
                                                  polydev_test::synthetic_cuda_inventory());
  EXPECT_THAT(selection.ordinals, ElementsAre(1));
  EXPECT_EQ(selection.setting->source, underscore);
  EXPECT_THAT(selection.warnings, ElementsAre(HasSubstr("using " + underscore)));
}

TEST_F(CudaDeviceSourcesTest, HyphenFileAloneIsRead) {
  const std::string hyphen = home_.write(".cuda-device", "1");
  const DeviceSources sources = polydev::cuda::read_device_sources();
  EXPECT_FALSE(sources.underscore_file.has_value());
  ASSERT_TRUE(sources.hyphen_file.has_value());
  EXPECT_EQ(sources.hyphen_file->source, hyphen);
  EXPECT_EQ(default_ordinal(sources, polydev_test::synthetic_cuda_inventory()), 1);
}

TEST_F(CudaDeviceSourcesTest, EmptyFileIsReadAsAnEmptySettingAndRejected) {
  const std::string underscore = home_.write(".cuda_device", "\n");
  const DeviceSources sources = polydev::cuda::read_device_sources();
  ASSERT_TRUE(sources.underscore_file.has_value());
  EXPECT_EQ(sources.underscore_file->value, "");
  EXPECT_THAT(error_of(sources, polydev_test::synthetic_cuda_inventory()),
              AllOf(HasSubstr(underscore), HasSubstr("is empty")));
}

TEST_F(CudaDeviceSourcesTest, VariableWinsOverFiles) {
  home_.write(".cuda_device", "0");
  const polydev_test::ScopedEnvironmentVariable variable("CUDA_DEVICE", "1");
  EXPECT_EQ(default_ordinal(polydev::cuda::read_device_sources(),
                            polydev_test::synthetic_cuda_inventory()),
            1);
}

TEST_F(CudaDeviceSourcesTest, EmptyHomeReadsNoFile) {
  home_.write(".cuda_device", "1");
  const polydev_test::ScopedEnvironmentVariable empty_home("HOME", "");
  EXPECT_FALSE(polydev::cuda::read_device_sources().underscore_file.has_value());
}

// HOME=/dev/null (a service account's), a HOME that is a file or that is gone: no device file can
// be under it, so nothing is set and every device runs, as on a machine where HOME has no file.
TEST_F(CudaDeviceSourcesTest, HomeThatIsNoDirectoryReadsNoFileAndIsNoError) {
  const std::string file = home_.write("not-a-folder", "1");
  for (const std::string& home : {std::string("/dev/null"), file, home_.path() + "/missing"}) {
    const polydev_test::ScopedEnvironmentVariable no_folder("HOME", home);
    const DeviceSources sources = polydev::cuda::read_device_sources();
    EXPECT_FALSE(sources.underscore_file.has_value()) << home;
    EXPECT_FALSE(sources.hyphen_file.has_value()) << home;
    EXPECT_THAT(sources.unreadable_files, testing::IsEmpty()) << home;
    EXPECT_THAT(select_test_devices(sources, polydev_test::synthetic_cuda_inventory()).ordinals,
                ElementsAre(0, 1))
        << home;
  }
}

// Anything at ~/.cuda_device or ~/.cuda-device that is not a readable regular file is an error
// naming the path and what it is: read as absent, it would run every device; read as '', it would
// blame an "empty" setting; read at all, a FIFO would hang and /dev/zero would fill memory.
class CudaDeviceFileKindsTest : public CudaDeviceSourcesTest {
 protected:
  std::string underscore() const { return home_.path() + "/.cuda_device"; }
  std::string hyphen() const { return home_.path() + "/.cuda-device"; }

  // The error of selecting from the files as read now, for the tests and for a default context.
  std::string selection_error_message() const {
    const DeviceSources sources = polydev::cuda::read_device_sources();
    EXPECT_THROW(default_ordinal(sources, polydev_test::synthetic_cuda_inventory()),
                 polydev::selection_error);
    return error_of(sources, polydev_test::synthetic_cuda_inventory());
  }
};

TEST_F(CudaDeviceFileKindsTest, ADirectoryIsAnErrorNotAnEmptySetting) {
  std::filesystem::create_directory(underscore());
  EXPECT_THAT(selection_error_message(),
              HasSubstr("cannot read the CUDA device setting " + underscore() +
                        ": a directory, not a regular file; expected a regular file of at most "
                        "4096 bytes holding a device ordinal"));
}

TEST_F(CudaDeviceFileKindsTest, ALinkLoopIsAnErrorNotAbsence) {
  std::filesystem::create_symlink(hyphen(), underscore());
  std::filesystem::create_symlink(underscore(), hyphen());
  EXPECT_THAT(selection_error_message(),
              HasSubstr(underscore() + ": a symbolic link loop; expected a regular file"));
}

TEST_F(CudaDeviceFileKindsTest, ADanglingLinkIsAnErrorNotAbsence) {
  std::filesystem::create_symlink(home_.path() + "/gone", hyphen());
  EXPECT_THAT(selection_error_message(),
              HasSubstr(hyphen() + ": a dangling symbolic link (its target does not exist)"));
}

TEST_F(CudaDeviceFileKindsTest, AFifoIsAnErrorAndDoesNotHang) {
  ASSERT_EQ(::mkfifo(underscore().c_str(), 0600), 0);
  auto message = std::async(std::launch::async, [&] { return selection_error_message(); });
  ASSERT_EQ(message.wait_for(std::chrono::seconds(10)), std::future_status::ready)
      << "reading ~/.cuda_device, a FIFO without a writer, hangs";
  EXPECT_THAT(message.get(), HasSubstr(underscore() + ": a FIFO, not a regular file"));
}

TEST_F(CudaDeviceFileKindsTest, DevZeroIsAnErrorNotAnEndlessRead) {
  std::filesystem::create_symlink("/dev/zero", underscore());
  EXPECT_THAT(selection_error_message(),
              HasSubstr(underscore() + ": a character device, not a regular file"));
}

TEST_F(CudaDeviceFileKindsTest, AFileOverFourKibibytesIsAnError) {
  home_.write(".cuda_device", "0" + std::string(5000, ' '));
  EXPECT_THAT(selection_error_message(),
              HasSubstr(underscore() + ": larger than the limit of 4096 bytes"));
}

TEST_F(CudaDeviceFileKindsTest, CudaDeviceSetMeansTheFilesAreNotConsulted) {
  std::filesystem::create_directory(underscore());
  const polydev_test::ScopedEnvironmentVariable variable("CUDA_DEVICE", "1");
  EXPECT_EQ(default_ordinal(polydev::cuda::read_device_sources(),
                            polydev_test::synthetic_cuda_inventory()),
            1);
}

TEST_F(CudaDeviceFileKindsTest, AnUnreadableHyphenFileFailsEvenBesideAGoodUnderscoreFile) {
  home_.write(".cuda_device", "1");
  std::filesystem::create_directory(hyphen());
  EXPECT_THAT(selection_error_message(), HasSubstr(hyphen() + ": a directory"));
}

TEST_F(CudaDeviceFileKindsTest, MessagesQuoteOnlyAShortEscapedPrefixOfTheFile) {
  home_.write(".cuda_device", "\x1b[2J" + std::string(3000, '7') + "\n");
  const std::string message = selection_error_message();
  EXPECT_THAT(message, HasSubstr("file " + underscore() + " ('\\x1b[2J" + std::string(76, '7') +
                                 "'... (3004 bytes)): "));
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << "a raw escape reached the message";
  EXPECT_LT(message.size(), 600u) << message;
}

}  // namespace
