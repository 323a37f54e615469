#include "polydev/opencl/arguments.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <sstream>
#include <utility>

#include "polydev/error.hpp"

namespace polydev::opencl {

namespace {

struct TypeNames {
  ScalarType type;
  std::string_view dtype;
  std::string_view c_type;
  std::size_t size;
};

constexpr std::array<TypeNames, 13> type_table{{
    {ScalarType::int8, "int8", "char", 1},
    {ScalarType::uint8, "uint8", "unsigned char", 1},
    {ScalarType::int16, "int16", "short", 2},
    {ScalarType::uint16, "uint16", "unsigned short", 2},
    {ScalarType::int32, "int32", "int", 4},
    {ScalarType::uint32, "uint32", "unsigned int", 4},
    {ScalarType::int64, "int64", "long", 8},
    {ScalarType::uint64, "uint64", "unsigned long", 8},
    {ScalarType::float16, "float16", "half", 2},
    {ScalarType::float32, "float32", "float", 4},
    {ScalarType::float64, "float64", "double", 8},
    {ScalarType::complex64, "complex64", "cfloat_t", 8},
    {ScalarType::complex128, "complex128", "cdouble_t", 16},
}};

// OpenCL C spellings besides the canonical ones of the table.
constexpr std::array<std::pair<std::string_view, ScalarType>, 9> c_aliases{{
    {"signed char", ScalarType::int8},
    {"uchar", ScalarType::uint8},
    {"ushort", ScalarType::uint16},
    {"unsigned", ScalarType::uint32},
    {"uint", ScalarType::uint32},
    {"ulong", ScalarType::uint64},
    {"float16_t", ScalarType::float16},
    {"float32_t", ScalarType::float32},
    {"float64_t", ScalarType::float64},
}};

const TypeNames& names_of(ScalarType type) noexcept {
  return type_table[static_cast<std::size_t>(type)];
}

std::string accepted_type_names() {
  std::string list;
  for (const auto& entry : type_table) {
    list += std::string(list.empty() ? "" : ", ") + std::string(entry.dtype) + " (" +
            std::string(entry.c_type) + ")";
  }
  return list;
}

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// OpenCL C's keywords and built-in type names (C99's keywords, the address space and access
// qualifiers, the scalar and vector types), which a parameter cannot be named: "unsigned int" and
// "float *restrict" would otherwise read as a parameter named "int" or "restrict".
bool is_reserved_word(std::string_view text) {
  static constexpr std::string_view keywords[] = {
      "auto",         "break",      "case",        "char",      "const",        "continue",
      "default",      "do",         "double",      "else",      "enum",         "extern",
      "float",        "for",        "goto",        "if",        "inline",       "int",
      "long",         "register",   "restrict",    "return",    "short",        "signed",
      "sizeof",       "static",     "struct",      "switch",    "typedef",      "union",
      "unsigned",     "void",       "volatile",    "while",     "_Bool",        "_Complex",
      "_Imaginary",   "__restrict", "__global",    "global",    "__local",      "local",
      "__constant",   "constant",   "__private",   "private",   "__generic",    "generic",
      "__kernel",     "kernel",     "__read_only", "read_only", "__write_only", "write_only",
      "__read_write", "read_write", "uniform",     "pipe",      "bool",         "uchar",
      "ushort",       "uint",       "ulong",       "half",      "size_t",       "ptrdiff_t",
      "intptr_t",     "uintptr_t"};
  for (std::string_view keyword : keywords) {
    if (text == keyword) return true;
  }
  // Vector types: char2 ... double16.
  static constexpr std::string_view element_types[] = {"char",  "uchar",  "short", "ushort",
                                                       "int",   "uint",   "long",  "ulong",
                                                       "float", "double", "half"};
  for (std::string_view element : element_types) {
    if (text.size() <= element.size() || text.substr(0, element.size()) != element) continue;
    const std::string_view width = text.substr(element.size());
    if (width == "2" || width == "3" || width == "4" || width == "8" || width == "16") return true;
  }
  return false;
}

bool is_parameter_name(std::string_view text) {
  return is_identifier(text) && !is_reserved_word(text);
}

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

std::vector<std::string> split_words(std::string_view text) {
  std::string spaced;
  for (char c : text) {
    if (c == '*') {
      spaced += " * ";
    } else {
      spaced += c;
    }
  }
  std::istringstream stream(spaced);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

}  // namespace

std::string_view dtype_name(ScalarType type) noexcept { return names_of(type).dtype; }

std::string_view c_type_name(ScalarType type) noexcept { return names_of(type).c_type; }

std::size_t size_of(ScalarType type) noexcept { return names_of(type).size; }

bool needs_fp64(ScalarType type) noexcept {
  return type == ScalarType::float64 || type == ScalarType::complex128;
}

ScalarType parse_scalar_type(std::string_view text) {
  for (const auto& entry : type_table) {
    if (text == entry.dtype || text == entry.c_type) return entry.type;
  }
  for (const auto& [alias, type] : c_aliases) {
    if (text == alias) return type;
  }
  throw error("unknown argument type '" + std::string(text) +
              "'; known types (NumPy name, OpenCL C name): " + accepted_type_names());
}

VectorArg::VectorArg(ScalarType type, std::string name, bool with_offset)
    : type_(type), name_(checked_name(std::move(name), "VectorArg")), with_offset_(with_offset) {}

std::string VectorArg::declarator() const {
  const std::string c_type(c_type_name(type_));
  if (with_offset_) {
    return "__global " + c_type + " *" + name_ + "__base, long " + name_ + "__offset";
  }
  return "__global " + c_type + " *" + name_;
}

ScalarArg::ScalarArg(ScalarType type, std::string name)
    : type_(type), name_(checked_name(std::move(name), "ScalarArg")) {}

std::string ScalarArg::declarator() const { return std::string(c_type_name(type_)) + " " + name_; }

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
    const std::string c_type(c_type_name(vector->type()));
    const std::string& name = vector->name();
    code += "__global " + c_type + " *" + name + " = (__global " + c_type +
            " *) ((__global char *) " + name + "__base + " + name + "__offset);\n";
  }
  return code;
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
    const ScalarType type = std::visit([](const auto& arg) { return arg.type(); }, argument);
    if (needs_fp64(type)) return true;
  }
  return false;
}

