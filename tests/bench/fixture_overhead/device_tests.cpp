// Fixture overhead, polydev side: 100 trivial device tests, each creating two
// buffers of 256 floats, running the one-line kernel `out[i] = 2 * in[i]` and reading the result
// back. test_device_ops.py is the same 100 tests for pytest with PyOpenCL's plugin;
// tests/bench/run/fixture-overhead.sh times both runs on the same devices
// (docs/performance.md, "Fixture overhead").
//
// FixtureOverhead is the suite that is compared: each test makes a context of its own with
// make_context() and a queue on it, as PyOpenCL's ctx_factory() gives each test a new context, and
// builds its program through build_program, which builds a program once per context and takes a
// new context's program from the binary cache (binary_cache.hpp) once any context on a device like
// it has built it. The script also times this suite with POLYDEV_NO_CACHE=1: every context builds
// from source.
//
// One variant measures what else would change the result, with the same 100 tests:
//  - FixtureOverheadSharedContext: the fixture's context() and queue(), which the tests of a device
//    share in a process, so build_program builds the program once per device.
// FixtureOverheadCosts measures and prints what one test spends on each step; it asserts nothing
// about time. The timed runs select one suite each with --gtest_filter.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <map>
#include <polydev/gtest.hpp>
#include <polydev/opencl/program_cache.hpp>
#include <string>
#include <vector>

namespace {

#if defined(POLYDEV_WITH_OPENCL)

constexpr std::size_t kCount = 256;
constexpr const char* kSource =
    "__kernel void twice(__global const float* in, __global float* out)\n"
    "{ size_t i = get_global_id(0); out[i] = 2.0f * in[i]; }\n";

// Runs the kernel on `in` with `context` and `queue`, returns `out` read back.
std::vector<float> run_twice(const cl::Context& context, const cl::CommandQueue& queue,
                             const cl::Program& program, std::vector<float>& in) {
  cl::Buffer device_in(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kCount * sizeof(float),
                       in.data());
  cl::Buffer device_out(context, CL_MEM_WRITE_ONLY, kCount * sizeof(float));
  cl::Kernel kernel(program, "twice");
  kernel.setArg(0, device_in);
  kernel.setArg(1, device_out);
  std::vector<float> out(kCount, -1.0f);
  EXPECT_EQ(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kCount)), CL_SUCCESS);
  EXPECT_EQ(queue.enqueueReadBuffer(device_out, CL_TRUE, 0, kCount * sizeof(float), out.data()),
            CL_SUCCESS);
  return out;
}

// Fills `in`, runs the kernel, checks `out`: the body of every test.
void check_twice(const cl::Context& context, const cl::CommandQueue& queue,
                 const cl::Program& program, int index) {
  std::vector<float> in(kCount);
  for (std::size_t i = 0; i < kCount; ++i) {
    in[i] = static_cast<float>(i) + static_cast<float>(index);
  }
  const std::vector<float> out = run_twice(context, queue, program, in);
  for (std::size_t i = 0; i < kCount; ++i) ASSERT_EQ(out[i], 2.0f * in[i]) << "at " << i;
}

class FixtureOverhead : public polydev::testing::OpenCLTest {
 protected:
  void run_one(int index) {
    const cl::Context context = make_context();
    const cl::CommandQueue queue(context, device());
    check_twice(context, queue, polydev::opencl::build_program(context, kSource), index);
  }
};

class FixtureOverheadSharedContext : public polydev::testing::OpenCLTest {
 protected:
  void run_one(int index) {
    check_twice(context(), queue(), polydev::opencl::build_program(context(), kSource), index);
  }
};

