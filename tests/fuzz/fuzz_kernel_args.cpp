// Kernel argument declarations: parse_arg_list / parse_c_arg / parse_scalar_type, the type
// registry's lookups and its registration of struct types.
//
// Input: one flags byte (bit 0: with_offset; bit 1: register the text as the declaration of a
// struct named fuzz_t first), then the declarations.
//
// Checked on every input: a result or a polydev::error with a message; one argument per non-blank
// ',' piece; every argument reads back from its own declaration (the generated declarations are
// what polydev compiles, so they must mean what was parsed); names are C identifiers and not
// OpenCL C keywords; offsets, argument counts and the offset adjuster agree; a type name that
// parses names a type whose NumPy and OpenCL C names parse back to it; a type the registry finds
// is found again by its OpenCL C name, and has a size that is a multiple of its power-of-two
// alignment; a registered struct is found by its name, registers again, and its declaration is
// what type_declarations emits for it.

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fuzz_support.hpp"
#include "polydev/opencl/arguments.hpp"

namespace {

using polydev::opencl::Argument;
using polydev::opencl::DType;
using polydev::opencl::DTypeRegistry;
using polydev::opencl::ScalarArg;
using polydev::opencl::ScalarType;
using polydev::opencl::VectorArg;
using polydev_fuzz::require;

std::size_t non_blank_pieces(std::string_view text) {
  std::size_t count = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(',', start);
    const std::string_view piece =
        text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    for (char c : piece) {
      if (!std::isspace(static_cast<unsigned char>(c))) {
        ++count;
        break;
      }
    }
    if (end == std::string_view::npos) return count;
    start = end + 1;
  }
}

bool is_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// Words the generated kernel would misread as part of the type or a qualifier.
bool is_reserved(const std::string& name) {
  for (const char* word :
       {"char",     "uchar",     "short",    "ushort", "int",      "uint",   "long",
        "ulong",    "float",     "double",   "half",   "unsigned", "signed", "const",
        "restrict", "volatile",  "__global", "global", "__local",  "local",  "__constant",
        "constant", "__private", "private",  "void",   "bool",     "struct"}) {
    if (name == word) return true;
  }
  return false;
}

// The same argument without an offset: its single declaration reads back to it.
Argument without_offset(const Argument& argument) {
  if (const auto* vector = std::get_if<VectorArg>(&argument)) {
    return VectorArg(vector->dtype(), vector->name());
  }
  return argument;
}

void check_arguments(const std::vector<Argument>& arguments, std::string_view text,
                     bool with_offset, const DTypeRegistry& registry) {
  require(arguments.size() == non_blank_pieces(text),
          "parse_arg_list gave " + std::to_string(arguments.size()) + " arguments for " +
              std::to_string(non_blank_pieces(text)) + " non-blank pieces");
  std::size_t offsets = 0;
  for (const Argument& argument : arguments) {
    const std::string name = std::visit([](const auto& arg) { return arg.name(); }, argument);
    require(is_identifier(name), "argument name '" + name + "' is not a C identifier");
    require(!is_reserved(name), "argument name '" + name + "' is an OpenCL C keyword");
    if (const auto* vector = std::get_if<VectorArg>(&argument)) {
      require(vector->with_offset() == with_offset, "with_offset was not given to a VectorArg");
      offsets += vector->with_offset() ? 1 : 0;
    }
    const Argument plain = without_offset(argument);
    const std::string declaration = polydev::opencl::declarator(plain);
    const auto again = polydev_fuzz::result_or_rejection<polydev::error>(
        [&] { return polydev::opencl::parse_c_arg(declaration, false, registry); }, "parse_c_arg");
    require(again && *again == plain,
            "the declaration '" + declaration + "' does not read back to the argument it declares");
  }
  require(polydev::opencl::kernel_argument_count(arguments) == arguments.size() + offsets,
          "kernel_argument_count does not count two arguments per offset argument");
  const std::string adjuster = polydev::opencl::offset_adjuster_code(arguments);
  std::size_t lines = 0;
  for (char c : adjuster) lines += c == '\n' ? 1 : 0;
  require(lines == offsets, "offset_adjuster_code must declare one pointer per offset argument");
  // Duplicate names are an error of the list, not of the parser.
  polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return polydev::opencl::parameter_list(arguments); }, "parameter_list");
}

void check_dtype(const DType& dtype, const DTypeRegistry& registry) {
  const std::string name = polydev::opencl::dtype_to_ctype(dtype);
  const auto again = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return registry.get_or_register_dtype(name); }, "get_or_register_dtype");
  require(again && *again == dtype, "the type '" + name + "' is not found by its own name");
  const std::size_t alignment = dtype.alignment();
  require(alignment != 0 && (alignment & (alignment - 1)) == 0 && dtype.size() % alignment == 0,
          "the type '" + name + "' has a size that is not a multiple of a power-of-two alignment");
}

// Registers `text` as the declaration of fuzz_t; where that is accepted, the struct behaves as
// registered.
void check_registration(DTypeRegistry& registry, const std::string& text) {
  const auto dtype = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return registry.get_or_register_dtype("fuzz_t", 8, 4, text); }, "register fuzz_t");
  if (!dtype) return;
  require(dtype->declaration() == text, "a struct's declaration is not the text registered");
  check_dtype(*dtype, registry);
  const auto again = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return registry.get_or_register_dtype("fuzz_t", 8, 4, text); }, "register again");
  require(again && *again == *dtype, "registering the same definition again did not return it");
  const std::string declarations = polydev::opencl::type_declarations({ScalarArg(*dtype, "value")});
  require(declarations.find(text + "\n") != std::string::npos,
          "type_declarations does not emit the registered declaration");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  polydev_fuzz::Input input(data, size);
  const auto flags = input.flags();
  const bool with_offset = (flags & 1u) != 0;
  const std::string text = input.rest();

  DTypeRegistry registry;
  if ((flags & 2u) != 0) check_registration(registry, text);

  const auto arguments = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return polydev::opencl::parse_arg_list(text, with_offset, registry); },
      "parse_arg_list");
  if (arguments) check_arguments(*arguments, text, with_offset, registry);

  const auto dtype = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return registry.get_or_register_dtype(text); }, "get_or_register_dtype");
  if (dtype) check_dtype(*dtype, registry);

  const auto type = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return polydev::opencl::parse_scalar_type(text); }, "parse_scalar_type");
  if (type) {
    require(polydev::opencl::parse_scalar_type(polydev::opencl::dtype_name(*type)) == *type &&
                polydev::opencl::parse_scalar_type(polydev::opencl::c_type_name(*type)) == *type,
            "the type's own names do not parse back to it");
  }
  return 0;
}
