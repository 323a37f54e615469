// Kernel argument descriptors: declarations, parsing, and every rejection (no driver needed; the
// generated kernels run on devices in arguments_kernel_test.cpp and
// argument_types_kernel_test.cpp).
#include "polydev/opencl/arguments.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <climits>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "polydev/error.hpp"

namespace {

using polydev::opencl::Argument;
using polydev::opencl::DType;
using polydev::opencl::DTypeRegistry;
using polydev::opencl::OtherArg;
using polydev::opencl::ScalarArg;
using polydev::opencl::ScalarType;
using polydev::opencl::VectorArg;
using ::testing::HasSubstr;

TEST(VectorArg, DeclaresAGlobalPointer) {
  EXPECT_EQ(VectorArg(ScalarType::float32, "x").declarator(), "__global float *x");
  EXPECT_EQ(VectorArg(ScalarType::uint8, "bytes").declarator(), "__global unsigned char *bytes");
  EXPECT_EQ(VectorArg(ScalarType::complex128, "z").declarator(), "__global cdouble_t *z");
}

TEST(VectorArg, WithOffsetDeclaresBaseAndByteOffset) {
  EXPECT_EQ(VectorArg(ScalarType::float64, "y", true).declarator(),
            "__global double *y__base, long y__offset");
}

TEST(ScalarArg, DeclaresAValue) {
  EXPECT_EQ(ScalarArg(ScalarType::int64, "n").declarator(), "long n");
  EXPECT_EQ(ScalarArg(ScalarType::uint32, "count").declarator(), "unsigned int count");
  EXPECT_EQ(ScalarArg(ScalarType::float16, "h").declarator(), "half h");
}

// The names and sizes each ScalarType should have, derived from the C++ type of the same
// representation rather than copied from the table under test: NumPy names a type by its kind and
// bit width (numpy.org/doc/stable/user/basics.types.html); OpenCL C fixes the width of each
// built-in scalar type (OpenCL C specification, "Built-in Scalar Data Types"): char 8, short 16,
// int 32, long 64 bits, half 16, float 32, double 64; PyOpenCL's complex types are cfloat_t and
// cdouble_t (documentation.tiker.net/pyopencl/array.html, "Complex Numbers").
struct Row {
  ScalarType type;
  std::string dtype;
  std::string c_type;
  std::size_t size;
};

std::string opencl_c_integer(int bits) {
  switch (bits) {
    case 8:
      return "char";
    case 16:
      return "short";
    case 32:
      return "int";
    case 64:
      return "long";
  }
  ADD_FAILURE() << "OpenCL C has no " << bits << "-bit integer type";
  return {};
}

std::string opencl_c_floating(int bits) {
  switch (bits) {
    case 16:
      return "half";
    case 32:
      return "float";
    case 64:
      return "double";
  }
  ADD_FAILURE() << "OpenCL C has no " << bits << "-bit floating type";
  return {};
}

template <typename T>
Row integer(ScalarType type) {
  static_assert(std::numeric_limits<T>::is_integer);
  constexpr bool is_signed = std::numeric_limits<T>::is_signed;
  // Value bits plus the sign bit: the width, without assuming it from sizeof.
  constexpr int bits = std::numeric_limits<T>::digits + (is_signed ? 1 : 0);
  static_assert(static_cast<std::size_t>(bits) == CHAR_BIT * sizeof(T), "a type with padding bits");
  return {type, (is_signed ? "int" : "uint") + std::to_string(bits),
          (is_signed ? "" : "unsigned ") + opencl_c_integer(bits), sizeof(T)};
}

// An IEEE 754 type of `Storage`'s size: binary16 (half, stored in 16 bits), binary32, binary64.
template <typename Storage>
Row floating(ScalarType type) {
  constexpr int bits = static_cast<int>(CHAR_BIT * sizeof(Storage));
  return {type, "float" + std::to_string(bits), opencl_c_floating(bits), sizeof(Storage)};
}

template <typename T>
Row complex(ScalarType type) {
  static_assert(std::numeric_limits<T>::is_iec559);
  constexpr int part_bits = static_cast<int>(CHAR_BIT * sizeof(T));
  return {type, "complex" + std::to_string(CHAR_BIT * sizeof(std::complex<T>)),
          "c" + opencl_c_floating(part_bits) + "_t", sizeof(std::complex<T>)};
}

TEST(ScalarTypes, NamesAndSizesMatchNumPyAndOpenCLC) {
  static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559);
  const std::vector<Row> rows{
      integer<std::int8_t>(ScalarType::int8),       integer<std::uint8_t>(ScalarType::uint8),
      integer<std::int16_t>(ScalarType::int16),     integer<std::uint16_t>(ScalarType::uint16),
      integer<std::int32_t>(ScalarType::int32),     integer<std::uint32_t>(ScalarType::uint32),
      integer<std::int64_t>(ScalarType::int64),     integer<std::uint64_t>(ScalarType::uint64),
      floating<std::uint16_t>(ScalarType::float16), floating<float>(ScalarType::float32),
      floating<double>(ScalarType::float64),        complex<float>(ScalarType::complex64),
      complex<double>(ScalarType::complex128),
  };
  for (const Row& row : rows) {
    EXPECT_EQ(polydev::opencl::dtype_name(row.type), row.dtype);
    EXPECT_EQ(polydev::opencl::c_type_name(row.type), row.c_type);
    EXPECT_EQ(polydev::opencl::size_of(row.type), row.size) << row.dtype;
    EXPECT_EQ(polydev::opencl::parse_scalar_type(row.dtype), row.type);
    EXPECT_EQ(polydev::opencl::parse_scalar_type(row.c_type), row.type);
  }
  EXPECT_EQ(polydev::opencl::parse_scalar_type("uint"), ScalarType::uint32);
  EXPECT_EQ(polydev::opencl::parse_scalar_type("ulong"), ScalarType::uint64);
  EXPECT_EQ(polydev::opencl::parse_scalar_type("uchar"), ScalarType::uint8);
}

