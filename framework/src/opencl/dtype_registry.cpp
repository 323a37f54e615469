#include <algorithm>
#include <sstream>

#include "dtype_struct.hpp"
#include "opencl_c_words.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/dtypes.hpp"
#include "scalar_names.hpp"

namespace polydev::opencl {

namespace {

// The text with every run of blanks made one space: "unsigned   int" is "unsigned int".
std::string normalized(std::string_view text) {
  std::istringstream stream{std::string(text)};
  std::string result;
  for (std::string word; stream >> word;) result += (result.empty() ? "" : " ") + word;
  return result;
}

struct VectorSpelling {
  ScalarType component;
  std::string_view width;  // the digits after the element name, whatever they are
};

// "float4" is float and "4"; "int32" is int and "32". Nothing when the text is not an element name
// followed by digits.
std::optional<VectorSpelling> split_vector_spelling(std::string_view text) {
  const std::size_t digits = text.find_first_of("0123456789");
  if (digits == std::string_view::npos || digits == 0) return std::nullopt;
  const std::string_view width = text.substr(digits);
  if (width.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  const auto component = scalar_of_vector_element(text.substr(0, digits));
  if (!component) return std::nullopt;
  return VectorSpelling{*component, width};
}

bool is_vector_width(std::string_view width) {
  return width == "2" || width == "3" || width == "4" || width == "8" || width == "16";
}

// The built-in type one word names ("double", "half4", "cdouble_t"), for a struct's fields.
std::optional<DType> builtin_type_of_word(std::string_view word) {
  if (const auto scalar = scalar_of_c_name(word)) return DType(*scalar);
  if (const auto vector = split_vector_spelling(word); vector && is_vector_width(vector->width)) {
    return DType::vector(vector->component, vector->width == "16" ? 16 : vector->width[0] - '0');
  }
  return std::nullopt;
}

// ", where NumPy's 'float32' is OpenCL C's 'float'" for a NumPy name, else nothing.
std::string numpy_hint(std::string_view text) {
  const auto scalar = scalar_of_dtype_name(text);
  if (!scalar) return {};
  return " ('" + std::string(text) + "' is NumPy's name for the OpenCL C type '" +
         std::string(c_type_name(*scalar)) + "')";
}

}  // namespace

DType DTypeRegistry::get_or_register_dtype(const std::string& name, std::size_t size,
                                           std::size_t alignment, const std::string& declaration) {
  const std::string what = "get_or_register_dtype('" + name + "')";
  if (!is_identifier(name)) {
    throw error(what + ": the name is not a C identifier (letters, digits and '_', not starting " +
                "with a digit); register a struct under its typedef name");
  }
  if (is_reserved_word(name) || scalar_of_c_name(name)) {
    throw error(what + ": '" + name +
                "' is an OpenCL C keyword or built-in type; only struct types are registered, "
                "under their typedef name");
  }
  if (split_vector_spelling(name)) {
    throw error(what + ": '" + name + "' is spelled like an OpenCL C vector type (" +
                "<component><count>), which the name would be read as; choose another name");
  }
  if (size == 0) {
    throw error(what + ": the size is 0; give the host struct's sizeof");
  }
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    throw error(what + ": the alignment " + std::to_string(alignment) +
                " is not a power of two; give the host struct's alignof");
  }
  if (size % alignment != 0) {
    throw error(what + ": the size " + std::to_string(size) +
                " is not a multiple of the alignment " + std::to_string(alignment) +
                ", as every C struct's is; give the host struct's " + "sizeof and alignof");
  }
  detail::StructDefinition definition;
  definition.name = name;
  definition.size = size;
  definition.alignment = alignment;
  definition.declaration = declaration;
  definition.tokens = c_tokens(declaration, what);
  if (std::find(definition.tokens.begin(), definition.tokens.end(), name) ==
      definition.tokens.end()) {
    throw error(what + ": the declaration does not mention '" + name +
                "'; give the OpenCL C text that defines it, e.g. 'typedef struct { int id; float "
                "value; } " +
                name + ";'");
  }
  for (const std::string& token : definition.tokens) {
    if (const auto reason = forbidden_argument_reason(token)) {
      throw error(what + ": the declaration uses " + *reason);
    }
    if (const auto builtin = builtin_type_of_word(token)) {
      definition.needs_fp64 = definition.needs_fp64 || builtin->needs_fp64();
      definition.needs_fp16 = definition.needs_fp16 || builtin->needs_fp16();
    }
  }

  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto existing = structs_.find(name); existing != structs_.end()) {
    const detail::StructDefinition& old = *existing->second;
    if (old.size == size && old.alignment == alignment && old.tokens == definition.tokens) {
      return DType(existing->second);
    }
    throw error(what + ": '" + name + "' is registered already with another definition (size " +
                std::to_string(old.size) + ", alignment " + std::to_string(old.alignment) +
                ", declaration '" + old.declaration + "'); a name has one definition, so give " +
                "the new type another name");
  }
  for (const std::string& token : definition.tokens) {
    if (token == name) continue;
    const auto dependency = structs_.find(token);
    if (dependency == structs_.end()) continue;
    if (std::find(definition.dependencies.begin(), definition.dependencies.end(),
                  dependency->second) != definition.dependencies.end()) {
      continue;
    }
    definition.dependencies.push_back(dependency->second);
    definition.needs_fp64 = definition.needs_fp64 || dependency->second->needs_fp64;
    definition.needs_fp16 = definition.needs_fp16 || dependency->second->needs_fp16;
  }
  auto stored = std::make_shared<const detail::StructDefinition>(std::move(definition));
  structs_.emplace(name, stored);
  return DType(std::move(stored));
}

