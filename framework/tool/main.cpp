// The `polydev` command-line tool: dispatches to the subcommands of commands.hpp, and checks for
// every one of them that what it printed reached stdout.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <streambuf>
#include <string>

#include "commands.hpp"
#include "io/printable.hpp"
#include "polydev/testing/test_inputs.hpp"

namespace polydev::tool {

namespace {

struct Command {
  const char* name;
  const char* summary;
  const CommandSyntax* syntax;
  int (*run)(const ParsedArguments&);
};

// One line per subcommand.
const Command kCommands[] = {
    {"devices", "[--json | --explain]  every OpenCL and CUDA device and what the selectors choose",
     &kDevicesSyntax, devices_command},
    {"resource-spec", "[--slots N] [--output FILE]  CTest resource spec of the selected devices",
     &kResourceSpecSyntax, resource_spec_command},
    {"report",
     "[--html OUT.html [--source-url URL [--source-root DIR]]] [--json] [--strict] FILE|DIR...\n"
     "      GoogleTest XML or CTest's JUnit file as test x device",
     &kReportSyntax, report_command},
    {"characterize", "[DEVICE_KEY] [--json]  pyopencl.characterize's values of each device",
     &kCharacterizeSyntax, characterize_command},
    {"occupancy",
     "--threads N [--regs R] [--smem S] [--device KEY | --cc X.Y] [--json]  blocks per SM",
     &kOccupancySyntax, occupancy_command},
};

void print_usage(std::ostream& out) {
  out << "usage: polydev <command> [options]\n\ncommands:\n";
  for (const Command& command : kCommands) {
    out << "  " << command.name << ' ' << command.summary << '\n';
  }
  out << "\n'polydev <command> --help' describes a command. Exit status: 0 on success, 2 for bad\n"
         "usage or a malformed or non-matching selector, 1 for other failures (among them output\n"
         "that cannot be written to stdout).\n";
}

// std::cout's buffer: writes to file descriptor 1 and remembers the first error, so that a full
// disk (ENOSPC), a closed stdout (EBADF) or a pipe whose reader is gone is a failure of the
// command instead of a silently empty file. Writes after an error are dropped.
class StdoutBuffer : public std::streambuf {
 public:
  // `closed`: file descriptor 1 was not open when polydev started.
  explicit StdoutBuffer(bool closed) : error_(0), closed_(closed) {
    setp(buffer_, buffer_ + kSize);
  }
  StdoutBuffer(const StdoutBuffer&) = delete;
  StdoutBuffer& operator=(const StdoutBuffer&) = delete;

  // The errno of the first failed write, 0 when everything printed so far was written.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    drain();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }

  int sync() override {
    drain();
    return error_ == 0 ? 0 : -1;
  }

 private:
  static constexpr std::size_t kSize = 1 << 16;

  void drain() {
    const char* data = pbase();
    std::size_t size = static_cast<std::size_t>(pptr() - pbase());
    setp(buffer_, buffer_ + kSize);
    if (size == 0 || error_ != 0) return;
    if (closed_) {
      error_ = EBADF;
      return;
    }
    while (size > 0) {
      const ssize_t written = ::write(STDOUT_FILENO, data, size);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        error_ = written < 0 ? errno : EIO;
        return;
      }
      data += written;
      size -= static_cast<std::size_t>(written);
    }
  }

  char buffer_[kSize];
  int error_;
  bool closed_;
};

int run(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "polydev: no command given\n\n";
    print_usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return 0;
  }
  for (const auto& command : kCommands) {
    if (name != command.name) continue;
    try {
      const ParsedArguments parsed =
          parse_arguments(Arguments(argv + 2, argv + argc), *command.syntax);
      if (parsed.help) {
        std::cout << command.syntax->usage;
        return 0;
      }
      return command.run(parsed);
    } catch (const usage_failure& failure) {
      return usage_error(name, failure.what(), failure.usage());
    } catch (const std::exception& failure) {
      std::cerr << "polydev " << name << ": " << detail::printable_text(failure.what()) << '\n';
      return 1;
    }
  }
  std::cerr << "polydev: unknown command '" << detail::printable(name) << "'\n\n";
  print_usage(std::cerr);
  return 2;
}

}  // namespace

int usage_error(const std::string& command, const std::string& message, const char* usage) {
  std::cerr << "polydev " << command << ": " << detail::printable_text(message) << "\n\n" << usage;
  return 2;
}

}  // namespace polydev::tool

int main(int argc, char** argv) {
  // A closed stdout: hold descriptor 1 with /dev/null, so that no file the command opens (a
  // report, an --output file) takes its place and receives what was meant for stdout.
  const bool stdout_closed = ::fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF;
  if (stdout_closed) {
    const int placeholder = ::open("/dev/null", O_WRONLY);
    if (placeholder >= 0 && placeholder != STDOUT_FILENO) ::close(placeholder);
  }
  // polydev.yaml's profile and device shards, as a test binary reads them: the tool reads nothing
  // before this, so it cannot throw.
  polydev::testing::install_test_inputs();
  static polydev::tool::StdoutBuffer buffer(stdout_closed);
  std::streambuf* const original = std::cout.rdbuf(&buffer);
  int status = polydev::tool::run(argc, argv);
  std::cout.flush();
  if (buffer.error() != 0) {
    std::cerr << "polydev" << (argc >= 2 ? " " + polydev::detail::printable(argv[1]) : "")
              << ": cannot write to stdout: " << std::strerror(buffer.error()) << '\n';
    // A usage error (2) stays one; otherwise the output is incomplete, a failure.
    if (status == 0) status = 1;
  }
  std::cout.rdbuf(original);
  return status;
}
