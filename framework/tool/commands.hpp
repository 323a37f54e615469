#pragma once

// The subcommands of the `polydev` tool. Each takes the arguments after its name and returns the
// exit status: 0 on success, 2 for bad usage or a malformed or non-matching selector, 1 for other
// failures. Each prints its own usage errors (see `usage_error`).

#include <string>
#include <vector>

namespace polydev::tool {

using Arguments = std::vector<std::string>;

/// Prints "polydev <command>: <message>" and the command's usage on stderr; returns 2.
int usage_error(const std::string& command, const std::string& message, const char* usage);

/// Prints the selection's warnings on stderr; when a selector is wrong prints its error and
/// returns false (the caller then exits with 2, so that a script never mistakes it for a result).
bool report_selection_problems();

int devices_command(const Arguments& arguments);
int resource_spec_command(const Arguments& arguments);
int report_command(const Arguments& arguments);
int characterize_command(const Arguments& arguments);
int occupancy_command(const Arguments& arguments);

}  // namespace polydev::tool
