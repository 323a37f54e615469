#include "polydev/opencl/arguments.hpp"

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

const DType& dtype_of(const Argument& argument) {
  return std::visit([](const auto& arg) -> const DType& { return arg.dtype(); }, argument);
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
  for (const auto& argument : arguments) declare_struct(dtype_of(argument), declared, text);
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
    if (dtype_of(argument).needs_fp64()) return true;
  }
  return false;
}

bool needs_fp16(const std::vector<Argument>& arguments) {
  for (const auto& argument : arguments) {
    if (std::visit([](const auto& arg) { return arg.needs_fp16(); }, argument)) return true;
  }
  return false;
}

}  // namespace polydev::opencl
