// Kernels generated from argument descriptors of every OpenCL C vector type, of half and of
// registered structs, built through the program cache and run on every device. The device's own
// sizeof and alignment are checked against DType's.
#include <CL/opencl.hpp>
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <polydev/gtest.hpp>
#include <string>
#include <vector>

#include "polydev/opencl/arguments.hpp"
#include "polydev/opencl/dtypes.hpp"
#include "polydev/opencl/program_cache.hpp"

namespace {

using polydev::opencl::Argument;
using polydev::opencl::DType;
using polydev::opencl::dtype_to_ctype;
using polydev::opencl::DTypeRegistry;
using polydev::opencl::OtherArg;
using polydev::opencl::ScalarArg;
using polydev::opencl::ScalarType;
using polydev::opencl::VectorArg;

constexpr std::size_t kWidths[] = {2, 3, 4, 8, 16};

// Components a vector of `width` takes in memory: a 3-vector is stored as a 4-vector.
std::size_t stored_components(std::size_t width) { return width == 3 ? 4 : width; }

// The IEEE 754 binary16 bits of a small non-negative integer (exact below 2048).
std::uint16_t half_bits(unsigned value) {
  if (value == 0) return 0;
  unsigned exponent = 0;
  while ((value >> (exponent + 1)) != 0) ++exponent;
  const unsigned mantissa = (value << (10 - exponent)) & 0x3ffu;
  return static_cast<std::uint16_t>(((exponent + 15) << 10) | mantissa);
}

class ArgumentTypesKernel : public polydev::testing::OpenCLTest {
 protected:
  bool has_extension(const std::string& name) {
    const std::string extensions = device().getInfo<CL_DEVICE_EXTENSIONS>();
    return extensions.find(name) != std::string::npos;
  }
  bool has_fp64() {
    return has_extension("cl_khr_fp64") || device().getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
  }
  bool has_fp16() { return has_extension("cl_khr_fp16"); }

