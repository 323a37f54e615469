#include "opencl_c_words.hpp"

#include <cctype>

#include "polydev/error.hpp"

namespace polydev::opencl {

namespace {

bool is_vector_width(std::string_view digits) {
  return digits == "2" || digits == "3" || digits == "4" || digits == "8" || digits == "16";
}

}  // namespace

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// "unsigned int" and "float *restrict" would otherwise read as a parameter named "int" or
// "restrict"; a struct registered as "float4" or "image2d_t" would shadow a built-in type.
bool is_reserved_word(std::string_view text) {
  static constexpr std::string_view keywords[] = {"auto",
                                                  "break",
                                                  "case",
                                                  "char",
                                                  "const",
                                                  "continue",
                                                  "default",
                                                  "do",
                                                  "double",
                                                  "else",
                                                  "enum",
                                                  "extern",
                                                  "float",
                                                  "for",
                                                  "goto",
                                                  "if",
                                                  "inline",
                                                  "int",
                                                  "long",
                                                  "register",
                                                  "restrict",
                                                  "return",
                                                  "short",
                                                  "signed",
                                                  "sizeof",
                                                  "static",
                                                  "struct",
                                                  "switch",
                                                  "typedef",
                                                  "union",
                                                  "unsigned",
                                                  "void",
                                                  "volatile",
                                                  "while",
                                                  "_Bool",
                                                  "_Complex",
                                                  "_Imaginary",
                                                  "__restrict",
                                                  "__global",
                                                  "global",
                                                  "__local",
                                                  "local",
                                                  "__constant",
                                                  "constant",
                                                  "__private",
                                                  "private",
                                                  "__generic",
                                                  "generic",
                                                  "__kernel",
                                                  "kernel",
                                                  "__read_only",
                                                  "read_only",
                                                  "__write_only",
                                                  "write_only",
                                                  "__read_write",
                                                  "read_write",
                                                  "uniform",
                                                  "pipe",
                                                  "bool",
                                                  "uchar",
                                                  "ushort",
                                                  "uint",
                                                  "ulong",
                                                  "half",
                                                  "size_t",
                                                  "ptrdiff_t",
                                                  "intptr_t",
                                                  "uintptr_t",
                                                  "image1d_t",
                                                  "image1d_array_t",
                                                  "image1d_buffer_t",
                                                  "image2d_t",
                                                  "image2d_array_t",
                                                  "image2d_depth_t",
                                                  "image2d_array_depth_t",
                                                  "image3d_t",
                                                  "sampler_t",
                                                  "event_t",
                                                  "queue_t",
                                                  "ndrange_t",
                                                  "clk_event_t",
                                                  "reserve_id_t"};
  for (std::string_view keyword : keywords) {
    if (text == keyword) return true;
  }
  // Vector types, char2 ... double16, and the reserved bool2 ... bool16.
  static constexpr std::string_view element_types[] = {"char",  "uchar",  "short", "ushort",
                                                       "int",   "uint",   "long",  "ulong",
                                                       "float", "double", "half",  "bool"};
  for (std::string_view element : element_types) {
    if (text.size() > element.size() && text.substr(0, element.size()) == element &&
        is_vector_width(text.substr(element.size()))) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> forbidden_argument_reason(std::string_view type_name) {
  const std::string quoted = "'" + std::string(type_name) + "'";
  const std::string rule =
      " cannot be a kernel argument in OpenCL C, by value, through a pointer "
      "or as a struct field: ";
  if (type_name == "bool") {
    return quoted + rule +
           "its size is implementation-defined, so the host cannot lay one out; use char or "
           "uchar (0 or 1), or int";
  }
  struct SizeDependent {
    std::string_view name;
    std::string_view instead;
  };
  static constexpr SizeDependent size_dependent[] = {{"size_t", "uint or ulong"},
                                                     {"ptrdiff_t", "int or long"},
                                                     {"intptr_t", "long"},
                                                     {"uintptr_t", "ulong"}};
  for (const auto& entry : size_dependent) {
    if (type_name == entry.name) {
      return quoted + rule +
             "its size is the device's address width (CL_DEVICE_ADDRESS_BITS, 32 or 64 bits), "
             "which need not be the host's; use " +
             std::string(entry.instead);
    }
  }
  return std::nullopt;
}

std::vector<std::string> c_tokens(std::string_view text, const std::string& what) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  auto is_word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      const std::size_t end = text.find('\n', i);
      i = end == std::string_view::npos ? text.size() : end + 1;
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) {
        throw error(what + ": the comment at offset " + std::to_string(i) +
                    " is not closed; end it with '*/'");
      }
      i = end + 2;
    } else if (is_word_char(c)) {
      const std::size_t start = i;
      while (i < text.size() && is_word_char(text[i])) ++i;
      tokens.emplace_back(text.substr(start, i - start));
    } else {
      tokens.emplace_back(1, c);
      ++i;
    }
  }
  return tokens;
}

}  // namespace polydev::opencl
