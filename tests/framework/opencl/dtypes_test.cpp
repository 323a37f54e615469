// Kernel argument types: scalars, OpenCL C vectors and registered structs, their names, sizes and
// every rejection (no driver needed; device sizes and kernels are in
// argument_types_kernel_test.cpp).
#include "polydev/opencl/dtypes.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "polydev/error.hpp"

namespace {

using polydev::opencl::DType;
using polydev::opencl::dtype_to_ctype;
using polydev::opencl::DTypeRegistry;
using polydev::opencl::ScalarType;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

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

// The vector components OpenCL C has, with the size the OpenCL C specification fixes for each
// ("Built-in Vector Data Types": char 8, short 16, int 32, long 64 bits; half 16, float 32,
// double 64 bits).
struct Component {
  ScalarType type;
  const char* name;
  std::size_t bytes;
};
const std::vector<Component> components{
    {ScalarType::int8, "char", 1},      {ScalarType::uint8, "uchar", 1},
    {ScalarType::int16, "short", 2},    {ScalarType::uint16, "ushort", 2},
    {ScalarType::int32, "int", 4},      {ScalarType::uint32, "uint", 4},
    {ScalarType::int64, "long", 8},     {ScalarType::uint64, "ulong", 8},
    {ScalarType::float16, "half", 2},   {ScalarType::float32, "float", 4},
    {ScalarType::float64, "double", 8},
};
// "Supported values of n are 2, 3, 4, 8, and 16 for all vector data types."
const std::vector<std::size_t> widths{2, 3, 4, 8, 16};

TEST(DType, ScalarsKeepTheirScalarProperties) {
  const DType f(ScalarType::float32);
  EXPECT_EQ(f.kind(), DType::Kind::scalar);
  EXPECT_EQ(f.scalar_type(), ScalarType::float32);
  EXPECT_EQ(f.count(), 1u);
  EXPECT_EQ(f.size(), 4u);
  EXPECT_EQ(f.alignment(), 4u);
  EXPECT_EQ(dtype_to_ctype(f), "float");
  EXPECT_EQ(dtype_to_ctype(ScalarType::uint8), "unsigned char");
  EXPECT_FALSE(f.needs_fp64());
  EXPECT_FALSE(f.needs_fp16());
  EXPECT_TRUE(DType(ScalarType::float64).needs_fp64());
  EXPECT_TRUE(DType(ScalarType::float16).needs_fp16());
  EXPECT_EQ(f.declaration(), "");
  EXPECT_TRUE(f.dependencies().empty());
  // cfloat_t / cdouble_t are a pair of their component type: aligned as one component.
  EXPECT_EQ(DType(ScalarType::complex64).size(), 8u);
  EXPECT_EQ(DType(ScalarType::complex64).alignment(), 4u);
  EXPECT_EQ(DType(ScalarType::complex128).alignment(), 8u);
  EXPECT_TRUE(DType(ScalarType::complex128).needs_fp64());
}

// "For 3-component vector data types, the size of the data type is 4 * sizeof(component)", and
// every built-in type is aligned to its size (OpenCL C, "Alignment of Types").
TEST(DType, EveryVectorOfEveryComponentHasOpenCLCNameSizeAndAlignment) {
  for (const Component& component : components) {
    for (std::size_t width : widths) {
      const DType vector = DType::vector(component.type, width);
      const std::string name = component.name + std::to_string(width);
      SCOPED_TRACE(name);
      EXPECT_EQ(vector.kind(), DType::Kind::vector);
      EXPECT_EQ(dtype_to_ctype(vector), name);
      EXPECT_EQ(vector.scalar_type(), component.type);
      EXPECT_EQ(vector.count(), width);
      const std::size_t stored = width == 3 ? 4 : width;
      EXPECT_EQ(vector.size(), component.bytes * stored);
      EXPECT_EQ(vector.alignment(), component.bytes * stored);
      EXPECT_EQ(vector.needs_fp64(), component.type == ScalarType::float64);
      EXPECT_EQ(vector.needs_fp16(), component.type == ScalarType::float16);
      EXPECT_NE(vector, DType(component.type));
      EXPECT_EQ(vector, DType::vector(component.type, width));
    }
  }
  EXPECT_NE(DType::vector(ScalarType::float32, 4), DType::vector(ScalarType::float32, 8));
  EXPECT_NE(DType::vector(ScalarType::float32, 4), DType::vector(ScalarType::int32, 4));
}

TEST(DType, VectorsOnlyHaveOpenCLCWidthsAndComponents) {
  for (std::size_t width : {0, 1, 5, 6, 7, 9, 15, 17, 32}) {
    expect_error([&] { DType::vector(ScalarType::float32, width); },
                 {"OpenCL C has no float" + std::to_string(width),
                  "vectors have 2, 3, 4, 8 or 16 components"});
  }
  expect_error([] { DType::vector(ScalarType::complex64, 4); },
               {"OpenCL C has no vectors of cfloat_t", "vector components are char, uchar"});
  expect_error([] { DType::vector(ScalarType::complex128, 2); }, {"no vectors of cdouble_t"});
}

TEST(DTypeRegistry, NamesEveryOpenCLCScalarSpelling) {
  const DTypeRegistry registry;
  const std::vector<std::pair<const char*, ScalarType>> spellings{
      {"char", ScalarType::int8},
      {"signed char", ScalarType::int8},
      {"unsigned char", ScalarType::uint8},
      {"uchar", ScalarType::uint8},
      {"short", ScalarType::int16},
      {"signed short int", ScalarType::int16},
      {"short signed int", ScalarType::int16},
      {"ushort", ScalarType::uint16},
      {"unsigned short", ScalarType::uint16},
      {"short unsigned int", ScalarType::uint16},
      {"int", ScalarType::int32},
      {"signed int", ScalarType::int32},
      {"signed", ScalarType::int32},
      {"uint", ScalarType::uint32},
      {"unsigned", ScalarType::uint32},
      {"unsigned int", ScalarType::uint32},
      {"long", ScalarType::int64},
      {"long int", ScalarType::int64},
      {"long signed int", ScalarType::int64},
      {"ulong", ScalarType::uint64},
      {"unsigned long", ScalarType::uint64},
      {"long unsigned int", ScalarType::uint64},
      {"half", ScalarType::float16},
      {"float", ScalarType::float32},
      {"double", ScalarType::float64},
      {"cfloat_t", ScalarType::complex64},
      {"cdouble_t", ScalarType::complex128},
  };
  for (const auto& [spelling, type] : spellings) {
    EXPECT_EQ(registry.get_or_register_dtype(spelling), DType(type)) << spelling;
  }
  EXPECT_EQ(registry.get_or_register_dtype("  unsigned \t int "), DType(ScalarType::uint32));
}

TEST(DTypeRegistry, NamesEveryVectorTypeAsOpenCLCDoes) {
  const DTypeRegistry registry;
  for (const Component& component : components) {
    for (std::size_t width : widths) {
      const std::string name = component.name + std::to_string(width);
      const DType dtype = registry.get_or_register_dtype(name);
      EXPECT_EQ(dtype, DType::vector(component.type, width)) << name;
      EXPECT_EQ(dtype_to_ctype(dtype), name);
    }
  }
  // In OpenCL C these are vectors, whatever NumPy means by the same names.
  EXPECT_EQ(registry.get_or_register_dtype("int8"), DType::vector(ScalarType::int32, 8));
  EXPECT_EQ(registry.get_or_register_dtype("uint16"), DType::vector(ScalarType::uint32, 16));
  EXPECT_EQ(registry.get_or_register_dtype("float16"), DType::vector(ScalarType::float32, 16));
}

TEST(DTypeRegistry, RefusesWhatOpenCLCForbidsAsKernelArguments) {
  const DTypeRegistry registry;
  expect_error([&] { registry.get_or_register_dtype("bool"); },
               {"'bool' cannot be a kernel argument in OpenCL C", "size is implementation-defined",
                "use char or uchar"});
  for (const char* name : {"size_t", "ptrdiff_t", "intptr_t", "uintptr_t"}) {
    expect_error([&] { registry.get_or_register_dtype(name); },
                 {"'" + std::string(name) + "' cannot be a kernel argument in OpenCL C",
                  "CL_DEVICE_ADDRESS_BITS"});
  }
}

TEST(DTypeRegistry, RefusesWidthsOpenCLCDoesNotHave) {
  const DTypeRegistry registry;
  expect_error([&] { registry.get_or_register_dtype("float5"); },
               {"'float5' is not an OpenCL C type", "2, 3, 4, 8 or 16 components"});
  expect_error([&] { registry.get_or_register_dtype("uchar1"); }, {"'uchar1' is not"});
  expect_error([&] { registry.get_or_register_dtype("int99999999999999999999"); },
               {"'int99999999999999999999' is not an OpenCL C type"});
  // NumPy names that OpenCL C does not have say what OpenCL C calls the type.
  expect_error([&] { registry.get_or_register_dtype("float32"); },
               {"'float32' is NumPy's name for the OpenCL C type 'float'"});
  expect_error([&] { registry.get_or_register_dtype("int64"); },
               {"'int64' is NumPy's name for the OpenCL C type 'long'"});
  expect_error([&] { registry.get_or_register_dtype("complex64"); },
               {"unknown argument type 'complex64'",
                "'complex64' is NumPy's name for the OpenCL C type 'cfloat_t'"});
}

TEST(DTypeRegistry, UnknownNamesSayHowToRegisterThem) {
  DTypeRegistry registry;
  expect_error([&] { registry.get_or_register_dtype("particle"); },
               {"unknown argument type 'particle'",
                "register it with get_or_register_dtype(\"particle\", size, alignment, "
                "declaration)",
                "char, uchar", "float4", "no struct types are registered"});
  registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; float b; } pair;");
  expect_error([&] { registry.get_or_register_dtype("particle"); },
               {"registered struct types: pair"});
  expect_error([&] { registry.get_or_register_dtype("struct pair"); },
               {"'struct pair'", "typedef name it is registered under ('pair')"});
  expect_error([&] { registry.get_or_register_dtype("union pair"); }, {"('pair')"});
  expect_error([&] { registry.get_or_register_dtype(" \t"); }, {"an empty argument type"});
}

