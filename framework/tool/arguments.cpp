// The argument rules shared by every `polydev` command. An argument a message names is quoted
// escaped and cut: printed raw, a line feed in it would forge a line of the message.

#include "commands.hpp"
#include "io/printable.hpp"

namespace polydev::tool {

std::optional<std::string> ParsedArguments::value(const std::string& option) const {
  const auto found = values.find(option);
  if (found == values.end()) return std::nullopt;
  return found->second;
}

ParsedArguments parse_arguments(const Arguments& arguments, const CommandSyntax& syntax) {
  ParsedArguments parsed;
  const auto fail = [&](const std::string& message) { throw usage_failure(message, syntax.usage); };
  // Help first: `polydev report --bogus --help` shows the usage that explains --bogus.
  for (const std::string& argument : arguments) {
    if (argument == "--") break;
    if (argument == "--help" || argument == "-h") {
      parsed.help = true;
      return parsed;
    }
  }
  bool options_ended = false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (options_ended || argument.size() < 2 || argument[0] != '-') {
      if (parsed.positionals.size() == syntax.max_positionals) {
        fail(syntax.max_positionals == 0 ? "unexpected argument " + detail::quote(argument)
                                         : "too many arguments: " + detail::quote(argument));
      }
      parsed.positionals.push_back(argument);
      continue;
    }
    if (argument == "--") {
      options_ended = true;
      continue;
    }
    const std::size_t equals = argument.find('=');
    const std::string name = argument.substr(0, equals);
    const Option* option = nullptr;
    for (const Option& candidate : syntax.options) {
      if (name == candidate.name) option = &candidate;
    }
    if (!option) fail("unknown option " + detail::quote(argument));
    if (parsed.has(name)) fail(name + " given twice; give it once");
    std::string value;
    if (!option->value) {
      if (equals != std::string::npos)
        fail(name + " takes no value, got " + detail::quote(argument));
    } else if (equals != std::string::npos) {
      value = argument.substr(equals + 1);
    } else if (i + 1 < arguments.size()) {
      value = arguments[++i];
    } else {
      fail(name + " needs " + option->value);
    }
    if (option->value && value.empty()) fail(name + " needs " + option->value + ", got ''");
    parsed.values.emplace(name, value);
  }
  return parsed;
}

}  // namespace polydev::tool
