// Fixture overhead, polydev side (issue 6, section 2): 100 trivial device tests, each creating two
// buffers of 256 floats, running the one-line kernel `out[i] = 2 * in[i]` and reading the result
// back. test_device_ops.py is the same 100 tests for pytest with PyOpenCL's plugin;
// ci/fixture-overhead.sh times both runs on the same devices (docs/fixture-overhead.md).
//
// FixtureOverhead is the suite that is compared: each test uses the fixture's context() and
// queue(), which are made per test (like PyOpenCL's ctx_factory()), and builds its program through
// polydev's program cache, which builds a program once per context.
//
// Two variants measure what would change the result, with the same 100 tests:
//  - FixtureOverheadBinaryCache: a context per test as above, but the program comes from an
//    in-process cache of program binaries keyed by device and source (built from source once per
//    device, then clCreateProgramWithBinary), as PyOpenCL does with its on-disk binary cache.
//  - FixtureOverheadSharedContext: one context and queue per device for the whole process, so
//    polydev's program cache builds the program once per device.
// FixtureOverheadCosts measures and prints what one test spends on each step; it asserts nothing
// about time. The timed runs select one suite each with --gtest_filter.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <map>
#include <mutex>
#include <polydev/gtest.hpp>
#include <polydev/opencl/program_cache.hpp>
#include <string>
#include <utility>
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

// The program for `source` on `context`, from an in-process cache of binaries keyed by device
// and source: built from source through polydev's program cache the first time on a device,
// created from that binary afterwards (a variant, not polydev's API).
cl::Program program_from_device_binary(const cl::Context& context, const cl::Device& device,
                                       const std::string& source) {
  static std::mutex mutex;
  static auto* binaries = new std::map<std::pair<cl_device_id, std::string>, cl::Program::Binaries>;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(device(), source);
  const auto found = binaries->find(key);
  if (found == binaries->end()) {
    cl::Program program = polydev::opencl::build_program(context, source);
    binaries->emplace(key, program.getInfo<CL_PROGRAM_BINARIES>());
    return program;
  }
  cl_int status = CL_SUCCESS;
  cl::Program program(context, {device}, found->second, nullptr, &status);
  EXPECT_EQ(status, CL_SUCCESS) << "clCreateProgramWithBinary";
  EXPECT_EQ(program.build({device}), CL_SUCCESS) << "clBuildProgram from a binary";
  return program;
}

class FixtureOverhead : public polydev::testing::OpenCLTest {
 protected:
  void run_one(int index) {
    check_twice(context(), queue(), polydev::opencl::build_program(context(), kSource), index);
  }
};

class FixtureOverheadBinaryCache : public polydev::testing::OpenCLTest {
 protected:
  void run_one(int index) {
    check_twice(context(), queue(), program_from_device_binary(context(), device(), kSource),
                index);
  }
};

class FixtureOverheadSharedContext : public polydev::testing::OpenCLTest {
 protected:
  void run_one(int index) {
    static std::mutex mutex;
    static auto* shared = new std::map<std::string, std::pair<cl::Context, cl::CommandQueue>>;
    std::unique_lock<std::mutex> lock(mutex);
    auto found = shared->find(GetParam().name);
    if (found == shared->end()) {
      cl::Context context = make_context();
      cl::CommandQueue queue(context, device());
      found = shared->emplace(GetParam().name, std::make_pair(context, queue)).first;
    }
    const auto [context, queue] = found->second;
    lock.unlock();
    check_twice(context, queue, polydev::opencl::build_program(context, kSource), index);
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
POLYDEV_FO_HUNDRED(FixtureOverheadBinaryCache)
POLYDEV_FO_HUNDRED(FixtureOverheadSharedContext)

#undef POLYDEV_FO_HUNDRED
#undef POLYDEV_FO_TEN
#undef POLYDEV_FO_TEST

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(FixtureOverhead);
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(FixtureOverheadBinaryCache);
POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(FixtureOverheadSharedContext);

// What one test's steps cost, measured several times per device and printed as medians in
// microseconds, one line per step:
//   fixture-overhead-cost <device key> <step> median_us=<m> min_us=<m> max_us=<m> n=<n>
// Steps: context (make_context(), which also clears the first-argument caches), queue,
// program_first (build_program() on the new context: polydev's cache misses; PoCL's own on-disk
// kernel cache usually hits), program_cached (build_program() again: polydev's cache hits),
// program_cold (a program whose source differs by a comment, so neither cache knows it: PoCL
// compiles), program_from_binary (clCreateProgramWithBinary with the binary of program_first, and
// clBuildProgram: what a cache of binaries keyed by device would cost per context), buffers (two
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
