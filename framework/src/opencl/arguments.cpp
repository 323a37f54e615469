#include "polydev/opencl/arguments.hpp"

#include <cctype>
#include <set>
#include <utility>

#include "opencl_c_words.hpp"
#include "polydev/error.hpp"

namespace polydev::opencl {

namespace {

std::string checked_name(std::string name, const char* kind) {
  if (!is_identifier(name)) {
    throw error(std::string(kind) + ": argument name '" + name +
                "' is not a C identifier (letters, digits and '_', not starting with a digit)");
  }
  if (is_reserved_word(name)) {
    throw error(std::string(kind) + ": argument name '" + name +
                "' is an OpenCL C keyword or type name; choose another name");
  }
  return name;
}

// The registered type an argument declares; none for an OtherArg, whose text names no DType.
const DType* dtype_of(const Argument& argument) {
  if (const auto* vector = std::get_if<VectorArg>(&argument)) return &vector->dtype();
  if (const auto* scalar = std::get_if<ScalarArg>(&argument)) return &scalar->dtype();
  return nullptr;
}

// Whether `word` occurs in `text` with no identifier character on either side.
bool contains_word(const std::string& text, const std::string& word) {
  const auto is_word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  };
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_word_char(text[at - 1]);
    const std::size_t end = at + word.size();
    if (starts && (end == text.size() || !is_word_char(text[end]))) return true;
  }
  return false;
}

// Appends the declarations of `dtype`'s struct dependencies, then its own, skipping what is there.
void declare_struct(const DType& dtype, std::vector<DType>& declared, std::string& text) {
  if (dtype.kind() != DType::Kind::structure) return;
  for (const DType& known : declared) {
    if (known == dtype) return;
  }
  for (const DType& dependency : dtype.dependencies()) declare_struct(dependency, declared, text);
  declared.push_back(dtype);
  text += dtype.declaration() + "\n";
}

}  // namespace

VectorArg::VectorArg(DType dtype, std::string name, bool with_offset)
    : dtype_(std::move(dtype)),
      name_(checked_name(std::move(name), "VectorArg")),
      with_offset_(with_offset) {}

std::string VectorArg::declarator() const {
  const std::string c_type = dtype_to_ctype(dtype_);
  if (with_offset_) {
    return "__global " + c_type + " *" + name_ + "__base, long " + name_ + "__offset";
  }
  return "__global " + c_type + " *" + name_;
}

bool VectorArg::needs_fp16() const noexcept {
  return dtype_.needs_fp16() && dtype_ != DType(ScalarType::float16);
}

ScalarArg::ScalarArg(DType dtype, std::string name)
    : dtype_(std::move(dtype)), name_(checked_name(std::move(name), "ScalarArg")) {}

std::string ScalarArg::declarator() const { return dtype_to_ctype(dtype_) + " " + name_; }

OtherArg::OtherArg(std::string declarator, std::string name)
    : declarator_(std::move(declarator)), name_(checked_name(std::move(name), "OtherArg")) {
  if (declarator_.find_first_not_of(" \t\n\r") == std::string::npos) {
    throw error("OtherArg '" + name_ +
                "': the declarator is blank; expected a declaration such as '__local float *" +
                name_ + "'");
  }
  if (declarator_.find_first_of(",;") != std::string::npos) {
    throw error("OtherArg '" + name_ + "': the declarator '" + declarator_ +
                "' holds a ',' or ';'; an OtherArg declares one argument");
  }
  if (!contains_word(declarator_, name_)) {
    throw error("OtherArg '" + name_ + "': the declarator '" + declarator_ +
                "' does not declare the name '" + name_ + "'; expected e.g. '__local float *" +
                name_ + "'");
  }
}

std::string declarator(const Argument& argument) {
  return std::visit([](const auto& arg) { return arg.declarator(); }, argument);
}

std::string parameter_list(const std::vector<Argument>& arguments) {
  std::set<std::string> names;
  auto claim = [&names](const std::string& name) {
    if (!names.insert(name).second) {
      throw error("kernel argument list: the name '" + name +
                  "' is used twice; every argument (and the '<name>__base' / '<name>__offset' "
                  "pair of an offset argument) needs its own name");
    }
  };
  std::string list;
  for (const auto& argument : arguments) {
    if (const auto* vector = std::get_if<VectorArg>(&argument); vector && vector->with_offset()) {
      claim(vector->name());
      claim(vector->name() + "__base");
      claim(vector->name() + "__offset");
    } else {
      claim(std::visit([](const auto& arg) { return arg.name(); }, argument));
    }
    list += (list.empty() ? "" : ", ") + declarator(argument);
  }
  return list;
}

std::string offset_adjuster_code(const std::vector<Argument>& arguments) {
  std::string code;
  for (const auto& argument : arguments) {
    const auto* vector = std::get_if<VectorArg>(&argument);
    if (!vector || !vector->with_offset()) continue;
    const std::string c_type = dtype_to_ctype(vector->dtype());
    const std::string& name = vector->name();
    code += "__global " + c_type + " *" + name + " = (__global " + c_type +
            " *) ((__global char *) " + name + "__base + " + name + "__offset);\n";
  }
  return code;
}

std::string type_declarations(const std::vector<Argument>& arguments) {
  std::string text;
  if (needs_fp64(arguments)) text += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  if (needs_fp16(arguments)) text += "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  std::vector<DType> declared;
  for (const auto& argument : arguments) {
    if (const DType* dtype = dtype_of(argument)) declare_struct(*dtype, declared, text);
  }
  return text;
}

std::size_t kernel_argument_count(const std::vector<Argument>& arguments) {
  std::size_t count = 0;
  for (const auto& argument : arguments) {
    const auto* vector = std::get_if<VectorArg>(&argument);
    count += (vector && vector->with_offset()) ? 2 : 1;
  }
  return count;
}

bool needs_fp64(const std::vector<Argument>& arguments) {
  for (const auto& argument : arguments) {
    const DType* dtype = dtype_of(argument);
    if (dtype && dtype->needs_fp64()) return true;
  }
  return false;
}

bool needs_fp16(const std::vector<Argument>& arguments) {
  for (const auto& argument : arguments) {
    if (const auto* vector = std::get_if<VectorArg>(&argument); vector && vector->needs_fp16()) {
      return true;
    }
    if (const auto* scalar = std::get_if<ScalarArg>(&argument); scalar && scalar->needs_fp16()) {
      return true;
    }
  }
  return false;
}

}  // namespace polydev::opencl