TEST(DTypeRegistry, RegistersAStructAndFindsItByName) {
  DTypeRegistry registry;
  const std::string declaration = "typedef struct { int id; float value; } id_val;";
  const DType id_val = registry.get_or_register_dtype("id_val", 8, 4, declaration);
  EXPECT_EQ(id_val.kind(), DType::Kind::structure);
  EXPECT_EQ(dtype_to_ctype(id_val), "id_val");
  EXPECT_EQ(id_val.size(), 8u);
  EXPECT_EQ(id_val.alignment(), 4u);
  EXPECT_EQ(id_val.count(), 1u);
  EXPECT_EQ(id_val.declaration(), declaration);
  EXPECT_FALSE(id_val.needs_fp64());
  EXPECT_FALSE(id_val.needs_fp16());
  EXPECT_EQ(registry.get_or_register_dtype("id_val"), id_val);
  EXPECT_EQ(registry.get_or_register_dtype(" id_val "), id_val);
  expect_error([&] { id_val.scalar_type(); },
               {"the struct type 'id_val' has no single scalar type"});
  EXPECT_NE(id_val, DType(ScalarType::uint64));
  EXPECT_THAT(registry.registered_names(), ElementsAre("id_val"));
}

TEST(DTypeRegistry, RegisteringTheSameDefinitionAgainReturnsTheSameType) {
  DTypeRegistry registry;
  const DType first =
      registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; float b; } pair;");
  // Spacing and comments are not part of the definition.
  const DType again = registry.get_or_register_dtype(
      "pair", 8, 4, "typedef struct {\n  int a;  // first\n  float b; /* second */\n} pair;");
  EXPECT_EQ(first, again);
  EXPECT_EQ(first.declaration(), "typedef struct { int a; float b; } pair;");
  EXPECT_THAT(registry.registered_names(), ElementsAre("pair"));
}