  // The device's sizeof and alignment of each type, measured by a kernel generated from the
  // types' OpenCL C names and declarations (alignment as the offset of a member after a char).
  std::vector<std::array<cl_uint, 2>> device_layouts(const std::vector<DType>& types) {
    std::vector<Argument> arguments{VectorArg(ScalarType::uint32, "out")};
    for (const DType& type : types) arguments.push_back(VectorArg(type, "unused"));
    std::string body;
    for (std::size_t k = 0; k < types.size(); ++k) {
      const std::string name = dtype_to_ctype(types[k]);
      const std::string probe = "probe" + std::to_string(k);
      body += "  { struct { char c; " + name + " v; } " + probe + ";\n" + "    out[" +
              std::to_string(2 * k) + "] = sizeof(" + name + ");\n" + "    out[" +
              std::to_string(2 * k + 1) + "] = (uint) ((__private char *) &" + probe +
              ".v - (__private char *) &" + probe + "); }\n";
    }
    // The declarations (pragmas, structs) come from the descriptors; only `out` is a parameter.
    const std::string source =
        polydev::opencl::type_declarations(arguments) + "__kernel void layouts(" +
        polydev::opencl::parameter_list({arguments.front()}) + ") {\n" + body + "}\n";
    const cl::Program program = polydev::opencl::build_program(context(), source);
    cl::Buffer out(context(), CL_MEM_WRITE_ONLY, 2 * types.size() * sizeof(cl_uint));
    cl::Kernel kernel(program, "layouts");
    kernel.setArg(0, out);
    EXPECT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1)), CL_SUCCESS);
    std::vector<std::array<cl_uint, 2>> layouts(types.size());
    EXPECT_EQ(queue().enqueueReadBuffer(out, CL_TRUE, 0, layouts.size() * sizeof(layouts[0]),
                                        layouts.data()),
              CL_SUCCESS);
    return layouts;
  }

  void expect_device_layouts(const std::vector<DType>& types) {
    const auto layouts = device_layouts(types);
    for (std::size_t k = 0; k < types.size(); ++k) {
      EXPECT_EQ(layouts[k][0], types[k].size()) << "sizeof(" << dtype_to_ctype(types[k]) << ")";
      EXPECT_EQ(layouts[k][1], types[k].alignment()) << "alignment of " << dtype_to_ctype(types[k]);
    }
  }

  // y[i] = a * x[i] + y[i] for n vectors of every width of `component` (host type T): y at a byte
  // offset into its buffer (a with_offset argument), a passed by value, one program for the widths.
  template <typename T>
  void run_vector_axpy(ScalarType component) {
    std::string source;
    for (std::size_t width : kWidths) {
      const DType vector = DType::vector(component, width);
      std::vector<Argument> arguments{VectorArg(vector, "y", /*with_offset=*/true),
                                      VectorArg(vector, "x"), ScalarArg(vector, "a"),
                                      ScalarArg(ScalarType::uint32, "n")};
      if (source.empty()) source += polydev::opencl::type_declarations(arguments);
      source += "__kernel void axpy_" + dtype_to_ctype(vector) + "(" +
                polydev::opencl::parameter_list(arguments) + ") {\n" +
                polydev::opencl::offset_adjuster_code(arguments) +
                "  const size_t i = get_global_id(0);\n"
                "  if (i < n) y[i] = a * x[i] + y[i];\n"
                "}\n";
    }
    const cl::Program program = polydev::opencl::build_program(context(), source);

    constexpr std::size_t n = 37;
    constexpr std::size_t offset = 2;  // vectors of y's buffer before y[0]
    for (std::size_t width : kWidths) {
      const DType vector = DType::vector(component, width);
      SCOPED_TRACE(dtype_to_ctype(vector));
      const std::size_t stride = stored_components(width);
      ASSERT_EQ(vector.size(), stride * sizeof(T));
      std::vector<T> x(n * stride);
      std::vector<T> y((n + offset) * stride);
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<T>(i % 7);
      for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<T>(i % 5 + 1);
      alignas(128) std::array<T, 16> a{};
      for (std::size_t c = 0; c < stride; ++c) a[c] = static_cast<T>(c % 4 + 1);

      cl::Buffer x_buffer(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x.size() * sizeof(T),
                          x.data());
      cl::Buffer y_buffer(context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, y.size() * sizeof(T),
                          y.data());
      cl::Kernel kernel(program, ("axpy_" + dtype_to_ctype(vector)).c_str());
      ASSERT_EQ(kernel.setArg(0, y_buffer), CL_SUCCESS);
      ASSERT_EQ(kernel.setArg(1, static_cast<cl_long>(offset * vector.size())), CL_SUCCESS);
      ASSERT_EQ(kernel.setArg(2, x_buffer), CL_SUCCESS);
      ASSERT_EQ(kernel.setArg(3, vector.size(), a.data()), CL_SUCCESS);
      ASSERT_EQ(kernel.setArg(4, static_cast<cl_uint>(n)), CL_SUCCESS);
      ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
      std::vector<T> result(y.size());
      ASSERT_EQ(
          queue().enqueueReadBuffer(y_buffer, CL_TRUE, 0, result.size() * sizeof(T), result.data()),
          CL_SUCCESS);
      for (std::size_t i = 0; i < offset * stride; ++i) {
        ASSERT_EQ(result[i], y[i]) << "element " << i << " before the offset was written";
      }
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t c = 0; c < width; ++c) {  // a 3-vector's fourth component is padding
          const std::size_t at = (offset + i) * stride + c;
          const T expected = static_cast<T>(a[c] * x[i * stride + c] + y[at]);
          ASSERT_EQ(result[at], expected) << "vector " << i << " component " << c;
        }
      }
    }
  }
};

TEST_P(ArgumentTypesKernel, EveryVectorTypeHasTheDeviceSizeAndAlignment) {
  std::vector<ScalarType> components{ScalarType::int8,   ScalarType::uint8,  ScalarType::int16,
                                     ScalarType::uint16, ScalarType::int32,  ScalarType::uint32,
                                     ScalarType::int64,  ScalarType::uint64, ScalarType::float32};
  if (has_fp64()) components.push_back(ScalarType::float64);
  if (has_fp16()) components.push_back(ScalarType::float16);
  std::vector<DType> types;
  for (ScalarType component : components) {
    for (std::size_t width : kWidths) types.push_back(DType::vector(component, width));
  }
  expect_device_layouts(types);
}

TEST_P(ArgumentTypesKernel, VectorAxpyRunsForEveryIntegerAndFloatComponent) {
  run_vector_axpy<cl_char>(ScalarType::int8);
  run_vector_axpy<cl_uchar>(ScalarType::uint8);
  run_vector_axpy<cl_short>(ScalarType::int16);
  run_vector_axpy<cl_ushort>(ScalarType::uint16);
  run_vector_axpy<cl_int>(ScalarType::int32);
  run_vector_axpy<cl_uint>(ScalarType::uint32);
  run_vector_axpy<cl_long>(ScalarType::int64);
  run_vector_axpy<cl_ulong>(ScalarType::uint64);
  run_vector_axpy<cl_float>(ScalarType::float32);
}

