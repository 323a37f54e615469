// The program binary cache: its settings from the environment, its memory and folder levels with
// their damaged-file and unwritable-folder paths, and build_program taking a new context's program
// from it on every device (and rebuilding from source when the driver refuses a binary).
#include "polydev/opencl/binary_cache.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <polydev/gtest.hpp>
#include <string>

#include "../framework/scoped_environment.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/program_cache.hpp"

namespace {

namespace fs = std::filesystem;
using polydev::opencl::ProgramBinaryCache;
using polydev_test::ScopedEnvironmentVariable;

// A folder under the temporary directory, removed with everything in it.
class ScratchFolder {
 public:
  ScratchFolder() {
    path_ = fs::temp_directory_path() /
            ("polydev_binary_cache_" +
             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A source no earlier run has cached: the cache folder may outlive this process.
std::string unique_source(const char* kernel_name) {
  return "// " + std::to_string(std::chrono::system_clock::now().time_since_epoch().count()) +
         "\n__kernel void " + kernel_name +
         "(__global int* out, int value) { out[get_global_id(0)] = value + 1; }\n";
}

// Runs `name` of `program` (written by unique_source) and checks what it wrote.
void expect_kernel_writes(const cl::Context& context, const cl::Device& device,
                          const cl::Program& program, const char* name) {
  cl::Kernel kernel(program, name);
  cl::Buffer out(context, CL_MEM_WRITE_ONLY, 8 * sizeof(int));
  kernel.setArg(0, out);
  kernel.setArg(1, 41);
  cl::CommandQueue queue(context, device);
  ASSERT_EQ(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(8)), CL_SUCCESS);
  int values[8] = {};
  ASSERT_EQ(queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof(values), values), CL_SUCCESS);
  for (int value : values) EXPECT_EQ(value, 42);
}

// ---------------------------------------------------------------------------------------------
// Settings and keys (no device needed)

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
// The memory and folder levels, with binaries that need no device

TEST(ProgramBinaryCacheFiles, AnotherCacheOnTheFolderFindsWhatOneStored) {
  ScratchFolder scratch;
  const fs::path folder = scratch.path() / "created" / "on" / "store";
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
  ScratchFolder scratch;
  ProgramBinaryCache writer(scratch.path());
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
    ProgramBinaryCache reader(scratch.path());
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
  ScratchFolder scratch;
  ProgramBinaryCache cache(scratch.path());
  cache.store("first", {7});
  // As if "second" had the same hash as "first": its file holds first's entry.
  fs::copy_file(cache.file_for("first"), cache.file_for("second"));
  ProgramBinaryCache reader(scratch.path());
  EXPECT_FALSE(reader.find("second").has_value());
  EXPECT_EQ(reader.statistics().damaged_files, 0u);
  reader.store("second", {8});
  EXPECT_EQ(ProgramBinaryCache(scratch.path()).find("second"), ProgramBinaryCache::Binary{8});
}

TEST(ProgramBinaryCacheFiles, AFolderThatCannotBeMadeWarnsOnceAndKeepsBinariesInMemory) {
  ScratchFolder scratch;
  const fs::path file = scratch.path() / "a-file";
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

// ---------------------------------------------------------------------------------------------
// On every device

class ProgramBinaryCacheOnDevice : public polydev::testing::OpenCLTest {
 protected:
  ProgramBinaryCache& process_cache() {
    ProgramBinaryCache* cache = polydev::opencl::process_binary_cache();
    if (cache == nullptr) throw std::runtime_error("POLYDEV_NO_CACHE=1 is set");
    return *cache;
  }
};

TEST_P(ProgramBinaryCacheOnDevice, KeysTellDevicesOptionsAndSourcesApart) {
  const std::string key = ProgramBinaryCache::key(device(), "a", "");
  EXPECT_NE(key.find(device().getInfo<CL_DEVICE_NAME>()), std::string::npos) << key;
  EXPECT_NE(key.find(device().getInfo<CL_DRIVER_VERSION>()), std::string::npos) << key;
  EXPECT_NE(key, ProgramBinaryCache::key(device(), "a", "-DX"));
  EXPECT_NE(key, ProgramBinaryCache::key(device(), "b", ""));
  // Lengths keep the fields apart: moving text from the options to the source changes the key.
  EXPECT_NE(ProgramBinaryCache::key(device(), "ab", "c"),
            ProgramBinaryCache::key(device(), "b", "ca"));
  EXPECT_EQ(key, ProgramBinaryCache::key(device(), "a", ""));
}

TEST_P(ProgramBinaryCacheOnDevice, ANewContextGetsTheProgramFromTheBinary) {
  if (polydev::opencl::process_binary_cache() == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1";
  ProgramBinaryCache& cache = process_cache();
  const std::string source = unique_source("plus_one");
  const std::string key = ProgramBinaryCache::key(device(), source, "");

  const auto before = cache.statistics();
  const cl::Context first_context = make_context();
  const cl::Program first = polydev::opencl::build_program(first_context, source);
  const auto after_first = cache.statistics();
  EXPECT_EQ(after_first.misses, before.misses + 1);
  EXPECT_EQ(after_first.stores, before.stores + 1);
  ASSERT_TRUE(cache.find(key).has_value()) << "the source build kept its binary";
  expect_kernel_writes(first_context, device(), first, "plus_one");

  const cl::Context second_context = make_context();
  const auto before_second = cache.statistics();
  const cl::Program second = polydev::opencl::build_program(second_context, source);
  const auto after_second = cache.statistics();
  EXPECT_EQ(after_second.memory_hits, before_second.memory_hits + 1);
  EXPECT_EQ(after_second.misses, before_second.misses) << "built from source again";
  EXPECT_EQ(second.getInfo<CL_PROGRAM_CONTEXT>()(), second_context());
  expect_kernel_writes(second_context, device(), second, "plus_one");
}

TEST_P(ProgramBinaryCacheOnDevice, ABinaryTheDriverRefusesIsReplacedByASourceBuild) {
  if (polydev::opencl::process_binary_cache() == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1";
  ProgramBinaryCache& cache = process_cache();
  const std::string source = unique_source("refused");
  const std::string key = ProgramBinaryCache::key(device(), source, "");
  const ProgramBinaryCache::Binary garbage(64, 0xA5);
  cache.store(key, garbage);

  const cl::Context context = make_context();
  const cl::Program program = polydev::opencl::build_program(context, source);
  expect_kernel_writes(context, device(), program, "refused");
  const auto stored = cache.find(key);
  ASSERT_TRUE(stored.has_value());
  EXPECT_NE(*stored, garbage) << "the refused binary was not replaced by the source build's";
}

TEST_P(ProgramBinaryCacheOnDevice, ProgramsWithIncludesAreBuiltFromSourceAndNotStored) {
  if (polydev::opencl::process_binary_cache() == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1";
  ProgramBinaryCache& cache = process_cache();
  ScratchFolder scratch;
  std::ofstream(scratch.path() / "value.h") << "#define VALUE 41\n";
  const std::string source = unique_source("included") +
                             "#include \"value.h\"\n__kernel void uses(__global int* o) "
                             "{ o[0] = VALUE; }\n";
  const std::string options = "-I " + scratch.path().string();
  const auto before = cache.statistics();
  const cl::Context context = make_context();
  const cl::Program program = polydev::opencl::build_program(context, source, options);
  expect_kernel_writes(context, device(), program, "included");
  const auto after = cache.statistics();
  EXPECT_EQ(after.stores, before.stores);
  EXPECT_EQ(after.misses, before.misses) << "the cache was not even asked";
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(ProgramBinaryCacheOnDevice);

}  // namespace