TEST(DTypeRegistry, RefusesASecondDefinitionOfAName) {
  DTypeRegistry registry;
  registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; float b; } pair;");
  const std::vector<std::string> message{
      "get_or_register_dtype('pair')", "registered already with another definition",
      "size 8, alignment 4", "typedef struct { int a; float b; } pair;"};
  expect_error(
      [&] {
        registry.get_or_register_dtype("pair", 8, 4, "typedef struct { float b; int a; } pair;");
      },
      message);
  expect_error(
      [&] {
        registry.get_or_register_dtype("pair", 16, 8, "typedef struct { int a; float b; } pair;");
      },
      message);
  expect_error(
      [&] {
        registry.get_or_register_dtype("pair", 8, 8, "typedef struct { int a; float b; } pair;");
      },
      message);
  // Another registry has names of its own.
  DTypeRegistry other;
  const DType other_pair =
      other.get_or_register_dtype("pair", 16, 8, "typedef struct { long a; long b; } pair;");
  EXPECT_NE(other_pair, registry.get_or_register_dtype("pair"));
}

TEST(DTypeRegistry, TypesFromRegistriesWithTheSameDefinitionAreEqual) {
  DTypeRegistry one;
  DTypeRegistry two;
  EXPECT_EQ(one.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; float b; } pair;"),
            two.get_or_register_dtype("pair", 8, 4, "typedef struct {int a;float b;} pair;"));
}

