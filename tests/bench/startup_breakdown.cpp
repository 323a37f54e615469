// Where the start of a device-test process goes, measured in this fresh process, phase by phase:
// loading the OpenCL drivers (the first clGetPlatformIDs), enumerating every platform and device,
// initializing CUDA, the first and a second context on a device of each platform, building a
// program from source (new to every cache, then known to the driver's own cache) and from
// polydev's binary cache; then, when given a test binary, the time from its start to its first test
// and to its end. A benchmark run by hand (ci/ctest-speed.sh runs it), not a test.
//
//   polydev_startup_breakdown [--json] [--binary PATH [--filter PATTERN]] [--repeat N]
//
// Each phase runs once, since a phase is only "first" once: the CUDA phases in a child process of
// their own, started before anything else (NVIDIA's OpenCL driver initializes CUDA itself, so CUDA
// after OpenCL would look cheaper than it is), the OpenCL phases in this process. Programs are
// built with polydev's binary cache and PoCL's kernel cache in a temporary folder, so that nothing
// accumulates in the user's caches. The binary's start is measured N times (default 5), in the
// environment this program was given, and the fastest start is reported.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/program_cache.hpp"
#include "polydev/opencl/system.hpp"

#if defined(POLYDEV_WITH_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Phase {
  std::string name;    // what was timed
  std::string detail;  // on which device, with which result
  std::optional<double> seconds;
};

// A kernel of the size tests build (a few functions, some arithmetic), made unique by `nonce` so
// that no cache has seen it.
std::string kernel_source(const std::string& nonce) {
  return "// " + nonce + R"CLC(
float scale(float value, float factor) { return value * factor; }
__kernel void saxpy(__global float* y, __global const float* x, float a, int n) {
  const int i = get_global_id(0);
  if (i < n) y[i] = scale(x[i], a) + y[i];
}
__kernel void reduce(__global const float* in, __global float* out, __local float* scratch) {
  const int lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = get_local_size(0) / 2; step > 0; step /= 2) {
    if (lid < step) scratch[lid] += scratch[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
)CLC";
}

double time_source_build(const cl::Context& context, const cl::Device& device,
                         const std::string& source) {
  const auto start = Clock::now();
  cl::Program program(context, source);
  if (program.build({device}) != CL_SUCCESS) {
    throw std::runtime_error("the benchmark's kernel does not build: " +
                             program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device));
  }
  return seconds_since(start);
}

double time_cached_build(const cl::Context& context, const std::string& source) {
  const auto start = Clock::now();
  polydev::opencl::build_program(context, source);
  return seconds_since(start);
}

cl::Context new_context(const cl::Device& device) {
  cl_int status = CL_SUCCESS;
  cl::Context context(device, nullptr, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) {
    throw std::runtime_error("clCreateContext failed: " + std::to_string(status));
  }
  return context;
}

void measure_opencl(std::vector<Phase>& phases) {
  auto start = Clock::now();
  cl_uint count = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &count);
  phases.push_back({"OpenCL: ICD loading (first clGetPlatformIDs)",
                    std::to_string(count) + " platform(s), status " + std::to_string(status),
                    seconds_since(start)});

  start = Clock::now();
  const polydev::opencl::Inventory& inventory = polydev::opencl::system_inventory();
  std::size_t devices = 0;
  for (const auto& platform : inventory.platforms) devices += platform.devices.size();
  phases.push_back({"OpenCL: enumeration (every platform and device)",
                    std::to_string(devices) + " device(s)", seconds_since(start)});

  const std::string nonce =
      std::to_string(getpid()) + "-" + std::to_string(Clock::now().time_since_epoch().count());
  for (const auto& platform : inventory.platforms) {
    if (platform.devices.empty()) continue;
    const auto& info = platform.devices.front();
    const cl::Device device = polydev::opencl::System::get().device({platform.index, info.index});
    const std::string where = "'" + info.name + "' (" + platform.name + ")";

    start = Clock::now();
    const cl::Context first = new_context(device);
    phases.push_back({"context: first on the platform", where, seconds_since(start)});
    start = Clock::now();
    const cl::Context second = new_context(device);
    phases.push_back({"context: another on the same device (what a test's own costs)", where,
                      seconds_since(start)});

    const std::string source = kernel_source(nonce + "-" + std::to_string(platform.index));
    phases.push_back({"build: from source, new to every cache", where,
                      time_source_build(first, device, source)});
    phases.push_back({"build: from source again, in another context (the driver's own cache)",
                      where, time_source_build(second, device, source)});

    // polydev's program cache: built from source and stored in one context, then made from the
    // stored binary in a new one.
    const std::string cached = kernel_source(nonce + "-cached-" + std::to_string(platform.index));
    const cl::Context third = new_context(device);
    phases.push_back(
        {"build_program: first (source, binary stored)", where, time_cached_build(third, cached)});
    const cl::Context fourth = new_context(device);
    phases.push_back({"build_program: in a new context, from polydev's binary cache", where,
                      time_cached_build(fourth, cached)});
    phases.push_back({"build_program: again in the same context (program cache)", where,
                      time_cached_build(fourth, cached)});
  }
}

