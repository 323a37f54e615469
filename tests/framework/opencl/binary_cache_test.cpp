// The program binary cache on every device: keys, build_program taking a new context's program from
// it (and rebuilding from source when the driver refuses a binary), programs with includes keyed
// on their headers, and left out when an include cannot be followed. Its settings and files, which
// need no device, are tested in binary_cache_files_test.cpp.
#include "polydev/opencl/binary_cache.hpp"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <polydev/gtest.hpp>
#include <string>

#include "polydev/opencl/program_cache.hpp"
#include "support/scoped_environment.hpp"

namespace {

namespace fs = std::filesystem;
using polydev::opencl::ProgramBinaryCache;

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

// An entry that is a directory or a FIFO (a cache folder shared with other tools, a mistaken
// mkdir) costs a warning and a build from source; the program runs.
TEST_P(ProgramBinaryCacheOnDevice, AnEntryThatIsADirectoryOrAFifoStillBuildsFromSource) {
  if (polydev::opencl::process_binary_cache() == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1";
  ProgramBinaryCache& cache = process_cache();
  if (!cache.folder()) GTEST_SKIP() << "the binary cache has no folder (HOME is unset)";
  for (const bool directory : {true, false}) {
    const std::string name = directory ? "in_directory" : "in_fifo";
    const std::string source = unique_source(name.c_str());
    const fs::path file = cache.file_for(ProgramBinaryCache::key(device(), source, ""));
    fs::create_directories(*cache.folder());
    if (directory) {
      fs::create_directories(file / "inside");
    } else {
      ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
    }
    testing::internal::CaptureStderr();
    const cl::Context context = make_context();
    const cl::Program program = polydev::opencl::build_program(context, source);
    const std::string warning = testing::internal::GetCapturedStderr();
    expect_kernel_writes(context, device(), program, name.c_str());
    EXPECT_NE(warning.find("cannot use the program cache file '" + file.string() + "'"),
              std::string::npos)
        << warning;
    EXPECT_EQ(directory ? fs::is_directory(file) : fs::is_fifo(file), true)
        << "the entry was replaced or removed";
    fs::remove_all(file);
  }
}

TEST_P(ProgramBinaryCacheOnDevice, ProgramsWithIncludesAreStoredUnderKeysWithTheHeaders) {
  if (polydev::opencl::process_binary_cache() == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1";
  ProgramBinaryCache& cache = process_cache();
  polydev_test::TemporaryDirectory scratch;
  std::ofstream(fs::path(scratch.path()) / "value.h") << "#define VALUE 41\n";
  const std::string source = unique_source("included") +
                             "#include \"value.h\"\n__kernel void uses(__global int* o) "
                             "{ o[0] = VALUE; }\n";
  const std::string options = "-I " + fs::path(scratch.path()).string();
  const auto before = cache.statistics();
  const cl::Context context = make_context();
  const cl::Program program = polydev::opencl::build_program(context, source, options);
  expect_kernel_writes(context, device(), program, "included");
  const auto after = cache.statistics();
  EXPECT_GT(after.stores, before.stores);
  const polydev::opencl::ProgramIncludes includes =
      polydev::opencl::program_includes(source, options);
  ASSERT_TRUE(includes.problem.empty()) << includes.problem;
  EXPECT_TRUE(cache.find(ProgramBinaryCache::key(device(), source, options, includes.key)));
  EXPECT_NE(ProgramBinaryCache::key(device(), source, options, includes.key),
            ProgramBinaryCache::key(device(), source, options))
      << "the headers are part of the key";
}

TEST_P(ProgramBinaryCacheOnDevice, ProgramsWithAnIncludeThatCannotBeFollowedAreNotStored) {
  if (polydev::opencl::process_binary_cache() == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1";
  ProgramBinaryCache& cache = process_cache();
  // A header name of this instance alone: the warning comes once per reason and process.
  const std::string header =
      "polydev-never-there-" +
      std::to_string(std::chrono::system_clock::now().time_since_epoch().count()) + ".h";
  const std::string source =
      unique_source("unfollowed") + "#if 0\n#include <" + header + ">\n#endif\n";
  const auto before = cache.statistics();
  const cl::Context context = make_context();
  testing::internal::CaptureStderr();
  const cl::Program program = polydev::opencl::build_program(context, source);
  const std::string warning = testing::internal::GetCapturedStderr();
  expect_kernel_writes(context, device(), program, "unfollowed");
  const auto after = cache.statistics();
  EXPECT_EQ(after.stores, before.stores);
  EXPECT_EQ(after.misses, before.misses) << "the cache was not even asked";
  EXPECT_NE(warning.find("polydev: warning: a program is not cached: the #include <" + header +
                         "> of the source is found in none"),
            std::string::npos)
      << warning;
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(ProgramBinaryCacheOnDevice);

}  // namespace