TEST(DTypeRegistry, RefusesNamesThatAreNotStructNames) {
  DTypeRegistry registry;
  const std::string declaration = "typedef struct { int a; } x;";
  for (const char* name : {"", "2d", "a-b", "my pair"}) {
    expect_error([&] { registry.get_or_register_dtype(name, 4, 4, declaration); },
                 {"is not a C identifier", "typedef name"});
  }
  for (const char* name : {"int", "uint", "float4", "half", "cfloat_t", "size_t", "struct",
                           "image2d_t", "sampler_t", "__global", "bool2"}) {
    expect_error([&] { registry.get_or_register_dtype(name, 4, 4, declaration); },
                 {"'" + std::string(name) + "' is an OpenCL C keyword or built-in type"});
  }
  for (const char* name : {"float5", "int32", "uchar1"}) {
    expect_error([&] { registry.get_or_register_dtype(name, 4, 4, declaration); },
                 {"'" + std::string(name) + "' is spelled like an OpenCL C vector type"});
  }
  EXPECT_TRUE(registry.registered_names().empty());
}

TEST(DTypeRegistry, RefusesSizesNoCStructHas) {
  DTypeRegistry registry;
  const std::string declaration = "typedef struct { int a; float b; } pair;";
  expect_error([&] { registry.get_or_register_dtype("pair", 0, 4, declaration); },
               {"the size is 0", "sizeof"});
  for (std::size_t alignment : {0, 3, 6, 12}) {
    expect_error([&] { registry.get_or_register_dtype("pair", 24, alignment, declaration); },
                 {"the alignment " + std::to_string(alignment) + " is not a power of two"});
  }
  expect_error([&] { registry.get_or_register_dtype("pair", 6, 4, declaration); },
               {"the size 6 is not a multiple of the alignment 4"});
  EXPECT_TRUE(registry.registered_names().empty());
}

