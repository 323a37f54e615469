// The compiled-program cache on every device: one build per (context, source, options), failed
// builds not cached, the fixtures' context factory clearing it (and releasing the context), and
// build_program_once, which keeps nothing and takes the binary cache's binaries.
#include "polydev/opencl/program_cache.hpp"

#include <polydev/gtest.hpp>
#include <string>

#include "polydev/caches.hpp"
#include "polydev/error.hpp"
#include "polydev/memoize.hpp"
#include "polydev/opencl/binary_cache.hpp"
#include "support/scoped_environment.hpp"

namespace {

constexpr const char* kSource = R"CLC(
__kernel void fill(__global int* out, int value) { out[get_global_id(0)] = value; }
)CLC";

class ProgramCache : public polydev::testing::OpenCLTest {};

cl_uint reference_count(const cl::Context& context) {
  return context.getInfo<CL_CONTEXT_REFERENCE_COUNT>();
}

// Runs `program`'s kernel `fill` with `value` on 16 work items of `device` in `context`, and checks
// every element written: the program really was built for the device.
void expect_fills(const cl::Program& program, const cl::Context& context, const cl::Device& device,
                  int value) {
  cl::Kernel kernel(program, "fill");
  cl::Buffer out(context, CL_MEM_WRITE_ONLY, 16 * sizeof(int));
  kernel.setArg(0, out);
  kernel.setArg(1, value);
  cl::CommandQueue queue(context, device);
  ASSERT_EQ(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(16)), CL_SUCCESS);
  int values[16] = {};
  ASSERT_EQ(queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof(values), values), CL_SUCCESS);
  for (int written : values) EXPECT_EQ(written, value);
}

constexpr const char* kIncludingSource = R"CLC(
#include <probe-header.h>
__kernel void write_value(__global int* a) { *a = VALUE; }
)CLC";

// What `program`'s kernel write_value writes on `device`.
int written_value(const cl::Program& program, const cl::Context& context,
                  const cl::Device& device) {
  cl::Kernel kernel(program, "write_value");
  cl::Buffer out(context, CL_MEM_WRITE_ONLY, sizeof(int));
  kernel.setArg(0, out);
  cl::CommandQueue queue(context, device);
  EXPECT_EQ(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1)), CL_SUCCESS);
  int value = -1;
  EXPECT_EQ(queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof(value), &value), CL_SUCCESS);
  return value;
}

TEST_P(ProgramCache, BuildsOncePerContextSourceAndOptions) {
  const cl::Context context = make_context();
  ASSERT_EQ(polydev::opencl::cached_program_count(), 0u) << "make_context() clears the cache";
  const cl::Program first = polydev::opencl::build_program(context, kSource);
  const cl::Program again = polydev::opencl::build_program(context, kSource);
  EXPECT_EQ(first(), again());
  EXPECT_EQ(polydev::opencl::cached_program_count(), 1u);

  const cl::Program with_options = polydev::opencl::build_program(context, kSource, "-DUNUSED=1");
  EXPECT_NE(with_options(), first());
  const std::string other_source = std::string(kSource) + "\n// another source\n";
  EXPECT_NE(polydev::opencl::build_program(context, other_source)(), first());
  EXPECT_EQ(polydev::opencl::cached_program_count(), 3u);

  // Two wrappers of one cl_context share entries, as PyOpenCL's objects do.
  const cl::Context same_handle(context(), /*retainObject=*/true);
  EXPECT_EQ(polydev::opencl::build_program(same_handle, kSource)(), first());

  // The cached program really is built for this device and runs.
  expect_fills(first, context, device(), 42);
}

TEST_P(ProgramCache, ADifferentContextGetsItsOwnProgram) {
  const cl::Context context = make_context();
  const cl::Program first = polydev::opencl::build_program(context, kSource);
  // A second context made directly (not through the factory, which would clear the cache).
  const cl::Context other(device());
  const cl::Program second = polydev::opencl::build_program(other, kSource);
  EXPECT_NE(first(), second());
  EXPECT_EQ(second.getInfo<CL_PROGRAM_CONTEXT>()(), other());
  EXPECT_EQ(polydev::opencl::cached_program_count(), 2u);
}