TEST_P(ArgumentTypesKernel, VectorAxpyRunsInDoublePrecision) {
  if (!has_fp64()) GTEST_SKIP() << "the device has no double precision (no cl_khr_fp64)";
  run_vector_axpy<cl_double>(ScalarType::float64);
}

// A pointer to plain half is the one use of half every device allows: no pragma, read and written
// with vload_half / vstore_half.
TEST_P(ArgumentTypesKernel, HalfPointersNeedNoExtension) {
  const std::vector<Argument> arguments{VectorArg(ScalarType::float16, "h"),
                                        VectorArg(ScalarType::float32, "f"),
                                        ScalarArg(ScalarType::uint32, "n")};
  ASSERT_EQ(polydev::opencl::type_declarations(arguments), "");
  const std::string source = "__kernel void widen(" + polydev::opencl::parameter_list(arguments) +
                             ") {\n"
                             "  const size_t i = get_global_id(0);\n"
                             "  if (i >= n) return;\n"
                             "  f[i] = 2.0f * vload_half(i, h);\n"
                             "  vstore_half(vload_half(i, h) + 1.0f, i, h);\n"
                             "}\n";
  const cl::Program program = polydev::opencl::build_program(context(), source);
  constexpr unsigned n = 50;
  std::vector<std::uint16_t> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = half_bits(i);
  cl::Buffer h_buffer(context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 2, h.data());
  cl::Buffer f_buffer(context(), CL_MEM_WRITE_ONLY, n * sizeof(cl_float));
  cl::Kernel kernel(program, "widen");
  kernel.setArg(0, h_buffer);
  kernel.setArg(1, f_buffer);
  kernel.setArg(2, static_cast<cl_uint>(n));
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
  std::vector<cl_float> f(n);
  ASSERT_EQ(queue().enqueueReadBuffer(f_buffer, CL_TRUE, 0, n * sizeof(cl_float), f.data()),
            CL_SUCCESS);
  ASSERT_EQ(queue().enqueueReadBuffer(h_buffer, CL_TRUE, 0, n * 2, h.data()), CL_SUCCESS);
  for (unsigned i = 0; i < n; ++i) {
    EXPECT_EQ(f[i], 2.0f * static_cast<float>(i)) << "at index " << i;
    EXPECT_EQ(h[i], half_bits(i + 1)) << "at index " << i;
  }
}