TEST(DTypeRegistry, RefusesDeclarationsThatCannotDefineAKernelArgument) {
  DTypeRegistry registry;
  expect_error([&] { registry.get_or_register_dtype("pair", 8, 4, ""); },
               {"the declaration does not mention 'pair'", "typedef struct"});
  expect_error(
      [&] { registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; } other;"); },
      {"the declaration does not mention 'pair'"});
  // A mention in a comment is no definition.
  expect_error(
      [&] {
        registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; } other; // pair");
      },
      {"does not mention 'pair'"});
  expect_error(
      [&] {
        registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; /* b */ } pair; /*");
      },
      {"get_or_register_dtype('pair')", "comment at offset 40 is not closed"});
  expect_error(
      [&] {
        registry.get_or_register_dtype("flagged", 8, 4,
                                       "typedef struct { int a; bool b; } flagged;");
      },
      {"get_or_register_dtype('flagged'): the declaration uses 'bool' cannot be a kernel "
       "argument in OpenCL C"});
  expect_error(
      [&] {
        registry.get_or_register_dtype("sized", 16, 8, "typedef struct { size_t n; } sized;");
      },
      {"'size_t' cannot be a kernel argument"});
  // A field merely named like a forbidden type is fine.
  EXPECT_NO_THROW(registry.get_or_register_dtype("counted", 4, 4,
                                                 "typedef struct { int size_t_count; } counted;"));
  EXPECT_THAT(registry.registered_names(), ElementsAre("counted"));
}

TEST(DTypeRegistry, StructsNeedWhatTheirFieldsNeed) {
  DTypeRegistry registry;
  const DType precise = registry.get_or_register_dtype(
      "precise", 16, 8, "typedef struct { double x; long n; } precise;");
  EXPECT_TRUE(precise.needs_fp64());
  EXPECT_FALSE(precise.needs_fp16());
  const DType packed =
      registry.get_or_register_dtype("packed", 8, 8, "typedef struct { half4 h; } packed;");
  EXPECT_TRUE(packed.needs_fp16());
  EXPECT_FALSE(packed.needs_fp64());
  EXPECT_TRUE(
      registry.get_or_register_dtype("halves", 4, 2, "typedef struct { half a, b; } halves;")
          .needs_fp16());
  EXPECT_TRUE(registry.get_or_register_dtype("wide", 32, 32, "typedef struct { double4 d; } wide;")
                  .needs_fp64());
}

TEST(DTypeRegistry, AStructNamingRegisteredStructsDependsOnThem) {
  DTypeRegistry registry;
  const DType precise =
      registry.get_or_register_dtype("precise", 8, 8, "typedef struct { double x; } precise;");
  const DType pair =
      registry.get_or_register_dtype("pair", 8, 4, "typedef struct { int a; float b; } pair;");
  const DType both = registry.get_or_register_dtype(
      "both", 24, 8, "typedef struct { pair p; precise q; pair r; } both;");
  EXPECT_THAT(both.dependencies(), ElementsAre(pair, precise));
  // A dependency's needs are the dependent's.
  EXPECT_TRUE(both.needs_fp64());
  EXPECT_TRUE(pair.dependencies().empty());
}

struct HostPair {
  std::int32_t a;
  float b;
};

TEST(DTypeRegistry, TheProcessRegistryTakesTheHostTypesLayout) {
  const DType pair = polydev::opencl::get_or_register_dtype<HostPair>(
      "dtypes_test_host_pair", "typedef struct { int a; float b; } dtypes_test_host_pair;");
  EXPECT_EQ(pair.size(), sizeof(HostPair));
  EXPECT_EQ(pair.alignment(), alignof(HostPair));
  EXPECT_EQ(polydev::opencl::get_or_register_dtype("dtypes_test_host_pair"), pair);
  EXPECT_EQ(polydev::opencl::type_registry().get_or_register_dtype("dtypes_test_host_pair"), pair);
  EXPECT_EQ(polydev::opencl::get_or_register_dtype("float4"),
            DType::vector(ScalarType::float32, 4));
  expect_error([] { polydev::opencl::get_or_register_dtype("dtypes_test_never_registered"); },
               {"unknown argument type 'dtypes_test_never_registered'", "register it with"});
}

// Registration from many threads at once (ci/tsan.sh runs this binary under ThreadSanitizer):
// each name is stored once, every thread gets the same type, and lookups see it.
TEST(DTypeRegistry, RegistersFromManyThreadsAtOnce) {
  DTypeRegistry registry;
  constexpr int kThreads = 8;
  std::vector<std::vector<DType>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&registry, &seen, t] {
      for (int i = 0; i < 20; ++i) {
        const std::string name = "s" + std::to_string(i);
        seen[t].push_back(
            registry.get_or_register_dtype(name, 4, 4, "typedef struct { int v; } " + name + ";"));
        seen[t].push_back(registry.get_or_register_dtype(name));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(registry.registered_names().size(), 20u);
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t], seen[0]);
}

}  // namespace