DType DTypeRegistry::get_or_register_dtype(std::string_view c_name) const {
  const std::string text = normalized(c_name);
  if (text.empty()) {
    throw error("an empty argument type; expected an OpenCL C type such as 'float' or 'float4'");
  }
  if (const auto reason = forbidden_argument_reason(text)) throw error(*reason);
  if (const auto scalar = scalar_of_c_name(text)) return *scalar;
  if (const auto vector = split_vector_spelling(text)) {
    if (is_vector_width(vector->width)) {
      return DType::vector(vector->component, vector->width == "16" ? 16 : vector->width[0] - '0');
    }
    throw error("'" + text + "' is not an OpenCL C type: vectors have 2, 3, 4, 8 or 16 components" +
                numpy_hint(text));
  }
  std::vector<std::string> registered;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto found = structs_.find(text); found != structs_.end()) {
      return DType(found->second);
    }
    for (const auto& entry : structs_) registered.push_back(entry.first);
  }
  if (text.rfind("struct ", 0) == 0 || text.rfind("union ", 0) == 0) {
    const std::string bare = text.substr(text.find(' ') + 1);
    throw error("argument type '" + text + "': name a struct by the typedef name it is " +
                "registered under ('" + bare + "'), as get_or_register_dtype registers it");
  }
  std::string known_structs = "no struct types are registered";
  if (!registered.empty()) {
    known_structs = "registered struct types: ";
    for (std::size_t i = 0; i < registered.size(); ++i) {
      known_structs += (i == 0 ? "" : ", ") + registered[i];
    }
  }
  throw error("unknown argument type '" + text + "'" + numpy_hint(text) +
              "; register it with get_or_register_dtype(\"" + text +
              "\", size, alignment, declaration), or use an OpenCL C type (" +
              opencl_c_scalar_names() + ", or a vector of 2, 3, 4, 8 or 16 of them: float4, " +
              "uchar16, ...); " + known_structs);
}

std::vector<std::string> DTypeRegistry::registered_names() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& entry : structs_) names.push_back(entry.first);
  return names;
}

DTypeRegistry& type_registry() {
  static DTypeRegistry registry;
  return registry;
}

DType get_or_register_dtype(const std::string& name, std::size_t size, std::size_t alignment,
                            const std::string& declaration) {
  return type_registry().get_or_register_dtype(name, size, alignment, declaration);
}

DType get_or_register_dtype(std::string_view c_name) {
  return type_registry().get_or_register_dtype(c_name);
}

}  // namespace polydev::opencl