// Half values and half vectors need cl_khr_fp16; the descriptors ask for it in type_declarations.
TEST_P(ArgumentTypesKernel, HalfValuesAndVectorsRunWithFp16) {
  if (!has_fp16()) {
    GTEST_SKIP() << "the device has no cl_khr_fp16; half values and halfN need it (a pointer to "
                    "plain half, tested above, does not)";
  }
  const DType half4 = DType::vector(ScalarType::float16, 4);
  const std::vector<Argument> arguments{VectorArg(half4, "y"), ScalarArg(ScalarType::float16, "a"),
                                        ScalarArg(half4, "b"), ScalarArg(ScalarType::uint32, "n")};
  ASSERT_EQ(polydev::opencl::type_declarations(arguments),
            "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
  const std::string source = polydev::opencl::type_declarations(arguments) +
                             "__kernel void scale(" + polydev::opencl::parameter_list(arguments) +
                             ") {\n"
                             "  const size_t i = get_global_id(0);\n"
                             "  if (i < n) y[i] = a * y[i] + b;\n"
                             "}\n";
  const cl::Program program = polydev::opencl::build_program(context(), source);
  constexpr unsigned n = 20;
  std::vector<std::uint16_t> y(4 * n);
  for (unsigned i = 0; i < y.size(); ++i) y[i] = half_bits(i % 9);
  const std::uint16_t a = half_bits(3);
  const std::array<std::uint16_t, 4> b{half_bits(1), half_bits(2), half_bits(3), half_bits(4)};
  cl::Buffer y_buffer(context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, y.size() * 2, y.data());
  cl::Kernel kernel(program, "scale");
  kernel.setArg(0, y_buffer);
  ASSERT_EQ(kernel.setArg(1, sizeof(a), &a), CL_SUCCESS);
  ASSERT_EQ(kernel.setArg(2, half4.size(), b.data()), CL_SUCCESS);
  kernel.setArg(3, static_cast<cl_uint>(n));
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
  std::vector<std::uint16_t> result(y.size());
  ASSERT_EQ(queue().enqueueReadBuffer(y_buffer, CL_TRUE, 0, result.size() * 2, result.data()),
            CL_SUCCESS);
  for (unsigned i = 0; i < y.size(); ++i) {
    EXPECT_EQ(result[i], half_bits(3 * (i % 9) + (i % 4) + 1)) << "at index " << i;
  }
}

// Host types with the layout of the registered declarations below.
struct Pair {
  cl_int id;
  cl_float value;
};
struct Particle {
  cl_float4 position;
  Pair tag;
  cl_int2 cell;
};
constexpr const char* kPairDeclaration = "typedef struct { int id; float value; } pair;";
constexpr const char* kParticleDeclaration =
    "typedef struct {\n  float4 position;\n  pair tag;\n  int2 cell;\n} particle;";

TEST_P(ArgumentTypesKernel, RegisteredStructsArePassedByValueAndThroughPointers) {
  DTypeRegistry registry;
  registry.get_or_register_dtype("pair", sizeof(Pair), alignof(Pair), kPairDeclaration);
  const DType particle = registry.get_or_register_dtype("particle", sizeof(Particle),
                                                        alignof(Particle), kParticleDeclaration);
  expect_device_layouts({registry.get_or_register_dtype("pair"), particle});

  const std::vector<Argument> arguments{VectorArg(particle, "p", /*with_offset=*/true),
                                        ScalarArg(particle, "delta"),
                                        ScalarArg(ScalarType::uint32, "n")};
  const std::string source = polydev::opencl::type_declarations(arguments) + "__kernel void move(" +
                             polydev::opencl::parameter_list(arguments) + ") {\n" +
                             polydev::opencl::offset_adjuster_code(arguments) +
                             "  const size_t i = get_global_id(0);\n"
                             "  if (i >= n) return;\n"
                             "  p[i].position += delta.position;\n"
                             "  p[i].tag.id += delta.tag.id;\n"
                             "  p[i].tag.value *= delta.tag.value;\n"
                             "  p[i].cell += delta.cell;\n"
                             "}\n";
  const cl::Program program = polydev::opencl::build_program(context(), source);

  constexpr std::size_t n = 33;
  constexpr std::size_t offset = 1;
  std::vector<Particle> particles(n + offset);
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const auto f = static_cast<cl_float>(i);
    particles[i].position = {{f, f + 1, f + 2, f + 3}};
    particles[i].tag = {static_cast<cl_int>(i), f / 2};
    particles[i].cell = {{static_cast<cl_int>(i), -static_cast<cl_int>(i)}};
  }
  Particle delta{};
  delta.position = {{10, 20, 30, 40}};
  delta.tag = {100, 4};
  delta.cell = {{-1, 1}};
  cl::Buffer buffer(context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    particles.size() * sizeof(Particle), particles.data());
  cl::Kernel kernel(program, "move");
  kernel.setArg(0, buffer);
  kernel.setArg(1, static_cast<cl_long>(offset * sizeof(Particle)));
  ASSERT_EQ(kernel.setArg(2, particle.size(), &delta), CL_SUCCESS);
  kernel.setArg(3, static_cast<cl_uint>(n));
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
  std::vector<Particle> result(particles.size());
  ASSERT_EQ(queue().enqueueReadBuffer(buffer, CL_TRUE, 0, result.size() * sizeof(Particle),
                                      result.data()),
            CL_SUCCESS);
  EXPECT_EQ(std::memcmp(&result[0], &particles[0], sizeof(Particle)), 0)
      << "the particle before the offset was written";
  for (std::size_t i = offset; i < result.size(); ++i) {
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(result[i].position.s[c], particles[i].position.s[c] + delta.position.s[c])
          << "particle " << i << " position " << c;
    }
    EXPECT_EQ(result[i].tag.id, particles[i].tag.id + 100) << "particle " << i;
    EXPECT_EQ(result[i].tag.value, particles[i].tag.value * 4) << "particle " << i;
    EXPECT_EQ(result[i].cell.s[0], particles[i].cell.s[0] - 1) << "particle " << i;
    EXPECT_EQ(result[i].cell.s[1], particles[i].cell.s[1] + 1) << "particle " << i;
  }
}