TEST(ScalarTypes, UnknownNameListsTheKnownOnes) {
  try {
    polydev::opencl::parse_scalar_type("float128");
    FAIL() << "expected an error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("unknown argument type 'float128'"));
    EXPECT_THAT(failure.what(), HasSubstr("float32 (float)"));
  }
}

TEST(ArgumentNames, MustBeCIdentifiers) {
  for (const char* bad : {"", "2x", "a-b", "x y", "a*"}) {
    EXPECT_THROW(VectorArg(ScalarType::float32, bad), polydev::error) << bad;
    EXPECT_THROW(ScalarArg(ScalarType::float32, bad), polydev::error) << bad;
  }
  try {
    ScalarArg(ScalarType::int32, "1n");
    FAIL() << "expected an error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("'1n' is not a C identifier"));
  }
}

TEST(ParameterList, JoinsDeclaratorsInOrder) {
  const std::vector<Argument> arguments{VectorArg(ScalarType::float32, "y", true),
                                        VectorArg(ScalarType::float32, "x"),
                                        ScalarArg(ScalarType::float32, "a")};
  EXPECT_EQ(polydev::opencl::parameter_list(arguments),
            "__global float *y__base, long y__offset, __global float *x, float a");
  EXPECT_EQ(polydev::opencl::kernel_argument_count(arguments), 4u);
  EXPECT_FALSE(polydev::opencl::needs_fp64(arguments));
  EXPECT_EQ(polydev::opencl::parameter_list({}), "");
}

TEST(ParameterList, RejectsDuplicateNames) {
  EXPECT_THROW(polydev::opencl::parameter_list(
                   {ScalarArg(ScalarType::int32, "n"), VectorArg(ScalarType::int32, "n")}),
               polydev::error);
  try {
    polydev::opencl::parameter_list(
        {VectorArg(ScalarType::float32, "x", true), ScalarArg(ScalarType::int64, "x__offset")});
    FAIL() << "expected an error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("'x__offset' is used twice"));
  }
}

TEST(OffsetAdjuster, DeclaresThePointerFromBaseAndOffset) {
  const std::vector<Argument> arguments{VectorArg(ScalarType::float32, "y", true),
                                        VectorArg(ScalarType::int32, "x"),
                                        VectorArg(ScalarType::float64, "z", true)};
  EXPECT_EQ(polydev::opencl::offset_adjuster_code(arguments),
            "__global float *y = (__global float *) ((__global char *) y__base + y__offset);\n"
            "__global double *z = (__global double *) ((__global char *) z__base + z__offset);\n");
  EXPECT_TRUE(polydev::opencl::needs_fp64(arguments));
  EXPECT_EQ(polydev::opencl::offset_adjuster_code({VectorArg(ScalarType::int32, "x")}), "");
}