void measure_cuda_here(std::vector<Phase>& phases) {
#if defined(POLYDEV_WITH_CUDA)
  auto start = Clock::now();
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  phases.push_back({"CUDA: driver loading and initialization (cudaGetDeviceCount)",
                    std::to_string(count) + " device(s), " + cudaGetErrorName(status),
                    seconds_since(start)});
  if (status == cudaSuccess && count > 0) {
    start = Clock::now();
    const cudaError_t made = cudaFree(nullptr);
    phases.push_back({"CUDA: primary context of device 0 (cudaFree(0))", cudaGetErrorName(made),
                      seconds_since(start)});
  }
  start = Clock::now();
  const polydev::cuda::Inventory& inventory = polydev::cuda::system_inventory();
  phases.push_back({"CUDA: enumeration (polydev's inventory)",
                    std::to_string(inventory.devices.size()) + " device(s)", seconds_since(start)});
#else
  phases.push_back({"CUDA: initialization", "polydev was built without CUDA", std::nullopt});
#endif
}

// The CUDA phases in a child process that has loaded no driver yet; each phase comes back as a
// line "<seconds or ->\t<name>\t<detail>".
void measure_cuda(std::vector<Phase>& phases) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    close(pipe_fds[0]);
    std::vector<Phase> measured;
    measure_cuda_here(measured);
    std::string lines;
    for (const Phase& phase : measured) {
      lines += (phase.seconds ? std::to_string(*phase.seconds) : std::string("-")) + "\t" +
               phase.name + "\t" + phase.detail + "\n";
    }
    const ssize_t written = write(pipe_fds[1], lines.data(), lines.size());
    _exit(written == static_cast<ssize_t>(lines.size()) ? 0 : 1);
  }
  close(pipe_fds[1]);
  std::string lines;
  char buffer[4096];
  for (ssize_t got; (got = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) {
    lines.append(buffer, static_cast<std::size_t>(got));
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("the process that measured CUDA failed");
  }
  std::istringstream in(lines);
  for (std::string line; std::getline(in, line);) {
    const std::size_t first = line.find('\t');
    const std::size_t second = line.find('\t', first + 1);
    const std::string seconds = line.substr(0, first);
    phases.push_back({line.substr(first + 1, second - first - 1), line.substr(second + 1),
                      seconds == "-" ? std::nullopt : std::optional<double>(std::stod(seconds))});
  }
}