// Declarations parsed from text, with a struct in the process registry, build and run.
TEST_P(ArgumentTypesKernel, ParsedVectorAndStructDeclarationsBuild) {
  polydev::opencl::get_or_register_dtype<Pair>("argument_types_pair",
                                               "typedef struct { int id; float value; } "
                                               "argument_types_pair;");
  const auto arguments = polydev::opencl::parse_arg_list(
      "__global float4 *out, __global const int2 *in, argument_types_pair scale, uint n");
  const std::string source = polydev::opencl::type_declarations(arguments) +
                             "__kernel void combine(" + polydev::opencl::parameter_list(arguments) +
                             ") {\n"
                             "  const size_t i = get_global_id(0);\n"
                             "  if (i < n) out[i] = (float4)(in[i].x * scale.value, in[i].y, "
                             "scale.id, convert_float(in[i].x + in[i].y));\n"
                             "}\n";
  const cl::Program program = polydev::opencl::build_program(context(), source);
  constexpr std::size_t n = 25;
  std::vector<cl_int2> in(n);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = {{static_cast<cl_int>(i), static_cast<cl_int>(2 * i)}};
  const Pair scale{7, 0.5f};
  cl::Buffer in_buffer(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int2),
                       in.data());
  cl::Buffer out_buffer(context(), CL_MEM_WRITE_ONLY, n * sizeof(cl_float4));
  cl::Kernel kernel(program, "combine");
  kernel.setArg(0, out_buffer);
  kernel.setArg(1, in_buffer);
  ASSERT_EQ(kernel.setArg(2, sizeof(scale), &scale), CL_SUCCESS);
  kernel.setArg(3, static_cast<cl_uint>(n));
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n)), CL_SUCCESS);
  std::vector<cl_float4> out(n);
  ASSERT_EQ(queue().enqueueReadBuffer(out_buffer, CL_TRUE, 0, n * sizeof(cl_float4), out.data()),
            CL_SUCCESS);
  for (std::size_t i = 0; i < n; ++i) {
    const auto f = static_cast<cl_float>(i);
    EXPECT_EQ(out[i].s[0], f * 0.5f) << "at index " << i;
    EXPECT_EQ(out[i].s[1], 2 * f) << "at index " << i;
    EXPECT_EQ(out[i].s[2], 7.0f) << "at index " << i;
    EXPECT_EQ(out[i].s[3], 3 * f) << "at index " << i;
  }
}

// A __local buffer as an OtherArg beside parsed declarations: each work-group reverses its part of
// `in` through `scratch`, which only works if the argument is the group's shared memory.
TEST_P(ArgumentTypesKernel, LocalScratchOtherArgIsSharedByAWorkGroup) {
  const auto arguments = polydev::opencl::parse_arg_list(
      {std::string("__global float *out"), std::string("__global const float *in"),
       OtherArg("__local float *scratch", "scratch")});
  ASSERT_EQ(polydev::opencl::kernel_argument_count(arguments), 3u);
  const std::string source = polydev::opencl::type_declarations(arguments) +
                             "__kernel void reverse_groups(" +
                             polydev::opencl::parameter_list(arguments) +
                             ") {\n"
                             "  const size_t lid = get_local_id(0);\n"
                             "  const size_t size = get_local_size(0);\n"
                             "  scratch[lid] = in[get_global_id(0)];\n"
                             "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "  out[get_global_id(0)] = scratch[size - 1 - lid];\n"
                             "}\n";
  const cl::Program program = polydev::opencl::build_program(context(), source);
  cl::Kernel kernel(program, "reverse_groups");
  const std::size_t local =
      std::min<std::size_t>(16, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device()));
  ASSERT_GE(local, 2u) << "the device runs work-groups of one item; nothing would be shared";
  constexpr std::size_t groups = 4;
  const std::size_t n = local * groups;
  std::vector<cl_float> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<cl_float>(i);
  cl::Buffer in_buffer(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_float),
                       in.data());
  cl::Buffer out_buffer(context(), CL_MEM_WRITE_ONLY, n * sizeof(cl_float));
  ASSERT_EQ(kernel.setArg(0, out_buffer), CL_SUCCESS);
  ASSERT_EQ(kernel.setArg(1, in_buffer), CL_SUCCESS);
  ASSERT_EQ(kernel.setArg(2, cl::Local(local * sizeof(cl_float))), CL_SUCCESS);
  ASSERT_EQ(queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(local)),
            CL_SUCCESS);
  std::vector<cl_float> out(n);
  ASSERT_EQ(queue().enqueueReadBuffer(out_buffer, CL_TRUE, 0, n * sizeof(cl_float), out.data()),
            CL_SUCCESS);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t group_start = i - i % local;
    EXPECT_EQ(out[i], in[group_start + local - 1 - i % local]) << "at index " << i;
  }
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(ArgumentTypesKernel);

}  // namespace
