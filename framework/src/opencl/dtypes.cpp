#include "polydev/opencl/dtypes.hpp"

#include <array>
#include <utility>

#include "dtype_struct.hpp"
#include "polydev/error.hpp"
#include "scalar_names.hpp"

namespace polydev::opencl {

namespace {

struct ScalarNames {
  ScalarType type;
  std::string_view dtype;
  std::string_view c_type;
  // The spelling vector types are made of ("uchar" in uchar4); empty where OpenCL C has none.
  std::string_view vector_element;
  std::size_t size;
};

constexpr std::array<ScalarNames, 13> scalar_table{{
    {ScalarType::int8, "int8", "char", "char", 1},
    {ScalarType::uint8, "uint8", "unsigned char", "uchar", 1},
    {ScalarType::int16, "int16", "short", "short", 2},
    {ScalarType::uint16, "uint16", "unsigned short", "ushort", 2},
    {ScalarType::int32, "int32", "int", "int", 4},
    {ScalarType::uint32, "uint32", "unsigned int", "uint", 4},
    {ScalarType::int64, "int64", "long", "long", 8},
    {ScalarType::uint64, "uint64", "unsigned long", "ulong", 8},
    {ScalarType::float16, "float16", "half", "half", 2},
    {ScalarType::float32, "float32", "float", "float", 4},
    {ScalarType::float64, "float64", "double", "double", 8},
    {ScalarType::complex64, "complex64", "cfloat_t", "", 8},
    {ScalarType::complex128, "complex128", "cdouble_t", "", 16},
}};

// The other OpenCL C spellings of the scalar types (C's, with and without "signed" and "int").
constexpr std::array<std::pair<std::string_view, ScalarType>, 24> c_spellings{{
    {"signed char", ScalarType::int8},
    {"uchar", ScalarType::uint8},
    {"signed short", ScalarType::int16},
    {"short int", ScalarType::int16},
    {"signed short int", ScalarType::int16},
    {"short signed int", ScalarType::int16},
    {"ushort", ScalarType::uint16},
    {"unsigned short int", ScalarType::uint16},
    {"short unsigned int", ScalarType::uint16},
    {"signed", ScalarType::int32},
    {"signed int", ScalarType::int32},
    {"uint", ScalarType::uint32},
    {"unsigned", ScalarType::uint32},
    {"long int", ScalarType::int64},
    {"signed long", ScalarType::int64},
    {"signed long int", ScalarType::int64},
    {"long signed int", ScalarType::int64},
    {"ulong", ScalarType::uint64},
    {"unsigned long int", ScalarType::uint64},
    {"long unsigned int", ScalarType::uint64},
    // Not OpenCL C: the names NumPy's C API gives the floating types, which parse_scalar_type
    // has always taken.
    {"float16_t", ScalarType::float16},
    {"float32_t", ScalarType::float32},
    {"float64_t", ScalarType::float64},
    {"half", ScalarType::float16},
}};

// The last four spellings are parse_scalar_type's only ("half" is in the table already).
constexpr std::size_t opencl_c_spelling_count = c_spellings.size() - 4;

const ScalarNames& names_of(ScalarType type) noexcept {
  return scalar_table[static_cast<std::size_t>(type)];
}

std::string accepted_type_names() {
  std::string list;
  for (const auto& entry : scalar_table) {
    list += std::string(list.empty() ? "" : ", ") + std::string(entry.dtype) + " (" +
            std::string(entry.c_type) + ")";
  }
  return list;
}

bool is_complex(ScalarType type) noexcept {
  return type == ScalarType::complex64 || type == ScalarType::complex128;
}

const std::string empty_declaration;

}  // namespace

std::optional<ScalarType> scalar_of_c_name(std::string_view c_name) {
  for (const auto& entry : scalar_table) {
    if (c_name == entry.c_type) return entry.type;
  }
  for (std::size_t i = 0; i < opencl_c_spelling_count; ++i) {
    if (c_name == c_spellings[i].first) return c_spellings[i].second;
  }
  return std::nullopt;
}

std::optional<ScalarType> scalar_of_dtype_name(std::string_view dtype_name) {
  for (const auto& entry : scalar_table) {
    if (dtype_name == entry.dtype) return entry.type;
  }
  return std::nullopt;
}

std::optional<ScalarType> scalar_of_vector_element(std::string_view element) {
  for (const auto& entry : scalar_table) {
    if (!entry.vector_element.empty() && element == entry.vector_element) return entry.type;
  }
  return std::nullopt;
}

std::string_view vector_element_name(ScalarType type) noexcept {
  return names_of(type).vector_element;
}

std::string opencl_c_scalar_names() {
  std::string list;
  for (const auto& entry : scalar_table) {
    const std::string_view name =
        entry.vector_element.empty() ? entry.c_type : entry.vector_element;
    list += std::string(list.empty() ? "" : ", ") + std::string(name);
  }
  return list;
}

std::string vector_element_names() {
  std::string list;
  for (const auto& entry : scalar_table) {
    if (entry.vector_element.empty()) continue;
    list += std::string(list.empty() ? "" : ", ") + std::string(entry.vector_element);
  }
  return list;
}

std::string_view dtype_name(ScalarType type) noexcept { return names_of(type).dtype; }

std::string_view c_type_name(ScalarType type) noexcept { return names_of(type).c_type; }

std::size_t size_of(ScalarType type) noexcept { return names_of(type).size; }

bool needs_fp64(ScalarType type) noexcept {
  return type == ScalarType::float64 || type == ScalarType::complex128;
}

ScalarType parse_scalar_type(std::string_view text) {
  if (const auto type = scalar_of_dtype_name(text)) return *type;
  if (const auto type = scalar_of_c_name(text)) return *type;
  for (const auto& [alias, type] : c_spellings) {
    if (text == alias) return type;
  }
  throw error("unknown argument type '" + std::string(text) +
              "'; known types (NumPy name, OpenCL C name): " + accepted_type_names());
}

DType::DType(ScalarType scalar) noexcept : kind_(Kind::scalar), scalar_(scalar), count_(1) {}

DType::DType(std::shared_ptr<const detail::StructDefinition> definition) noexcept
    : kind_(Kind::structure),
      scalar_(ScalarType::uint8),
      count_(1),
      struct_(std::move(definition)) {}

DType DType::vector(ScalarType component, std::size_t count) {
  if (is_complex(component)) {
    throw error("DType::vector: OpenCL C has no vectors of " + std::string(c_type_name(component)) +
                "; vector components are " + vector_element_names());
  }
  if (count != 2 && count != 3 && count != 4 && count != 8 && count != 16) {
    throw error("DType::vector: OpenCL C has no " + std::string(vector_element_name(component)) +
                std::to_string(count) + "; vectors have 2, 3, 4, 8 or 16 components");
  }
  DType dtype(component);
  dtype.kind_ = Kind::vector;
  dtype.count_ = count;
  return dtype;
}

ScalarType DType::scalar_type() const {
  if (kind_ == Kind::structure) {
    throw error("DType::scalar_type: the struct type '" + struct_->name +
                "' has no single scalar type; look at its declaration() instead");
  }
  return scalar_;
}

std::size_t DType::size() const noexcept {
  switch (kind_) {
    case Kind::scalar:
      return size_of(scalar_);
    case Kind::vector:
      return size_of(scalar_) * (count_ == 3 ? 4 : count_);
    case Kind::structure:
      return struct_->size;
  }
  return 0;
}

std::size_t DType::alignment() const noexcept {
  switch (kind_) {
    case Kind::scalar:
      // cfloat_t and cdouble_t are pairs of their component type.
      return is_complex(scalar_) ? size_of(scalar_) / 2 : size_of(scalar_);
    case Kind::vector:
      return size();
    case Kind::structure:
      return struct_->alignment;
  }
  return 0;
}

bool DType::needs_fp64() const noexcept {
  return kind_ == Kind::structure ? struct_->needs_fp64 : opencl::needs_fp64(scalar_);
}

bool DType::needs_fp16() const noexcept {
  return kind_ == Kind::structure ? struct_->needs_fp16 : scalar_ == ScalarType::float16;
}

const std::string& DType::declaration() const noexcept {
  return kind_ == Kind::structure ? struct_->declaration : empty_declaration;
}

std::vector<DType> DType::dependencies() const {
  std::vector<DType> result;
  if (kind_ != Kind::structure) return result;
  for (const auto& dependency : struct_->dependencies) result.push_back(DType(dependency));
  return result;
}

bool operator==(const DType& a, const DType& b) noexcept {
  if (a.kind_ != b.kind_) return false;
  if (a.kind_ != DType::Kind::structure) return a.scalar_ == b.scalar_ && a.count_ == b.count_;
  if (a.struct_ == b.struct_) return true;
  return a.struct_->name == b.struct_->name && a.struct_->size == b.struct_->size &&
         a.struct_->alignment == b.struct_->alignment && a.struct_->tokens == b.struct_->tokens;
}

std::string dtype_to_ctype(const DType& dtype) {
  switch (dtype.kind_) {
    case DType::Kind::scalar:
      return std::string(c_type_name(dtype.scalar_));
    case DType::Kind::vector:
      return std::string(vector_element_name(dtype.scalar_)) + std::to_string(dtype.count_);
    case DType::Kind::structure:
      return dtype.struct_->name;
  }
  return {};
}

}  // namespace polydev::opencl