TEST_P(ProgramCache, FailedBuildIsReportedWithTheLogAndNotCached) {
  const cl::Context context = make_context();
  const std::string broken = "__kernel void broken(__global int* out) { out[0] = undeclared; }";
  try {
    polydev::opencl::build_program(context, broken);
    FAIL() << "a program with an undeclared identifier built";
  } catch (const polydev::backend_error& failure) {
    EXPECT_EQ(failure.api(), "clBuildProgram");
    EXPECT_NE(std::string(failure.what()).find("build log for"), std::string::npos)
        << failure.what();
    EXPECT_NE(std::string(failure.what()).find("undeclared"), std::string::npos) << failure.what();
  }
  EXPECT_EQ(polydev::opencl::cached_program_count(), 0u);
}

TEST_P(ProgramCache, ContextFactoryClearsTheCacheAndReleasesTheOldContext) {
  cl::Context old_context = make_context();
  polydev::opencl::build_program(old_context, kSource);
  ASSERT_EQ(polydev::opencl::cached_program_count(), 1u);
  const cl_uint held = reference_count(old_context);
  // The cached program holds the context: one reference more than this test's handle alone.
  EXPECT_GT(held, 1u);

  const cl::Context new_context = make_context();
  EXPECT_EQ(polydev::opencl::cached_program_count(), 0u);
  EXPECT_LT(reference_count(old_context), held)
      << "the factory's clear must drop the cache's hold on the old context";
  EXPECT_NE(new_context(), old_context());
}

TEST_P(ProgramCache, ClearFirstArgCachesEmptiesIt) {
  const cl::Context context = make_context();
  polydev::opencl::build_program(context, kSource);
  polydev::clear_context_caches();
  EXPECT_EQ(polydev::opencl::cached_program_count(), 1u);
  polydev::clear_first_arg_caches();
  EXPECT_EQ(polydev::opencl::cached_program_count(), 0u);
}