TEST(ParseCArg, ReadsPointersAndScalars) {
  using polydev::opencl::parse_c_arg;
  EXPECT_EQ(parse_c_arg("__global float *x"), Argument(VectorArg(ScalarType::float32, "x")));
  EXPECT_EQ(parse_c_arg("float* x"), Argument(VectorArg(ScalarType::float32, "x")));
  EXPECT_EQ(parse_c_arg("  global const unsigned int *restrict idx "),
            Argument(VectorArg(ScalarType::uint32, "idx")));
  EXPECT_EQ(parse_c_arg("__global double *y", true),
            Argument(VectorArg(ScalarType::float64, "y", true)));
  EXPECT_EQ(parse_c_arg("const int n"), Argument(ScalarArg(ScalarType::int32, "n")));
  EXPECT_EQ(parse_c_arg("unsigned char c", true), Argument(ScalarArg(ScalarType::uint8, "c")));
  EXPECT_EQ(parse_c_arg("ulong count"), Argument(ScalarArg(ScalarType::uint64, "count")));
}

TEST(ParseCArg, RejectsWhatCannotBeDescribed) {
  struct Case {
    const char* text;
    const char* message;
  };
  const std::vector<Case> cases{
      {"__local float *scratch",
       "__local arguments cannot be described by a declaration; only __global pointers and "
       "scalars can. Make it an OtherArg(\"__local float *scratch\", \"scratch\")"},
      {"__constant float *table", "__constant arguments cannot be described"},
      {"float **x", "pointers to pointers"},
      {"float", "has no name (got 'float')"},
      {"", "is empty"},
      {"float *", "has no name"},
      {"__global float x", "__global needs a pointer"},
      {"bogus_t x", "unknown argument type 'bogus_t'"},
      {"float * int x", "unexpected 'int' after '*'"},
      {"const x", "'const x' has no type"},
      {"__global * x", "has no type"},
  };
  for (const Case& c : cases) {
    try {
      polydev::opencl::parse_c_arg(c.text);
      ADD_FAILURE() << "accepted '" << c.text << "'";
    } catch (const polydev::error& failure) {
      EXPECT_THAT(failure.what(), HasSubstr(c.message)) << c.text;
    }
  }
}

// Found by tests/fuzz/fuzz_kernel_args: the last word was taken as the name even when it was a
// keyword, so "global const unsigned int *restrict" became a pointer named "restrict" and
// "unsigned int" a parameter named "int" (declared as "unsigned int int", which does not compile).
TEST(ParseCArg, KeywordsAreNotNames) {
  struct Case {
    const char* text;
    const char* message;
  };
  const std::vector<Case> cases{
      {"global const unsigned int *restrict", "has no name (got 'restrict')"},
      {"unsigned int", "has no name (got 'int')"},
      {"float *const", "has no name (got 'const')"},
      {"int float4", "has no name (got 'float4')"},
      {"uint __global", "has no name (got '__global')"},
  };
  for (const Case& c : cases) {
    try {
      polydev::opencl::parse_c_arg(c.text);
      ADD_FAILURE() << "accepted '" << c.text << "'";
    } catch (const polydev::error& failure) {
      EXPECT_THAT(failure.what(), HasSubstr(c.message)) << c.text;
    }
  }
  EXPECT_EQ(polydev::opencl::parse_c_arg("int integer"),
            Argument(ScalarArg(ScalarType::int32, "integer")));
  EXPECT_EQ(polydev::opencl::parse_c_arg("float *float5"),
            Argument(VectorArg(ScalarType::float32, "float5")));
}

TEST(ArgumentNames, KeywordsAndTypeNamesAreRejected) {
  for (const char* reserved : {"int", "restrict", "__global", "kernel", "uint", "double16"}) {
    EXPECT_THROW(ScalarArg(ScalarType::int32, reserved), polydev::error) << reserved;
    EXPECT_THROW(VectorArg(ScalarType::int32, reserved), polydev::error) << reserved;
  }
  try {
    VectorArg(ScalarType::float32, "float4");
    FAIL() << "expected an error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("'float4' is an OpenCL C keyword or type name"));
  }
}

TEST(ParseArgList, SplitsOnCommasAndSkipsEmptyPieces) {
  const auto arguments =
      polydev::opencl::parse_arg_list("__global float *y, float a, __global const float *x,", true);
  ASSERT_EQ(arguments.size(), 3u);
  EXPECT_EQ(arguments[0], Argument(VectorArg(ScalarType::float32, "y", true)));
  EXPECT_EQ(arguments[1], Argument(ScalarArg(ScalarType::float32, "a")));
  EXPECT_EQ(arguments[2], Argument(VectorArg(ScalarType::float32, "x", true)));
  EXPECT_TRUE(polydev::opencl::parse_arg_list(" , ").empty());
}

