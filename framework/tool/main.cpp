// The `polydev` command-line tool: dispatches to the subcommands of commands.hpp.
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "commands.hpp"

namespace polydev::tool {

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Arguments&);
};

// One line per subcommand.
constexpr Command kCommands[] = {
    {"devices", "[--json | --explain]  every OpenCL and CUDA device and what the selectors choose",
     devices_command},
    {"resource-spec", "[--slots N] [--output FILE]  CTest resource spec of the selected devices",
     resource_spec_command},
    {"report", "[--html OUT.html] [--json] [--strict] FILE...  GoogleTest XML as test x device",
     report_command},
    {"characterize", "[DEVICE_KEY] [--json]  pyopencl.characterize's values of each device",
     characterize_command},
    {"occupancy",
     "--threads N [--regs R] [--smem S] [--device KEY | --cc X.Y] [--json]  blocks per SM",
     occupancy_command},
};

void print_usage(std::ostream& out) {
  out << "usage: polydev <command> [options]\n\ncommands:\n";
  for (const Command& command : kCommands) {
    out << "  " << command.name << ' ' << command.summary << '\n';
  }
  out << "\n'polydev <command> --help' describes a command. Exit status: 0 on success, 2 for bad\n"
         "usage or a malformed or non-matching selector, 1 for other failures.\n";
}

}  // namespace

int usage_error(const std::string& command, const std::string& message, const char* usage) {
  std::cerr << "polydev " << command << ": " << message << "\n\n" << usage;
  return 2;
}

}  // namespace polydev::tool

int main(int argc, char** argv) {
  using polydev::tool::kCommands;
  if (argc < 2) {
    std::cerr << "polydev: no command given\n\n";
    polydev::tool::print_usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    polydev::tool::print_usage(std::cout);
    return 0;
  }
  for (const auto& command : kCommands) {
    if (name != command.name) continue;
    try {
      return command.run(polydev::tool::Arguments(argv + 2, argv + argc));
    } catch (const std::exception& failure) {
      std::cerr << "polydev " << name << ": " << failure.what() << '\n';
      return 1;
    }
  }
  std::cerr << "polydev: unknown command '" << name << "'\n\n";
  polydev::tool::print_usage(std::cerr);
  return 2;
}
