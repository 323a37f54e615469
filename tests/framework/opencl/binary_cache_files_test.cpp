// The program binary cache without a device: its settings from the environment, which programs it
// takes, and its memory and folder levels with their damaged-file and unwritable-folder paths; and
// two caches on one folder used from many threads at once, as processes under `ctest -j` use it
// (ci/tsan.sh runs this binary under ThreadSanitizer).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "polydev/detail/regular_file.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/binary_cache.hpp"
#include "polydev/opencl/program_cache.hpp"
#include "support/scoped_environment.hpp"

namespace {

namespace fs = std::filesystem;
using polydev::opencl::ProgramBinaryCache;
using polydev_test::ScopedEnvironmentVariable;

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// ---------------------------------------------------------------------------------------------
// Settings

TEST(BinaryCacheSettings, OnByDefaultAndOffWithNoCacheOne) {
  for (const char* on : {"0", ""}) {
    ScopedEnvironmentVariable no_cache("POLYDEV_NO_CACHE", std::string(on));
    EXPECT_TRUE(polydev::opencl::binary_cache_settings_from_environment().enabled) << on;
  }
  ScopedEnvironmentVariable unset("POLYDEV_NO_CACHE", std::nullopt);
  EXPECT_TRUE(polydev::opencl::binary_cache_settings_from_environment().enabled);
  ScopedEnvironmentVariable off("POLYDEV_NO_CACHE", std::string("1"));
  EXPECT_FALSE(polydev::opencl::binary_cache_settings_from_environment().enabled);
}

TEST(BinaryCacheSettings, AnyOtherNoCacheValueIsAnErrorThatSaysWhatIsAccepted) {
  ScopedEnvironmentVariable no_cache("POLYDEV_NO_CACHE", std::string("yes"));
  try {
    polydev::opencl::binary_cache_settings_from_environment();
    FAIL() << "POLYDEV_NO_CACHE=yes was accepted";
  } catch (const polydev::error& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("POLYDEV_NO_CACHE='yes'"), std::string::npos) << message;
    EXPECT_NE(message.find("use 1"), std::string::npos) << message;
    EXPECT_NE(message.find("or 0"), std::string::npos) << message;
  }
}

TEST(BinaryCacheSettings, FolderComesFromCacheDirThenXdgThenHome) {
  ScopedEnvironmentVariable cache_dir("POLYDEV_CACHE_DIR", std::string("/c/polydev"));
  ScopedEnvironmentVariable xdg("XDG_CACHE_HOME", std::string("/x"));
  ScopedEnvironmentVariable home("HOME", std::string("/h"));
  EXPECT_EQ(polydev::opencl::binary_cache_settings_from_environment().folder,
            fs::path("/c/polydev"));
  {
    ScopedEnvironmentVariable empty("POLYDEV_CACHE_DIR", std::string());
    EXPECT_EQ(polydev::opencl::binary_cache_settings_from_environment().folder,
              fs::path("/x/polydev/programs"));
    ScopedEnvironmentVariable no_xdg("XDG_CACHE_HOME", std::nullopt);
    EXPECT_EQ(polydev::opencl::binary_cache_settings_from_environment().folder,
              fs::path("/h/.cache/polydev/programs"));
    ScopedEnvironmentVariable no_home("HOME", std::nullopt);
    EXPECT_FALSE(polydev::opencl::binary_cache_settings_from_environment().folder.has_value())
        << "with no folder the cache lives in memory only";
  }
}

TEST(BinaryCacheSettings, ProgramsWithIncludesAreCachedWhenEveryFileIsFound) {
  EXPECT_TRUE(polydev::opencl::binary_cacheable("__kernel void k() {}", "-DX=1"));
  EXPECT_TRUE(polydev::opencl::binary_cacheable("__kernel void k() {}", "-I /src"));
  polydev_test::TemporaryDirectory folder;
  folder.write("a.h", "#define A 1\n");
  EXPECT_TRUE(polydev::opencl::binary_cacheable("# include <a.h>\n", "-I" + folder.path()));
  EXPECT_FALSE(polydev::opencl::binary_cacheable("# include <a.h>\n", ""))
      << "an angled name with no -I folder is found nowhere";
  EXPECT_FALSE(polydev::opencl::binary_cacheable("#include \"polydev-missing-header.h\"\n", ""));
  const polydev::opencl::ProgramIncludes missing =
      polydev::opencl::program_includes("#include <a.h>\n", "-I /polydev-no-such-folder");
  EXPECT_NE(missing.problem.find("the #include <a.h> of the source is found in none"),
            std::string::npos)
      << missing.problem;
}