Argument parse_c_arg(std::string_view declaration, bool with_offset) {
  const std::string quoted = "'" + std::string(declaration) + "'";
  std::vector<std::string> type_words;
  int pointer_depth = 0;
  std::vector<std::string> words = split_words(declaration);
  if (words.empty()) {
    throw error("kernel argument " + quoted +
                " is empty; expected e.g. '__global float *x' or "
                "'int n'");
  }
  const std::string name = words.back();
  words.pop_back();
  for (const auto& word : words) {
    if (word == "__local" || word == "local" || word == "__constant" || word == "constant") {
      throw error("kernel argument " + quoted + ": " + word +
                  " arguments cannot be described; only __global pointers and scalars can");
    }
    if (word == "*") {
      ++pointer_depth;
    } else if (word == "__global" || word == "global") {
      if (pointer_depth == 0 && std::find(words.begin(), words.end(), "*") == words.end()) {
        throw error("kernel argument " + quoted + ": __global needs a pointer, e.g. '__global " +
                    "float *" + name + "'");
      }
    } else if (word != "const" && word != "restrict" && word != "__restrict" &&
               word != "volatile") {
      if (pointer_depth > 0) {
        throw error("kernel argument " + quoted + ": unexpected '" + word +
                    "' after '*'; expected '<type> *<name>'");
      }
      type_words.push_back(word);
    }
  }
  if (!is_parameter_name(name)) {
    throw error("kernel argument " + quoted + " has no name (got '" + name +
                "'); expected '<type> <name>' or '<type> *<name>'");
  }
  if (pointer_depth > 1) {
    throw error("kernel argument " + quoted +
                ": pointers to pointers cannot be kernel arguments; expected '<type> *<name>'");
  }
  if (type_words.empty()) {
    throw error("kernel argument " + quoted + " has no type; expected '<type> <name>'");
  }
  std::string type_text;
  for (const auto& word : type_words) type_text += (type_text.empty() ? "" : " ") + word;
  const ScalarType type = parse_scalar_type(type_text);
  if (pointer_depth == 1) return VectorArg(type, name, with_offset);
  return ScalarArg(type, name);
}

std::vector<Argument> parse_arg_list(std::string_view declarations, bool with_offset) {
  std::vector<Argument> arguments;
  std::size_t start = 0;
  while (start <= declarations.size()) {
    const std::size_t comma = declarations.find(',', start);
    const std::string_view piece = declarations.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    // PyOpenCL skips empty pieces (a trailing comma); so does polydev.
    if (!split_words(piece).empty()) arguments.push_back(parse_c_arg(piece, with_offset));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return arguments;
}

}  // namespace polydev::opencl