// 100 tests per suite, Op00 to Op99, generated ten at a time.
// clang-format off
#define POLYDEV_FO_TEST(suite, number) \
  TEST_P(suite, Op##number) { run_one(1##number - 100); }
#define POLYDEV_FO_TEN(suite, tens) \
  POLYDEV_FO_TEST(suite, tens##0) POLYDEV_FO_TEST(suite, tens##1) \
  POLYDEV_FO_TEST(suite, tens##2) POLYDEV_FO_TEST(suite, tens##3) \
  POLYDEV_FO_TEST(suite, tens##4) POLYDEV_FO_TEST(suite, tens##5) \
  POLYDEV_FO_TEST(suite, tens##6) POLYDEV_FO_TEST(suite, tens##7) \
  POLYDEV_FO_TEST(suite, tens##8) POLYDEV_FO_TEST(suite, tens##9)
#define POLYDEV_FO_HUNDRED(suite) \
  POLYDEV_FO_TEN(suite, 0) POLYDEV_FO_TEN(suite, 1) POLYDEV_FO_TEN(suite, 2) \
  POLYDEV_FO_TEN(suite, 3) POLYDEV_FO_TEN(suite, 4) POLYDEV_FO_TEN(suite, 5) \
  POLYDEV_FO_TEN(suite, 6) POLYDEV_FO_TEN(suite, 7) POLYDEV_FO_TEN(suite, 8) \
  POLYDEV_FO_TEN(suite, 9)
// clang-format on

POLYDEV_FO_HUNDRED(FixtureOverhead)
POLYDEV_FO_HUNDRED(FixtureOverheadSharedContext)

#undef POLYDEV_FO_HUNDRED
#undef POLYDEV_FO_TEN
#undef POLYDEV_FO_TEST

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(FixtureOverhead);
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(FixtureOverheadSharedContext);

// What one test's steps cost, measured several times per device and printed as medians in
// microseconds, one line per step:
//   fixture-overhead-cost <device key> <step> median_us=<m> min_us=<m> max_us=<m> n=<n>
// Steps: context (make_context(), which also clears the first-argument caches), queue,
// program_first (build_program() on the new context: from the binary cache after the first
// repetition), program_cached (build_program() again: the per-context cache hits), program_cold (a
// program whose source differs by a comment, so no cache of polydev knows it: a build from source,
// and the binary fetched for the binary cache), program_from_binary (clCreateProgramWithBinary and
// clBuildProgram by hand, with the binary of program_first), buffers (two
// buffers, one copied from the host), kernel_and_read (clCreateKernel, set arguments, enqueue,
// blocking read). Nothing here asserts on time.
class FixtureOverheadCosts : public polydev::testing::OpenCLTest {};

TEST_P(FixtureOverheadCosts, PrintsSetupCosts) {
  using clock = std::chrono::steady_clock;
  constexpr int kRepetitions = 7;
  std::map<std::string, std::vector<double>> samples;
  const auto elapsed_us = [](clock::time_point start) {
    return std::chrono::duration<double, std::micro>(clock::now() - start).count();
  };
  const std::string key = GetParam().name;
  const auto nonce_base = clock::now().time_since_epoch().count();

  for (int repetition = 0; repetition < kRepetitions; ++repetition) {
    auto start = clock::now();
    const cl::Context context = make_context();
    samples["context"].push_back(elapsed_us(start));

    start = clock::now();
    cl_int status = CL_SUCCESS;
    const cl::CommandQueue queue(context, device(), cl::QueueProperties::None, &status);
    samples["queue"].push_back(elapsed_us(start));
    ASSERT_EQ(status, CL_SUCCESS);

    start = clock::now();
    const cl::Program first = polydev::opencl::build_program(context, kSource);
    samples["program_first"].push_back(elapsed_us(start));

    start = clock::now();
    const cl::Program cached = polydev::opencl::build_program(context, kSource);
    samples["program_cached"].push_back(elapsed_us(start));
    EXPECT_EQ(first(), cached()) << "the program cache built the same program twice";

    const std::string cold_source = std::string(kSource) + "// " + key + " " +
                                    std::to_string(nonce_base) + " " + std::to_string(repetition) +
                                    "\n";
    start = clock::now();
    const cl::Program cold = polydev::opencl::build_program(context, cold_source);
    samples["program_cold"].push_back(elapsed_us(start));

    const cl::Program::Binaries binaries = first.getInfo<CL_PROGRAM_BINARIES>();
    start = clock::now();
    cl::Program from_binary(context, {device()}, binaries, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    ASSERT_EQ(from_binary.build({device()}), CL_SUCCESS);
    samples["program_from_binary"].push_back(elapsed_us(start));

    std::vector<float> in(kCount, 1.5f);
    start = clock::now();
    cl::Buffer device_in(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kCount * sizeof(float),
                         in.data());
    cl::Buffer device_out(context, CL_MEM_WRITE_ONLY, kCount * sizeof(float));
    samples["buffers"].push_back(elapsed_us(start));

    start = clock::now();
    const std::vector<float> out = run_twice(context, queue, first, in);
    samples["kernel_and_read"].push_back(elapsed_us(start));
    ASSERT_EQ(out.front(), 3.0f);
  }

  for (const char* step : {"context", "queue", "program_first", "program_cached", "program_cold",
                           "program_from_binary", "buffers", "kernel_and_read"}) {
    std::vector<double>& values = samples[step];
    std::sort(values.begin(), values.end());
    const double median = values[values.size() / 2];
    std::printf("fixture-overhead-cost %s %s median_us=%.1f min_us=%.1f max_us=%.1f n=%zu\n",
                key.c_str(), step, median, values.front(), values.back(), values.size());
    RecordProperty(std::string("median_us_") + step, std::to_string(median));
  }
  std::fflush(stdout);
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(FixtureOverheadCosts);

#endif  // POLYDEV_WITH_OPENCL

}  // namespace