// ---------------------------------------------------------------------------------------------
// The memory and folder levels

TEST(ProgramBinaryCacheFiles, AnotherCacheOnTheFolderFindsWhatOneStored) {
  polydev_test::TemporaryDirectory scratch;
  const fs::path folder = fs::path(scratch.path()) / "created" / "on" / "store";
  const ProgramBinaryCache::Binary binary = {0, 1, 2, 255, '\n', 0};
  {
    ProgramBinaryCache writer(folder);
    EXPECT_FALSE(writer.find("key one").has_value());
    writer.store("key one", binary);
    EXPECT_EQ(writer.find("key one"), binary);
    EXPECT_EQ(writer.statistics().memory_hits, 1u);
    EXPECT_EQ(writer.statistics().misses, 1u);
  }
  // A new cache knows nothing in memory, as in a new process.
  ProgramBinaryCache reader(folder);
  EXPECT_EQ(reader.find("key one"), binary);
  EXPECT_EQ(reader.statistics().file_hits, 1u);
  EXPECT_EQ(reader.find("key one"), binary);
  EXPECT_EQ(reader.statistics().memory_hits, 1u) << "a file hit is kept in memory";
  EXPECT_FALSE(reader.find("key two").has_value());
  // Only the entry itself is left in the folder: no temporary files.
  EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 1);

  reader.forget("key one");
  EXPECT_FALSE(fs::exists(reader.file_for("key one")));
  EXPECT_FALSE(reader.find("key one").has_value());
}

TEST(ProgramBinaryCacheFiles, DamagedFilesAreRemovedWithAWarning) {
  polydev_test::TemporaryDirectory scratch;
  ProgramBinaryCache writer(fs::path(scratch.path()));
  writer.store("whole", {1, 2, 3});
  const std::string whole = read_whole(writer.file_for("whole"));
  const std::string damaged[] = {
      "not a cache file at all",
      whole.substr(0, whole.size() - 1),                   // cut short
      whole + "x",                                         // something after the binary
      "polydev-program-binary 2\nx y 0123456789abcdef\n",  // sizes that are not numbers
      "polydev-program-binary 1\n" + whole.substr(whole.find('\n') + 1),  // an older layout
  };
  for (const std::string& contents : damaged) {
    ProgramBinaryCache reader(fs::path(scratch.path()));
    std::ofstream(reader.file_for("whole"), std::ios::binary | std::ios::trunc) << contents;
    testing::internal::CaptureStderr();
    EXPECT_FALSE(reader.find("whole").has_value()) << contents;
    const std::string warning = testing::internal::GetCapturedStderr();
    EXPECT_NE(warning.find("damaged program cache file"), std::string::npos) << warning;
    EXPECT_NE(warning.find(reader.file_for("whole").string()), std::string::npos) << warning;
    EXPECT_EQ(reader.statistics().damaged_files, 1u);
    EXPECT_FALSE(fs::exists(reader.file_for("whole"))) << "a damaged file is removed";
  }
}

