// Kernels generated from argument descriptors (VectorArg / ScalarArg / parse_arg_list), built
// through the program cache and run on every device, for every integer and floating type.
#include <cstdint>
#include <polydev/gtest.hpp>
#include <string>
#include <vector>

#include "polydev/opencl/arguments.hpp"
#include "polydev/opencl/program_cache.hpp"

namespace {

using polydev::opencl::Argument;
using polydev::opencl::ScalarArg;
using polydev::opencl::ScalarType;
using polydev::opencl::VectorArg;

class GeneratedKernel : public polydev::testing::OpenCLTest {
 protected:
  bool has_fp64() {
    const std::string extensions = device().getInfo<CL_DEVICE_EXTENSIONS>();
    return extensions.find("cl_khr_fp64") != std::string::npos ||
           device().getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
  }

  // y[i] = a * x[i] + y[i] over n elements, y taken at a byte offset into its buffer (a
  // with_offset argument), for element type `type` with host type T.
  template <typename T>
  void run_axpy(ScalarType type) {
    SCOPED_TRACE(std::string(polydev::opencl::dtype_name(type)));
    const std::vector<Argument> arguments{VectorArg(type, "y", /*with_offset=*/true),
                                          VectorArg(type, "x"), ScalarArg(type, "a"),
                                          ScalarArg(ScalarType::uint32, "n")};
    ASSERT_EQ(polydev::opencl::kernel_argument_count(arguments), 5u);
    std::string source;
    if (polydev::opencl::needs_fp64(arguments)) {
      source += "#pragma OPENCL EXTENSION cl_khr_fp64: enable\n";
    }
    source += "__kernel void axpy(" + polydev::opencl::parameter_list(arguments) + ") {\n" +
              polydev::opencl::offset_adjuster_code(arguments) +
              "  const size_t i = get_global_id(0);\n"
              "  if (i < n) y[i] = a * x[i] + y[i];\n"
              "}\n";
    const cl::Program program = polydev::opencl::build_program(context(), source);

    constexpr std::size_t n = 100;
    constexpr std::size_t offset = 3;  // elements of y's buffer before y[0]
    std::vector<T> x(n);
    std::vector<T> y(n + offset);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<T>(i % 7);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<T>(i % 5 + 1);
    const T a = static_cast<T>(3);

    cl::Buffer x_buffer(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T),
                        x.data());
    cl::Buffer y_buffer(context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, y.size() * sizeof(T),
                        y.data());
    cl::Kernel kernel(program, "axpy");
    ASSERT_EQ(kernel.setArg(0, y_buffer), CL_SUCCESS);
    ASSERT_EQ(kernel.setArg(1, static_cast<cl_long>(offset * sizeof(T))), CL_SUCCESS);
    ASSERT_EQ(kernel.setArg(2, x_buffer), CL_SUCCESS);
    ASSERT_EQ(kernel.setArg(3, a), CL_SUCCESS);
    ASSERT_EQ(kernel.setArg(4, static_cast<cl_uint>(n)), CL_SUCCESS);
    ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
    std::vector<T> result(y.size());
    ASSERT_EQ(
        queue().enqueueReadBuffer(y_buffer, CL_TRUE, 0, result.size() * sizeof(T), result.data()),
        CL_SUCCESS);
    for (std::size_t i = 0; i < offset; ++i) {
      ASSERT_EQ(result[i], y[i]) << "element " << i << " before the offset was written";
    }
    for (std::size_t i = 0; i < n; ++i) {
      const T expected = static_cast<T>(a * x[i] + y[offset + i]);
      ASSERT_EQ(result[offset + i], expected) << "at index " << i;
    }
  }
};

TEST_P(GeneratedKernel, AxpyRunsForEveryIntegerAndFloatType) {
  run_axpy<std::int8_t>(ScalarType::int8);
  run_axpy<std::uint8_t>(ScalarType::uint8);
  run_axpy<std::int16_t>(ScalarType::int16);
  run_axpy<std::uint16_t>(ScalarType::uint16);
  run_axpy<std::int32_t>(ScalarType::int32);
  run_axpy<std::uint32_t>(ScalarType::uint32);
  run_axpy<std::int64_t>(ScalarType::int64);
  run_axpy<std::uint64_t>(ScalarType::uint64);
  run_axpy<float>(ScalarType::float32);
}

TEST_P(GeneratedKernel, AxpyRunsInDoublePrecision) {
  if (!has_fp64()) GTEST_SKIP() << "the device has no double precision (no cl_khr_fp64)";
  run_axpy<double>(ScalarType::float64);
}

TEST_P(GeneratedKernel, ParsedDeclarationsBuildTheSameKernel) {
  const auto arguments = polydev::opencl::parse_arg_list(
      "__global int *out, __global const int *in, int shift, unsigned int n");
  const std::string source = "__kernel void shift(" + polydev::opencl::parameter_list(arguments) +
                             ") {\n  const size_t i = get_global_id(0);\n"
                             "  if (i < n) out[i] = in[i] + shift;\n}\n";
  const cl::Program program = polydev::opencl::build_program(context(), source);
  constexpr std::size_t n = 64;
  std::vector<cl_int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<cl_int>(i * i);
  cl::Buffer in_buffer(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int),
                       in.data());
  cl::Buffer out_buffer(context(), CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
  cl::Kernel kernel(program, "shift");
  kernel.setArg(0, out_buffer);
  kernel.setArg(1, in_buffer);
  kernel.setArg(2, cl_int{-5});
  kernel.setArg(3, static_cast<cl_uint>(n));
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
  std::vector<cl_int> out(n);
  ASSERT_EQ(queue().enqueueReadBuffer(out_buffer, CL_TRUE, 0, n * sizeof(cl_int), out.data()),
            CL_SUCCESS);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], in[i] - 5) << "at index " << i;
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(GeneratedKernel);

}  // namespace