TEST_P(ProgramCache, BuildProgramOnceKeepsNothingAndAnotherContextGetsTheCachedBinary) {
  polydev::opencl::ProgramBinaryCache* binaries = polydev::opencl::process_binary_cache();
  if (binaries == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1: no binary cache serves the build";
  const cl::Context context = make_context();
  const std::string source = std::string(kSource) + "\n// built once per context\n";
  const cl::Program first = polydev::opencl::build_program_once(context, source);
  EXPECT_EQ(polydev::opencl::cached_program_count(), 0u);
  const polydev::opencl::ProgramBinaryCache::Statistics before = binaries->statistics();
  const cl::Context other(device());
  const cl::Program second = polydev::opencl::build_program_once(other, source);
  const polydev::opencl::ProgramBinaryCache::Statistics after = binaries->statistics();
  EXPECT_EQ(polydev::opencl::cached_program_count(), 0u);
  EXPECT_EQ(second.getInfo<CL_PROGRAM_CONTEXT>()(), other());
  EXPECT_NE(second(), first());
  EXPECT_EQ(after.misses, before.misses) << "the second build was from source";
  EXPECT_GT(after.memory_hits + after.file_hits, before.memory_hits + before.file_hits);
  // The program from the binary runs.
  expect_fills(second, other, device(), 7);
}

// A header changed between two calls gives a new program, which writes the new value; an unchanged
// one gives the cached program. Both forms of -I.
TEST_P(ProgramCache, AChangedIncludedHeaderRebuildsTheProgram) {
  polydev_test::TemporaryDirectory folder;
  folder.write("probe-header.h", "#define VALUE 5\n");
  const cl::Context context = make_context();
  ASSERT_EQ(polydev::opencl::cached_program_count(), 0u);
  for (const std::string& options : {"-I " + folder.path(), "-I" + folder.path()}) {
    SCOPED_TRACE(options);
    folder.write("probe-header.h", "#define VALUE 5\n");
    const cl::Program five = polydev::opencl::build_program(context, kIncludingSource, options);
    EXPECT_EQ(written_value(five, context, device()), 5);
    EXPECT_EQ(polydev::opencl::build_program(context, kIncludingSource, options)(), five())
        << "an unchanged header gives the cached program";
    folder.write("probe-header.h", "#define VALUE 7\n");
    const cl::Program seven = polydev::opencl::build_program(context, kIncludingSource, options);
    EXPECT_NE(seven(), five()) << "the cache returned the program of the old header";
    EXPECT_EQ(written_value(seven, context, device()), 7);
  }
  EXPECT_EQ(polydev::opencl::cached_program_count(), 4u) << "two headers times two option texts";
}

// The binary cache covers the included files too: another context is served the binary of the
// same header, and a changed header is built from source.
TEST_P(ProgramCache, TheBinaryCacheServesIncludingProgramsAndNoticesAChangedHeader) {
  polydev::opencl::ProgramBinaryCache* binaries = polydev::opencl::process_binary_cache();
  if (binaries == nullptr) GTEST_SKIP() << "POLYDEV_NO_CACHE=1: no binary cache serves the build";
  polydev_test::TemporaryDirectory folder;
  folder.write("probe-header.h", "#define VALUE 11\n");
  const std::string options = "-I " + folder.path();
  const cl::Context context = make_context();
  ASSERT_TRUE(polydev::opencl::binary_cacheable(kIncludingSource, options));
  polydev::opencl::build_program(context, kIncludingSource, options);

  const cl::Context other(device());
  const auto before = binaries->statistics();
  const cl::Program served = polydev::opencl::build_program(other, kIncludingSource, options);
  const auto after = binaries->statistics();
  EXPECT_EQ(after.misses, before.misses) << "the same header: the binary serves the new context";
  EXPECT_EQ(written_value(served, other, device()), 11);

  folder.write("probe-header.h", "#define VALUE 13\n");
  const cl::Context third(device());
  const cl::Program rebuilt = polydev::opencl::build_program(third, kIncludingSource, options);
  EXPECT_GT(binaries->statistics().misses, after.misses) << "a changed header is a miss";
  EXPECT_EQ(written_value(rebuilt, third, device()), 13);
}

// An include that cannot be followed (here one in a comment, found nowhere) leaves the program out
// of both caches; it still builds, from source at every call.
TEST_P(ProgramCache, AProgramWithAnIncludeFoundNowhereIsBuiltEveryTimeAndNotCached) {
  const std::string source = std::string("// #include <polydev-no-such-header.h>\n") +
                             "__kernel void write_value(__global int* a) { *a = 3; }\n";
  const polydev::opencl::ProgramIncludes includes = polydev::opencl::program_includes(source, "");
  EXPECT_NE(includes.problem.find("<polydev-no-such-header.h>"), std::string::npos)
      << includes.problem;
  EXPECT_FALSE(polydev::opencl::binary_cacheable(source, ""));
  const cl::Context context = make_context();
  const cl::Program first = polydev::opencl::build_program(context, source);
  const cl::Program second = polydev::opencl::build_program(context, source);
  EXPECT_NE(first(), second());
  EXPECT_EQ(polydev::opencl::cached_program_count(), 0u);
  EXPECT_EQ(written_value(second, context, device()), 3);
}

// PyOpenCL's test_context_dep_memoize: a memoized function of a context that returns nothing runs
// once for that context.
TEST_P(ProgramCache, ContextDependentMemoizeOfAVoidFunctionRunsOncePerContext) {
  const cl::Context context = make_context();
  int counter = 0;
  polydev::FirstArgMemoized<void(cl::Context)> do_something(
      [&counter](const cl::Context&) { ++counter; });
  do_something(context);
  do_something(context);
  EXPECT_EQ(counter, 1);
  const cl::Context other(device());
  do_something(other);
  EXPECT_EQ(counter, 2) << "another context is another key";
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(ProgramCache);

}  // namespace
