#include "polydev/opencl/program_cache.hpp"

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "opencl/program_cache_includes.hpp"
#include "polydev/memoize.hpp"
#include "polydev/opencl/binary_cache.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl {

namespace {

std::string build_logs(const cl::Program& program) {
  std::string logs;
  cl_int status = CL_SUCCESS;
  const auto per_device = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(&status);
  for (const auto& [device, log] : per_device) {
    logs += "\n--- build log for '" + device.getInfo<CL_DEVICE_NAME>() + "':\n" + log;
  }
  return logs;
}

cl::Program build_from_source(const cl::Context& context, const std::string& source,
                              const std::string& options) {
  cl_int status = CL_SUCCESS;
  cl::Program program(context, source, false, &status);
  check(status, "clCreateProgramWithSource");
  status = program.build(options.c_str());
  if (status != CL_SUCCESS) {
    check(status, "clBuildProgram", "options \"" + options + "\"" + build_logs(program));
  }
  return program;
}

// The program from the binaries cached for every device of the context; nothing when one is
// missing, or when the driver refuses them (a driver update can do that without changing the
// version strings of the key), in which case they are forgotten and rebuilt from source.
std::optional<cl::Program> build_from_binaries(ProgramBinaryCache& cache,
                                               const cl::Context& context,
                                               const std::vector<cl::Device>& devices,
                                               const std::vector<std::string>& keys,
                                               const std::string& options) {
  cl::Program::Binaries binaries;
  for (const std::string& key : keys) {
    auto binary = cache.find(key);
    if (!binary) return std::nullopt;
    binaries.push_back(std::move(*binary));
  }
  std::vector<cl_int> binary_status;
  cl_int status = CL_SUCCESS;
  cl::Program program(context, devices, binaries, &binary_status, &status);
  if (status == CL_SUCCESS) status = program.build(options.c_str());
  if (status == CL_SUCCESS) return program;
  for (const std::string& key : keys) cache.forget(key);
  return std::nullopt;
}

// `included` is the ProgramIncludes key of a program whose includes were all followed.
cl::Program build_uncached(const cl::Context& context, const std::string& source,
                           const std::string& options, const std::string& included) {
  ProgramBinaryCache* cache = process_binary_cache();
  if (cache == nullptr) return build_from_source(context, source, options);
  const auto devices = context.getInfo<CL_CONTEXT_DEVICES>();
  std::vector<std::string> keys;
  keys.reserve(devices.size());
  for (const cl::Device& device : devices) {
    keys.push_back(ProgramBinaryCache::key(device, source, options, included));
  }
  if (auto program = build_from_binaries(*cache, context, devices, keys, options)) return *program;
  cl::Program program = build_from_source(context, source, options);
  // CL_PROGRAM_BINARIES lists the binaries in the order of CL_PROGRAM_DEVICES, which is the
  // context's order for a program made from source for the whole context.
  cl_int status = CL_SUCCESS;
  const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>(&status);
  if (status == CL_SUCCESS && binaries.size() == keys.size()) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (!binaries[i].empty()) cache->store(keys[i], binaries[i]);
    }
  }
  return program;
}

// A program whose includes could not all be followed: no key would notice a changed header, so
// neither cache keeps it. The reason is a warning once per process, after a build that worked (a
// failed build says more than the reason would).
cl::Program build_not_cached(const cl::Context& context, const std::string& source,
                             const std::string& options, const std::string& problem) {
  process_binary_cache();  // an invalid POLYDEV_NO_CACHE is an error here too
  cl::Program program = build_from_source(context, source, options);
  static std::mutex mutex;
  static std::set<std::string>* warned = new std::set<std::string>();  // leaked: see program_cache
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(mutex);
    first = warned->insert(problem).second;
  }
  if (first)
    std::fprintf(stderr, "polydev: warning: a program is not cached: %s\n", problem.c_str());
  return program;
}

using ProgramCache =
    FirstArgMemoized<cl::Program(cl::Context, std::string, std::string, std::string)>;

ProgramCache& program_cache() {
  // Leaked on purpose: the cache must outlive every static object that might still build at exit.
  static auto* cache = new ProgramCache(build_uncached);
  return *cache;
}

}  // namespace

ProgramIncludes program_includes(const std::string& source, const std::string& options) {
  std::error_code failure;
  std::filesystem::path working_folder = std::filesystem::current_path(failure);
  // Without a working folder (removed under the process) only the other folders can be searched.
  if (failure) working_folder.clear();
  return detail::IncludeResolver(options, working_folder).resolve(source);
}

cl::Program build_program(const cl::Context& context, const std::string& source,
                          const std::string& options) {
  const ProgramIncludes includes = program_includes(source, options);
  if (!includes.problem.empty()) {
    return build_not_cached(context, source, options, includes.problem);
  }
  return program_cache()(context, source, options, includes.key);
}

cl::Program build_program_once(const cl::Context& context, const std::string& source,
                               const std::string& options) {
  const ProgramIncludes includes = program_includes(source, options);
  if (!includes.problem.empty()) {
    return build_not_cached(context, source, options, includes.problem);
  }
  return build_uncached(context, source, options, includes.key);
}

std::size_t cached_program_count() { return program_cache().size(); }

}  // namespace polydev::opencl
