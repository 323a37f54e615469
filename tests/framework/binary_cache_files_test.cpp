// The program binary cache without a device: its settings from the environment, which programs it
// takes, and its memory and folder levels with their damaged-file and unwritable-folder paths; and
// two caches on one folder used from many threads at once, as processes under `ctest -j` use it
// (ci/tsan.sh runs this binary under ThreadSanitizer).
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/binary_cache.hpp"
#include "scoped_environment.hpp"

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

TEST(BinaryCacheSettings, IncludesAreNotCached) {
  EXPECT_TRUE(polydev::opencl::binary_cacheable("__kernel void k() {}", "-DX=1"));
  EXPECT_FALSE(polydev::opencl::binary_cacheable("#include \"a.h\"\n__kernel void k() {}", ""));
  EXPECT_FALSE(polydev::opencl::binary_cacheable("# include <a.h>\n", ""));
  EXPECT_FALSE(polydev::opencl::binary_cacheable("__kernel void k() {}", "-I /src"));
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
      whole.substr(0, whole.size() - 1),  // cut short
      whole + "x",                        // something after the binary
      "polydev-program-binary 1\nx y\n",  // sizes that are not numbers
      "polydev-program-binary 0\n" + whole.substr(whole.find('\n') + 1),  // an older layout
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