// Expects `action` to throw polydev::error whose message contains every one of `parts`.
template <typename Action>
void expect_error(Action&& action, const std::vector<std::string>& parts) {
  try {
    action();
    ADD_FAILURE() << "expected a polydev::error containing '" << parts.front() << "'";
  } catch (const polydev::error& failure) {
    for (const std::string& part : parts) EXPECT_THAT(failure.what(), HasSubstr(part));
  }
}

TEST(VectorArg, DeclaresPointersToVectorsAndStructs) {
  DTypeRegistry registry;
  const DType pair =
      registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; float b; } pair;");
  EXPECT_EQ(VectorArg(DType::vector(ScalarType::float32, 4), "v").declarator(),
            "__global float4 *v");
  EXPECT_EQ(VectorArg(DType::vector(ScalarType::uint8, 16), "bytes", true).declarator(),
            "__global uchar16 *bytes__base, long bytes__offset");
  EXPECT_EQ(VectorArg(pair, "pairs").declarator(), "__global pair *pairs");
  EXPECT_EQ(ScalarArg(DType::vector(ScalarType::int32, 2), "offset").declarator(), "int2 offset");
  EXPECT_EQ(ScalarArg(pair, "p").declarator(), "pair p");
  EXPECT_EQ(polydev::opencl::offset_adjuster_code(
                {VectorArg(DType::vector(ScalarType::float64, 3), "w", true)}),
            "__global double3 *w = (__global double3 *) ((__global char *) w__base + "
            "w__offset);\n");
}

// OpenCL C: "The half data type can only be used to declare a pointer to a buffer that contains
// half values"; half values and every halfN need cl_khr_fp16.
TEST(HalfArguments, OnlyAPointerToPlainHalfNeedsNoExtension) {
  DTypeRegistry registry;
  const DType halves =
      registry.get_or_register_dtype("halves", 4, 2, "typedef struct { half a, b; } halves;");
  const DType half4 = DType::vector(ScalarType::float16, 4);
  EXPECT_FALSE(VectorArg(ScalarType::float16, "h").needs_fp16());
  EXPECT_TRUE(VectorArg(half4, "h").needs_fp16());
  EXPECT_TRUE(VectorArg(halves, "h").needs_fp16());
  EXPECT_TRUE(ScalarArg(ScalarType::float16, "h").needs_fp16());
  EXPECT_TRUE(ScalarArg(half4, "h").needs_fp16());
  EXPECT_FALSE(ScalarArg(ScalarType::float32, "f").needs_fp16());
  EXPECT_FALSE(polydev::opencl::needs_fp16({VectorArg(ScalarType::float16, "h")}));
  EXPECT_TRUE(polydev::opencl::needs_fp16(
      {VectorArg(ScalarType::float16, "h"), ScalarArg(ScalarType::float16, "scale")}));
  EXPECT_EQ(polydev::opencl::type_declarations({VectorArg(ScalarType::float16, "h")}), "");
  EXPECT_EQ(polydev::opencl::type_declarations({ScalarArg(half4, "h")}),
            "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
}

TEST(TypeDeclarations, DeclareEachStructOnceAfterWhatItNames) {
  DTypeRegistry registry;
  const DType pair =
      registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; float b; } pair;");
  const DType precise =
      registry.get_or_register_dtype("precise", 8, 8, "typedef struct { double x; } precise;");
  const DType both =
      registry.get_or_register_dtype("both", 24, 8, "typedef struct { pair p; precise q; } both;");
  const std::vector<Argument> arguments{VectorArg(both, "out"), ScalarArg(pair, "p"),
                                        VectorArg(pair, "in"), ScalarArg(ScalarType::int32, "n")};
  EXPECT_TRUE(polydev::opencl::needs_fp64(arguments));
  EXPECT_FALSE(polydev::opencl::needs_fp16(arguments));
  EXPECT_EQ(polydev::opencl::type_declarations(arguments),
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
            "typedef struct { int a; float b; } pair;\n"
            "typedef struct { double x; } precise;\n"
            "typedef struct { pair p; precise q; } both;\n");
  EXPECT_EQ(polydev::opencl::type_declarations({ScalarArg(pair, "p"), VectorArg(pair, "q")}),
            "typedef struct { int a; float b; } pair;\n");
  EXPECT_EQ(
      polydev::opencl::type_declarations({VectorArg(ScalarType::float32, "x"),
                                          ScalarArg(DType::vector(ScalarType::int32, 4), "k")}),
      "");
  EXPECT_EQ(
      polydev::opencl::type_declarations({VectorArg(DType::vector(ScalarType::float64, 2), "x"),
                                          ScalarArg(DType::vector(ScalarType::float16, 2), "k")}),
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
}

TEST(ParseCArg, ReadsVectorTypes) {
  using polydev::opencl::parse_c_arg;
  EXPECT_EQ(parse_c_arg("__global float4 *v"),
            Argument(VectorArg(DType::vector(ScalarType::float32, 4), "v")));
  EXPECT_EQ(parse_c_arg("__global const uchar16 *restrict bytes", true),
            Argument(VectorArg(DType::vector(ScalarType::uint8, 16), "bytes", true)));
  EXPECT_EQ(parse_c_arg("int2 offset"),
            Argument(ScalarArg(DType::vector(ScalarType::int32, 2), "offset")));
  EXPECT_EQ(parse_c_arg("const double3 w"),
            Argument(ScalarArg(DType::vector(ScalarType::float64, 3), "w")));
  EXPECT_EQ(parse_c_arg("__global half8 *h"),
            Argument(VectorArg(DType::vector(ScalarType::float16, 8), "h")));
  // OpenCL C's int8 is eight ints, not NumPy's int8 (which OpenCL C calls char).
  EXPECT_EQ(parse_c_arg("__global int8 *x"),
            Argument(VectorArg(DType::vector(ScalarType::int32, 8), "x")));
  EXPECT_EQ(polydev::opencl::declarator(parse_c_arg("__global int8 *x")), "__global int8 *x");
}

TEST(ParseCArg, ReadsRegisteredStructsFromTheRegistryGiven) {
  DTypeRegistry registry;
  const DType pair =
      registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; float b; } pair;");
  using polydev::opencl::parse_c_arg;
  EXPECT_EQ(parse_c_arg("__global const pair *pairs", false, registry),
            Argument(VectorArg(pair, "pairs")));
  EXPECT_EQ(parse_c_arg("pair p", true, registry), Argument(ScalarArg(pair, "p")));
  // The process registry does not hold this registry's structs.
  expect_error([] { parse_c_arg("pair p"); },
               {"kernel argument 'pair p': unknown argument type 'pair'", "register it with"});
  const auto arguments =
      polydev::opencl::parse_arg_list("__global pair *out, pair p, uint n", true, registry);
  ASSERT_EQ(arguments.size(), 3u);
  EXPECT_EQ(arguments[0], Argument(VectorArg(pair, "out", true)));
  EXPECT_EQ(polydev::opencl::parameter_list(arguments),
            "__global pair *out__base, long out__offset, pair p, unsigned int n");
}