// Every single changed byte of an entry, in its header or its payload, is detected by the layout
// or the checksum: the entry is removed with a warning, never handed to a driver.
TEST(ProgramBinaryCacheFiles, AnyFlippedByteIsDetectedAndTheEntryRebuilt) {
  polydev_test::TemporaryDirectory scratch;
  ProgramBinaryCache writer(fs::path(scratch.path()));
  const ProgramBinaryCache::Binary binary = {0x7f, 'E', 'L', 'F', 0, 1, 2, 3};
  writer.store("flip", binary);
  const fs::path file = writer.file_for("flip");
  const std::string whole = read_whole(file);
  for (std::size_t at = 0; at < whole.size(); ++at) {
    for (const int mask : {0x01, 0x80, 0xff}) {
      std::string flipped = whole;
      flipped[at] = static_cast<char>(static_cast<unsigned char>(flipped[at]) ^ mask);
      std::ofstream(file, std::ios::binary | std::ios::trunc) << flipped;
      ProgramBinaryCache reader(fs::path(scratch.path()));
      testing::internal::CaptureStderr();
      const auto found = reader.find("flip");
      const std::string warning = testing::internal::GetCapturedStderr();
      ASSERT_FALSE(found.has_value()) << "byte " << at << " ^ " << mask << " was loaded";
      EXPECT_EQ(reader.statistics().damaged_files, 1u) << "byte " << at;
      EXPECT_NE(warning.find(file.string()), std::string::npos) << warning;
      EXPECT_FALSE(fs::exists(file)) << "byte " << at << ": the damaged entry was kept";
      reader.store("flip", binary);  // the source build's binary replaces it
      EXPECT_EQ(read_whole(file), whole);
    }
  }
}

TEST(ProgramBinaryCacheFiles, DamageIsNamedInTheWarning) {
  polydev_test::TemporaryDirectory scratch;
  ProgramBinaryCache writer(fs::path(scratch.path()));
  writer.store("named", {1, 2, 3, 4});
  const std::string whole = read_whole(writer.file_for("named"));
  const std::string payload = whole.substr(whole.find('\n', 26) + 1);  // key and binary
  std::string flipped = whole;
  flipped.back() = static_cast<char>(flipped.back() ^ 0x10);
  const std::pair<std::string, std::string> cases[] = {
      {whole.substr(0, whole.size() - 2),
       "it holds 7 bytes after its header, not the 5 + 4 its header announces"},
      {flipped, "its checksum does not match its content"},
      // What polydev wrote before entries had a checksum.
      {"polydev-program-binary 1\n5 4\n" + payload,
       "it was written in another layout (version '1', this polydev writes 2)"},
      {std::string("\x7f"
                   "ELF\x1b[2J") +
           std::string(1000, 'x'),
       "it is not a polydev program cache entry (it starts with '\\x7fELF\\x1b[2J"},
      {"polydev-program-binary 2\n5 4 nothex\n" + payload,
       "its header is not '<key bytes> <binary bytes> <checksum>' (it is '5 4 nothex')"},
  };
  for (const auto& [contents, problem] : cases) {
    ProgramBinaryCache reader(fs::path(scratch.path()));
    std::ofstream(reader.file_for("named"), std::ios::binary | std::ios::trunc) << contents;
    testing::internal::CaptureStderr();
    EXPECT_FALSE(reader.find("named").has_value()) << problem;
    const std::string warning = testing::internal::GetCapturedStderr();
    EXPECT_NE(
        warning.find("polydev: warning: ignored and removed the damaged program cache file '" +
                     reader.file_for("named").string() + "': " + problem),
        std::string::npos)
        << warning;
    EXPECT_LT(warning.size(), 400u) << "the warning quotes the whole file: " << warning;
  }
}

TEST(ProgramBinaryCacheFiles, AnEntryOverTheSizeLimitIsDamagedAndReplaced) {
  polydev_test::TemporaryDirectory scratch;
  ProgramBinaryCache cache(fs::path(scratch.path()));
  const fs::path file = cache.file_for("big");
  std::ofstream(file, std::ios::binary) << "polydev-program-binary 2\n";
  fs::resize_file(file, polydev::detail::kCacheEntryLimit + 1);  // sparse: costs no disk
  testing::internal::CaptureStderr();
  EXPECT_FALSE(cache.find("big").has_value());
  const std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("larger than the limit of 268435456 bytes"), std::string::npos) << warning;
  EXPECT_EQ(cache.statistics().damaged_files, 1u);
  cache.store("big", {9});
  EXPECT_EQ(ProgramBinaryCache(fs::path(scratch.path())).find("big"),
            ProgramBinaryCache::Binary{9});
}

