#pragma once

// The subcommands of the `polydev` tool. Each has a syntax, by which main.cpp reads the arguments
// after its name (and answers --help with its usage), and a function that runs it on them and
// returns the exit status: 0 on success, 2 for bad usage or a malformed or non-matching selector,
// 1 for other failures. Each prints its own usage errors (see `usage_error`); main.cpp checks,
// after the command returned, that everything it printed reached stdout (status 1 otherwise).
//
// The rules every command's options follow live here (`parse_arguments`), not in the commands.

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace polydev::tool {

using Arguments = std::vector<std::string>;

/// Prints "polydev <command>: <message>" and the command's usage on stderr; returns 2.
int usage_error(const std::string& command, const std::string& message, const char* usage);

/// Bad usage found while a command runs: main.cpp prints it as `usage_error` does (status 2).
class usage_failure : public std::runtime_error {
 public:
  usage_failure(const std::string& message, const char* usage)
      : std::runtime_error(message), usage_(usage) {}
  const char* usage() const noexcept { return usage_; }

 private:
  const char* usage_;
};

/// An option a command accepts.
struct Option {
  const char* name;             ///< "--slots"
  const char* value = nullptr;  ///< what its value is, for messages ("a file name"); none: a flag
};

/// What a command accepts.
struct CommandSyntax {
  const char* usage;
  std::vector<Option> options;
  std::size_t max_positionals = 0;
};

/// Parsed arguments.
struct ParsedArguments {
  bool help = false;                          ///< --help or -h: print the usage, nothing else
  std::map<std::string, std::string> values;  ///< option -> value ("" for a flag)
  std::vector<std::string> positionals;

  bool has(const std::string& option) const { return values.count(option) != 0; }
  std::optional<std::string> value(const std::string& option) const;
};

/// Reads a command's arguments by the rules all commands share:
/// - `--help` or `-h` anywhere before `--` asks for the usage (and wins over any other problem);
/// - an option with a value takes it as `--opt VALUE` or `--opt=VALUE`; the value must not be
///   empty (an empty file name would otherwise mean stdout, or nothing); a flag takes no value;
/// - each option at most once: a repeated one is an error, not "the last wins";
/// - `--` ends the options: what follows is positional even if it starts with '-';
/// - any other argument that starts with '-' (a lone "-" excepted) is an unknown option.
/// @throws usage_failure naming the argument that breaks a rule.
ParsedArguments parse_arguments(const Arguments& arguments, const CommandSyntax& syntax);

/// Prints the selection's warnings on stderr; when a selector is wrong prints its error and
/// returns false (the caller then exits with 2, so that a script never mistakes it for a result).
bool report_selection_problems();

extern const CommandSyntax kDevicesSyntax;
extern const CommandSyntax kResourceSpecSyntax;
extern const CommandSyntax kReportSyntax;
extern const CommandSyntax kCharacterizeSyntax;
extern const CommandSyntax kOccupancySyntax;

int devices_command(const ParsedArguments& parsed);
int resource_spec_command(const ParsedArguments& parsed);
int report_command(const ParsedArguments& parsed);
int characterize_command(const ParsedArguments& parsed);
int occupancy_command(const ParsedArguments& parsed);

}  // namespace polydev::tool
