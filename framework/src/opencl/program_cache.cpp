#include "polydev/opencl/program_cache.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

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

cl::Program build_uncached(const cl::Context& context, const std::string& source,
                           const std::string& options) {
  ProgramBinaryCache* cache = process_binary_cache();
  if (cache == nullptr || !binary_cacheable(source, options)) {
    return build_from_source(context, source, options);
  }
  const auto devices = context.getInfo<CL_CONTEXT_DEVICES>();
  std::vector<std::string> keys;
  keys.reserve(devices.size());
  for (const cl::Device& device : devices) {
    keys.push_back(ProgramBinaryCache::key(device, source, options));
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

FirstArgMemoized<cl::Program(cl::Context, std::string, std::string)>& program_cache() {
  // Leaked on purpose: the cache must outlive every static object that might still build at exit.
  static auto* cache =
      new FirstArgMemoized<cl::Program(cl::Context, std::string, std::string)>(build_uncached);
  return *cache;
}

}  // namespace

cl::Program build_program(const cl::Context& context, const std::string& source,
                          const std::string& options) {
  return program_cache()(context, source, options);
}

cl::Program build_program_once(const cl::Context& context, const std::string& source,
                               const std::string& options) {
  return build_uncached(context, source, options);
}

std::size_t cached_program_count() { return program_cache().size(); }

}  // namespace polydev::opencl