// An entry that is no regular file cannot be read and is not ours to replace: a warning naming
// it and what it is, once, then a build from source whose binary stays in memory.
TEST(ProgramBinaryCacheFiles, AnEntryThatIsADirectoryOrAFifoIsAWarningNotAFailure) {
  polydev_test::TemporaryDirectory scratch;
  for (const std::string kind : {"directory", "FIFO"}) {
    ProgramBinaryCache cache(fs::path(scratch.path()));
    const std::string key = "special " + kind;
    const fs::path file = cache.file_for(key);
    if (kind == "directory") {
      fs::create_directories(file / "inside");
    } else {
      ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
    }
    testing::internal::CaptureStderr();
    std::optional<ProgramBinaryCache::Binary> found;
    auto find = std::async(std::launch::async, [&] { found = cache.find(key); });
    ASSERT_EQ(find.wait_for(std::chrono::seconds(10)), std::future_status::ready)
        << "reading a " << kind << " entry hangs";
    find.get();
    EXPECT_FALSE(found.has_value());
    EXPECT_FALSE(cache.find(key).has_value());
    cache.store(key, {5});
    EXPECT_EQ(cache.find(key), ProgramBinaryCache::Binary{5}) << "kept in memory";
    const std::string warning = testing::internal::GetCapturedStderr();
    const std::string expected = "polydev: warning: cannot use the program cache file '" +
                                 file.string() + "': a " + kind +
                                 ", not a regular file; the program is built from source, and "
                                 "the file is left as it is";
    EXPECT_NE(warning.find(expected), std::string::npos) << warning;
    EXPECT_EQ(warning.find("polydev: warning", 1), std::string::npos)
        << "more than one warning: " << warning;
    EXPECT_EQ(cache.statistics().unusable_files, 2u) << "each find counts";
    EXPECT_EQ(cache.statistics().damaged_files, 0u);
    EXPECT_EQ(kind == "directory" ? fs::is_directory(file) : fs::is_fifo(file), true)
        << "the " << kind << " was replaced or removed";
  }
}

TEST(ProgramBinaryCacheFiles, AnUnreadableEntryIsAWarningAndIsReplaced) {
  polydev_test::TemporaryDirectory scratch;
  ProgramBinaryCache writer(fs::path(scratch.path()));
  writer.store("locked", {1});
  const fs::path file = writer.file_for("locked");
  fs::permissions(file, fs::perms::none);
  if (::access(file.c_str(), R_OK) == 0) GTEST_SKIP() << "running as root: permissions are moot";
  ProgramBinaryCache reader(fs::path(scratch.path()));
  testing::internal::CaptureStderr();
  EXPECT_FALSE(reader.find("locked").has_value());
  const std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("cannot use the program cache file '" + file.string() +
                         "': cannot be opened: Permission denied; the program is built from "
                         "source, and the file is replaced"),
            std::string::npos)
      << warning;
  reader.store("locked", {2});
  EXPECT_EQ(ProgramBinaryCache(fs::path(scratch.path())).find("locked"),
            ProgramBinaryCache::Binary{2});
}

TEST(ProgramBinaryCacheFiles, AFileOfAnotherKeyIsAMissNotDamage) {
  polydev_test::TemporaryDirectory scratch;
  ProgramBinaryCache cache(fs::path(scratch.path()));
  cache.store("first", {7});
  // As if "second" had the same hash as "first": its file holds first's entry.
  fs::copy_file(cache.file_for("first"), cache.file_for("second"));
  ProgramBinaryCache reader(fs::path(scratch.path()));
  EXPECT_FALSE(reader.find("second").has_value());
  EXPECT_EQ(reader.statistics().damaged_files, 0u);
  reader.store("second", {8});
  EXPECT_EQ(ProgramBinaryCache(fs::path(scratch.path())).find("second"),
            ProgramBinaryCache::Binary{8});
}

