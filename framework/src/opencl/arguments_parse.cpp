// parse_c_arg and parse_arg_list: C declarations read into VectorArg / ScalarArg; OtherArgs are
// made by hand and joined to lists as they are.
#include <algorithm>
#include <sstream>

#include "opencl_c_words.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/arguments.hpp"

namespace polydev::opencl {

namespace {

bool is_parameter_name(std::string_view text) {
  return is_identifier(text) && !is_reserved_word(text);
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

Argument parse_c_arg(std::string_view declaration, bool with_offset,
                     const DTypeRegistry& registry) {
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
                  " arguments cannot be described by a declaration; only __global pointers "
                  "and scalars can. Make it an OtherArg(\"" +
                  std::string(declaration) + "\", \"" + name + "\")");
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
                ": pointers to pointers cannot be described (OpenCL C 1.2 and earlier forbid "
                "them as kernel arguments); expected '<type> *<name>'");
  }
  if (type_words.empty()) {
    throw error("kernel argument " + quoted + " has no type; expected '<type> <name>'");
  }
  std::string type_text;
  for (const auto& word : type_words) type_text += (type_text.empty() ? "" : " ") + word;
  DType dtype = [&] {
    try {
      return registry.get_or_register_dtype(type_text);
    } catch (const error& failure) {
      throw error("kernel argument " + quoted + ": " + failure.what());
    }
  }();
  if (pointer_depth == 1) return VectorArg(std::move(dtype), name, with_offset);
  return ScalarArg(std::move(dtype), name);
}

std::vector<Argument> parse_arg_list(std::string_view declarations, bool with_offset,
                                     const DTypeRegistry& registry) {
  std::vector<Argument> arguments;
  std::size_t start = 0;
  while (start <= declarations.size()) {
    const std::size_t comma = declarations.find(',', start);
    const std::string_view piece = declarations.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    // A blank piece (a trailing comma) is skipped; PyOpenCL fails on it ("couldn't parse C
    // declarator ''"), which helps nobody.
    if (!split_words(piece).empty()) {
      arguments.push_back(parse_c_arg(piece, with_offset, registry));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return arguments;
}

std::vector<Argument> parse_arg_list(const std::vector<ArgumentSpec>& pieces, bool with_offset,
                                     const DTypeRegistry& registry) {
  std::vector<Argument> arguments;
  for (const ArgumentSpec& piece : pieces) {
    if (const auto* declaration = std::get_if<std::string>(&piece)) {
      if (!split_words(*declaration).empty()) {
        arguments.push_back(parse_c_arg(*declaration, with_offset, registry));
      }
    } else {
      arguments.push_back(std::get<Argument>(piece));
    }
  }
  return arguments;
}

}  // namespace polydev::opencl
