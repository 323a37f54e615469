#include "polydev/opencl/program_cache.hpp"

#include <string>

#include "polydev/memoize.hpp"
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

cl::Program build_uncached(const cl::Context& context, const std::string& source,
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

std::size_t cached_program_count() { return program_cache().size(); }

}  // namespace polydev::opencl