// A cache folder of 15 KB of odd bytes: the warning quotes it escaped and cut, not whole and raw.
TEST(ProgramBinaryCacheFiles, AHugeFolderNameIsQuotedEscapedAndCutInTheWarning) {
  polydev_test::TemporaryDirectory scratch;
  const fs::path file = fs::path(scratch.path()) / "a-file";
  std::ofstream(file) << "in the way";
  std::string name;
  while (name.size() < 15000) name += "\x1b[2J/";
  ProgramBinaryCache cache(file / name);
  testing::internal::CaptureStderr();
  cache.store("one", {1});
  const std::string warnings = testing::internal::GetCapturedStderr();
  EXPECT_NE(warnings.find("cannot create the program cache folder '"), std::string::npos)
      << warnings.substr(0, 300);
  EXPECT_LT(warnings.size(), 2000u) << warnings.substr(0, 300);
  EXPECT_EQ(warnings.find('\x1b'), std::string::npos) << "a raw ESC reached the terminal";
  EXPECT_NE(warnings.find("\\x1b[2J/"), std::string::npos) << warnings.substr(0, 300);
  EXPECT_EQ(cache.find("one"), ProgramBinaryCache::Binary{1}) << "kept in memory";
}

TEST(ProgramBinaryCacheFiles, AFolderThatCannotBeMadeWarnsOnceAndKeepsBinariesInMemory) {
  polydev_test::TemporaryDirectory scratch;
  const fs::path file = fs::path(scratch.path()) / "a-file";
  std::ofstream(file) << "in the way";
  ProgramBinaryCache cache(file / "programs");  // under a file: cannot be created, even by root
  testing::internal::CaptureStderr();
  cache.store("one", {1});
  cache.store("two", {2});
  const std::string warnings = testing::internal::GetCapturedStderr();
  EXPECT_NE(warnings.find("cannot create the program cache folder"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("POLYDEV_CACHE_DIR"), std::string::npos) << warnings;
  EXPECT_EQ(warnings.find("cannot create", warnings.find("cannot create") + 1), std::string::npos)
      << "warned more than once: " << warnings;
  EXPECT_EQ(cache.find("one"), ProgramBinaryCache::Binary{1});
  EXPECT_EQ(cache.find("two"), ProgramBinaryCache::Binary{2});
}

// Two caches on one folder (two processes, as far as the folder can tell), eight threads storing
// and finding four keys at once: every binary found is whole and the one stored for its key, and no
// file is ever seen half written.
TEST(ProgramBinaryCacheFiles, ConcurrentStoresAndFindsOnOneFolderNeverSeeAPartialFile) {
  polydev_test::TemporaryDirectory scratch;
  ProgramBinaryCache first(fs::path(scratch.path()));
  ProgramBinaryCache second(fs::path(scratch.path()));
  constexpr int kKeys = 4;
  const auto binary_for = [](int key) {
    return ProgramBinaryCache::Binary(64 * 1024 + static_cast<std::size_t>(key),
                                      static_cast<unsigned char>(0x40 + key));
  };
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      ProgramBinaryCache& cache = t % 2 == 0 ? first : second;
      for (int i = 0; i < 100; ++i) {
        const int key = (t + i) % kKeys;
        if (i % 3 == 0) cache.forget("key " + std::to_string((key + 1) % kKeys));
        cache.store("key " + std::to_string(key), binary_for(key));
        const auto found = cache.find("key " + std::to_string((key + 2) % kKeys));
        if (found && *found != binary_for((key + 2) % kKeys)) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(first.statistics().damaged_files, 0u);
  EXPECT_EQ(second.statistics().damaged_files, 0u);
  // Whatever is in the folder now is whole: a third cache reads every key that has a file.
  ProgramBinaryCache third(fs::path(scratch.path()));
  for (int key = 0; key < kKeys; ++key) {
    if (const auto found = third.find("key " + std::to_string(key))) {
      EXPECT_EQ(*found, binary_for(key));
    }
  }
  EXPECT_EQ(third.statistics().damaged_files, 0u);
  for (const auto& entry : fs::directory_iterator(fs::path(scratch.path()))) {
    EXPECT_EQ(entry.path().extension(), ".bin") << "a temporary file was left: " << entry.path();
  }
}

}  // namespace