TEST(ParseCArg, RefusesTypesOpenCLCForbidsAsKernelArguments) {
  for (const char* type : {"bool", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"}) {
    for (const std::string& text :
         {std::string(type) + " x", "__global " + std::string(type) + " *x",
          "const " + std::string(type) + " x"}) {
      expect_error([&] { polydev::opencl::parse_c_arg(text); },
                   {"kernel argument '" + text + "': '" + type +
                    "' cannot be a kernel argument in OpenCL C"});
    }
  }
  expect_error([] { polydev::opencl::parse_c_arg("bool flag"); },
               {"'bool' cannot be a kernel argument in OpenCL C", "use char or uchar"});
  expect_error([] { polydev::opencl::parse_c_arg("__global size_t *sizes"); },
               {"CL_DEVICE_ADDRESS_BITS", "use uint or ulong"});
  expect_error([] { polydev::opencl::parse_c_arg("__global float4 **v"); },
               {"pointers to pointers", "OpenCL C 1.2 and earlier forbid them"});
}

TEST(ParseCArg, TypeNamesAreOpenCLCs) {
  expect_error([] { polydev::opencl::parse_c_arg("float32 x"); },
               {"kernel argument 'float32 x'",
                "'float32' is NumPy's name for the OpenCL C "
                "type 'float'"});
  expect_error([] { polydev::opencl::parse_c_arg("__global float5 *x"); },
               {"'float5' is not an OpenCL C type", "2, 3, 4, 8 or 16 components"});
  expect_error([] { polydev::opencl::parse_c_arg("unsigned int4 x"); },
               {"unknown argument type 'unsigned int4'"});
  expect_error([] { polydev::opencl::parse_c_arg("struct pair p"); },
               {"typedef name it is registered under ('pair')"});
  expect_error([] { polydev::opencl::parse_c_arg("__global void *p"); },
               {"unknown argument type 'void'"});
}

TEST(OtherArg, DeclaresItsTextAsGiven) {
  EXPECT_EQ(OtherArg("__local float *scratch", "scratch").declarator(), "__local float *scratch");
  EXPECT_EQ(OtherArg("image2d_t img", "img").declarator(), "image2d_t img");
  EXPECT_EQ(OtherArg("sampler_t s", "s").name(), "s");
  EXPECT_EQ(OtherArg("sampler_t s", "s"), OtherArg("sampler_t s", "s"));
  EXPECT_FALSE(OtherArg("sampler_t s", "s") == OtherArg("const sampler_t s", "s"));
  EXPECT_EQ(polydev::opencl::declarator(Argument(OtherArg("read_only image2d_t img", "img"))),
            "read_only image2d_t img");
}

TEST(OtherArg, JoinsListsAsOneKernelArgumentWithNoTypeOfItsOwn) {
  const std::vector<Argument> arguments{VectorArg(ScalarType::float64, "x", true),
                                        OtherArg("__local half *scratch", "scratch"),
                                        ScalarArg(ScalarType::int32, "n")};
  EXPECT_EQ(polydev::opencl::parameter_list(arguments),
            "__global double *x__base, long x__offset, __local half *scratch, int n");
  EXPECT_EQ(polydev::opencl::kernel_argument_count(arguments), 4u);
  EXPECT_EQ(polydev::opencl::offset_adjuster_code({OtherArg("__local float *s", "s")}), "");
  // Its text is not read: the half it names needs no pragma of polydev's, the double of x does.
  EXPECT_FALSE(polydev::opencl::needs_fp16(arguments));
  EXPECT_TRUE(polydev::opencl::needs_fp64(arguments));
  EXPECT_EQ(polydev::opencl::type_declarations({OtherArg("__local half *scratch", "scratch")}), "");
  EXPECT_EQ(polydev::opencl::type_declarations(arguments),
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
}

TEST(OtherArg, NamesAreCheckedWithTheOthers) {
  try {
    polydev::opencl::parameter_list(
        {VectorArg(ScalarType::float32, "scratch"), OtherArg("__local float *scratch", "scratch")});
    FAIL() << "expected an error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("'scratch' is used twice"));
  }
  EXPECT_THROW(polydev::opencl::parameter_list({VectorArg(ScalarType::float32, "x", true),
                                                OtherArg("__local float *x__base", "x__base")}),
               polydev::error);
}

TEST(OtherArg, RejectsBadNamesAndDeclarators) {
  expect_error([] { OtherArg("__local float *2x", "2x"); },
               {"OtherArg", "'2x' is not a C identifier"});
  expect_error([] { OtherArg("sampler_t sampler_t", "sampler_t"); },
               {"OtherArg", "'sampler_t' is an OpenCL C keyword or type name"});
  expect_error([] { OtherArg(" \t", "s"); },
               {"OtherArg 's': the declarator is blank", "'__local float *s'"});
  expect_error([] { OtherArg("__local float *a, __local float *b", "a"); },
               {"holds a ',' or ';'", "declares one argument"});
  expect_error([] { OtherArg("__local float *scratch;", "scratch"); }, {"holds a ',' or ';'"});
  expect_error([] { OtherArg("__local float *scratch2", "scratch"); },
               {"does not declare the name 'scratch'"});
}

TEST(ParseArgList, TakesOtherArgsBesideDeclarations) {
  const auto arguments = polydev::opencl::parse_arg_list(
      {std::string("__global float *y"), OtherArg("__local float *scratch", "scratch"),
       std::string(" "), ScalarArg(ScalarType::uint32, "n"), std::string("float a")},
      true);
  ASSERT_EQ(arguments.size(), 4u);
  EXPECT_EQ(arguments[0], Argument(VectorArg(ScalarType::float32, "y", true)));
  EXPECT_EQ(arguments[1], Argument(OtherArg("__local float *scratch", "scratch")));
  EXPECT_EQ(arguments[2], Argument(ScalarArg(ScalarType::uint32, "n")));
  EXPECT_EQ(arguments[3], Argument(ScalarArg(ScalarType::float32, "a")));
  expect_error(
      [] {
        polydev::opencl::parse_arg_list(
            {std::string("__local float *scratch"), ScalarArg(ScalarType::uint32, "n")});
      },
      {"Make it an OtherArg("});
}

}  // namespace