// Sets the caches of the builds to a new temporary folder for as long as it lives, then restores
// the environment and removes the folder.
class TemporaryCaches {
 public:
  TemporaryCaches() {
    char pattern[] = "/tmp/polydev-startup-XXXXXX";
    if (mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    folder_ = pattern;
    for (const char* name : {"POLYDEV_CACHE_DIR", "POCL_CACHE_DIR"}) {
      const char* value = std::getenv(name);
      saved_.push_back({name, value ? std::optional<std::string>(value) : std::nullopt});
      setenv(name, (folder_ + "/" + name).c_str(), 1);
    }
  }
  ~TemporaryCaches() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  TemporaryCaches(const TemporaryCaches&) = delete;
  TemporaryCaches& operator=(const TemporaryCaches&) = delete;

 private:
  std::string folder_;
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

// Runs `argv` once: seconds to its first "[ RUN      ]" line (none if it printed none) and to its
// end, and its exit status.
struct BinaryRun {
  std::optional<double> first_test;
  double total = 0;
  int status = -1;
};

BinaryRun run_binary(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  const auto start = Clock::now();
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  BinaryRun run;
  std::string seen;
  char buffer[4096];
  for (;;) {
    const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) break;
    if (!run.first_test) {
      seen.append(buffer, static_cast<std::size_t>(got));
      if (seen.find("[ RUN      ]") != std::string::npos) run.first_test = seconds_since(start);
    }
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  run.total = seconds_since(start);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

void measure_binary(std::vector<Phase>& phases, const std::string& binary,
                    const std::string& filter, int repeat) {
  std::vector<std::string> argv = {binary};
  if (!filter.empty()) argv.push_back("--gtest_filter=" + filter);
  std::optional<BinaryRun> best;
  for (int i = 0; i < repeat; ++i) {
    const BinaryRun run = run_binary(argv);
    if (!best || (run.first_test && (!best->first_test || *run.first_test < *best->first_test))) {
      best = run;
    }
  }
  const std::string what = binary.substr(binary.rfind('/') + 1) +
                           (filter.empty() ? "" : " --gtest_filter=" + filter) + ", fastest of " +
                           std::to_string(repeat) + ", exit status " + std::to_string(best->status);
  phases.push_back({"test binary: start to its first test", what, best->first_test});
  phases.push_back({"test binary: start to its end", what, best->total});
}

std::string json_string(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

void print_table(const std::vector<Phase>& phases) {
  std::size_t width = 0;
  for (const Phase& phase : phases) width = std::max(width, phase.name.size());
  for (const Phase& phase : phases) {
    char seconds[32] = "       -";
    if (phase.seconds) std::snprintf(seconds, sizeof seconds, "%8.4f s", *phase.seconds);
    std::cout << phase.name << std::string(width - phase.name.size() + 2, ' ') << seconds << "  "
              << phase.detail << '\n';
  }
}

void print_json(const std::vector<Phase>& phases) {
  std::cout << "{\"phases\": [\n";
  for (std::size_t i = 0; i < phases.size(); ++i) {
    std::ostringstream seconds;
    if (phases[i].seconds) {
      seconds << *phases[i].seconds;
    } else {
      seconds << "null";
    }
    std::cout << "  {\"phase\": " << json_string(phases[i].name)
              << ", \"detail\": " << json_string(phases[i].detail)
              << ", \"seconds\": " << seconds.str() << "}" << (i + 1 < phases.size() ? "," : "")
              << '\n';
  }
  std::cout << "]}\n";
}

int usage(const std::string& problem) {
  std::cerr << "polydev_startup_breakdown: " << problem
            << "\nusage: polydev_startup_breakdown [--json] [--binary PATH [--filter PATTERN]] "
               "[--repeat N]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  std::string binary;
  std::string filter;
  int repeat = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--json") {
      json = true;
    } else if (arg == "--binary" && has_value) {
      binary = argv[++i];
    } else if (arg == "--filter" && has_value) {
      filter = argv[++i];
    } else if (arg == "--repeat" && has_value) {
      const std::string value = argv[++i];
      if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos ||
          value.size() > 4 || std::stoi(value) < 1) {
        return usage("--repeat '" + value + "' is not a count; expected a number from 1");
      }
      repeat = std::stoi(value);
    } else {
      return usage("unknown or incomplete argument '" + arg + "'");
    }
  }
  if (!filter.empty() && binary.empty()) return usage("--filter needs --binary");
  std::vector<Phase> phases;
  try {
    measure_cuda(phases);
    {
      const TemporaryCaches caches;
      const auto start = Clock::now();
      measure_opencl(phases);
      phases.push_back({"OpenCL: every phase above, in one process", "", seconds_since(start)});
    }
    if (!binary.empty()) measure_binary(phases, binary, filter, repeat);
  } catch (const std::exception& failure) {
    std::cerr << "polydev_startup_breakdown: " << failure.what() << '\n';
    return 1;
  }
  json ? print_json(phases) : print_table(phases);
  return 0;
}
