// The one reader of every file polydev is pointed at: regular files only, opened without waiting
// for a FIFO's writer, never more than a cap; every other kind of file is an error naming the
// path and what it is. Also the quoting of file content in messages.
#include "polydev/detail/regular_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <string>

#include "support/scoped_environment.hpp"

namespace {

namespace fs = std::filesystem;
using polydev::detail::file_error;
using polydev::detail::read_regular_file;
using polydev::detail::read_regular_file_if_present;
using ::testing::HasSubstr;

// The error `read_regular_file(path, limit)` throws; fails the test when it returns instead.
file_error error_of(const std::string& path, std::size_t limit = 1024) {
  try {
    const std::string content = read_regular_file(path, limit);
    ADD_FAILURE() << path << " was read, " << content.size() << " bytes";
  } catch (const file_error& failure) {
    return failure;
  }
  return file_error(path, "(no error)");
}

class RegularFileTest : public ::testing::Test {
 protected:
  polydev_test::TemporaryDirectory scratch_;
  std::string path(const std::string& name) const { return scratch_.path() + "/" + name; }
};

TEST_F(RegularFileTest, ARegularFileReadsExactly) {
  std::string bytes = "line\r\n";
  bytes += '\0';
  bytes += "\xff\xfe tail";
  const std::string file = scratch_.write("exact", bytes);
  EXPECT_EQ(read_regular_file(file, 1024), bytes);
  EXPECT_EQ(read_regular_file(file, bytes.size()), bytes) << "a file of exactly the limit";
  EXPECT_EQ(read_regular_file(scratch_.write("empty", ""), 0), "");
  EXPECT_EQ(read_regular_file_if_present(file, 1024), bytes);
}

TEST_F(RegularFileTest, AMissingFileIsMissingAndAbsentForIfPresent) {
  const file_error failure = error_of(path("none"));
  EXPECT_TRUE(failure.missing());
  EXPECT_EQ(failure.kind(), file_error::Kind::missing);
  EXPECT_EQ(std::string(failure.what()), path("none") + ": no such file");
  EXPECT_EQ(read_regular_file_if_present(path("none"), 1024), std::nullopt);
}

TEST_F(RegularFileTest, AFifoIsAnErrorAndNeverWaitsForAWriter) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  // Without O_NONBLOCK, open() waits for a writer forever: run it where a hang fails the test
  // instead of stopping the suite (the thread is left behind only in that failure).
  auto read = std::async(std::launch::async, [&] { return error_of(path("fifo")); });
  ASSERT_EQ(read.wait_for(std::chrono::seconds(10)), std::future_status::ready)
      << "reading a FIFO without a writer hangs";
  const file_error failure = read.get();
  EXPECT_EQ(std::string(failure.what()), path("fifo") + ": a FIFO, not a regular file");
  EXPECT_EQ(failure.kind(), file_error::Kind::not_regular_file);
  EXPECT_THROW(read_regular_file_if_present(path("fifo"), 1024), file_error);
}

TEST_F(RegularFileTest, DevZeroIsAnErrorNotAnEndlessRead) {
  const file_error failure = error_of("/dev/zero", 64 * 1024 * 1024);
  EXPECT_EQ(std::string(failure.what()), "/dev/zero: a character device, not a regular file");
  EXPECT_EQ(failure.kind(), file_error::Kind::not_regular_file);
}

TEST_F(RegularFileTest, ADirectoryIsAnError) {
  fs::create_directory(path("folder"));
  EXPECT_EQ(std::string(error_of(path("folder")).what()),
            path("folder") + ": a directory, not a regular file");
  fs::create_directory_symlink(path("folder"), path("to-folder"));
  EXPECT_THAT(error_of(path("to-folder")).what(), HasSubstr("a directory, not a regular file"));
  EXPECT_THROW(read_regular_file_if_present(path("folder"), 1024), file_error)
      << "a directory is not 'absent'";
}

TEST_F(RegularFileTest, ADanglingLinkIsAnErrorNotAbsence) {
  fs::create_symlink(path("nowhere"), path("dangling"));
  const file_error failure = error_of(path("dangling"));
  EXPECT_FALSE(failure.missing());
  EXPECT_EQ(failure.kind(), file_error::Kind::not_regular_file);
  EXPECT_EQ(std::string(failure.what()),
            path("dangling") + ": a dangling symbolic link (its target does not exist)");
  EXPECT_THROW(read_regular_file_if_present(path("dangling"), 1024), file_error);
}

TEST_F(RegularFileTest, ALinkLoopIsAnErrorNotAbsence) {
  fs::create_symlink(path("loop-b"), path("loop-a"));
  fs::create_symlink(path("loop-a"), path("loop-b"));
  const file_error failure = error_of(path("loop-a"));
  EXPECT_EQ(std::string(failure.what()), path("loop-a") + ": a symbolic link loop");
  EXPECT_EQ(failure.kind(), file_error::Kind::not_regular_file);
  EXPECT_THROW(read_regular_file_if_present(path("loop-a"), 1024), file_error);
  EXPECT_EQ(polydev::detail::describe_file_type(path("loop-a")), "a symbolic link loop");
}

TEST_F(RegularFileTest, AFileOverTheCapIsAnErrorWithoutBeingRead) {
  // Sparse: 200 MB that take no disk and, were they read, 200 MB of memory.
  const std::string big = scratch_.write("big", "");
  fs::resize_file(big, 200u * 1000 * 1000);
  const file_error failure = error_of(big, polydev::detail::kTextFileLimit);
  EXPECT_EQ(std::string(failure.what()), big + ": larger than the limit of " +
                                             std::to_string(polydev::detail::kTextFileLimit) +
                                             " bytes");
  EXPECT_EQ(failure.kind(), file_error::Kind::too_large);
  const std::string one_over = scratch_.write("one-over", std::string(17, 'x'));
  EXPECT_EQ(error_of(one_over, 16).kind(), file_error::Kind::too_large);
}

TEST_F(RegularFileTest, AFileThatCannotBeOpenedSaysWhy) {
  const std::string file = scratch_.write("secret", "1");
  ::chmod(file.c_str(), 0);
  if (::access(file.c_str(), R_OK) == 0) GTEST_SKIP() << "running as root: permissions are moot";
  const file_error failure = error_of(file);
  EXPECT_EQ(std::string(failure.what()), file + ": cannot be opened: Permission denied");
  EXPECT_EQ(failure.kind(), file_error::Kind::unreadable);
}

TEST_F(RegularFileTest, AReadErrorSaysWhy) {
  // A regular file whose read fails, even for root: the memory of this process at address 0.
  const file_error failure = error_of("/proc/self/mem");
  EXPECT_EQ(std::string(failure.what()), "/proc/self/mem: cannot be read: Input/output error");
  EXPECT_EQ(failure.kind(), file_error::Kind::unreadable);
}

TEST_F(RegularFileTest, AProcFileWhoseSizeIsZeroIsReadWhole) {
  // /proc reports size 0 and has content: the size is a hint, the read goes to the end.
  const std::string status = read_regular_file("/proc/self/status", 1024 * 1024);
  EXPECT_THAT(status, HasSubstr("Name:"));
}

}  // namespace
