#pragma once

// Helpers of the OpenCL pool tests: kernel building, counter, error-message and map-count checks.

#include <gtest/gtest.h>

#include <CL/opencl.hpp>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "polydev/pools/pool.hpp"
#include "support/pool_counters.hpp"

namespace polydev::testing::pools_support {

// Builds `source` for `device`; on failure, a non-fatal failure with the build log and a null
// program (check with `program()`).
inline cl::Program build_program(const cl::Context& context, const cl::Device& device,
                                 const char* source, const char* options = "") {
  cl_int status = CL_SUCCESS;
  cl::Program program(context, source, /*build=*/false, &status);
  if (status != CL_SUCCESS) {
    ADD_FAILURE() << "clCreateProgramWithSource failed: " << status;
    return cl::Program();
  }
  if (program.build({device}, options) != CL_SUCCESS) {
    ADD_FAILURE() << "build failed:\n" << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    return cl::Program();
  }
  return program;
}

// Whether `text` (a message) has `part` in it.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The message of the exception of type `Exception` that `action` throws; a failure when it throws
// nothing or something else.
template <typename Exception>
std::string thrown_message(const std::function<void()>& action) {
  try {
    action();
  } catch (const Exception& caught) {
    return caught.what();
  } catch (const std::exception& other) {
    ADD_FAILURE() << "threw another exception: " << other.what();
    return {};
  }
  ADD_FAILURE() << "threw nothing";
  return {};
}

// CL_MEM_MAP_COUNT of `memory` once `queue` is idle. The specification calls the count
// "immediately stale" (a debugging aid): PoCL lowers it on its worker thread after the unmap's
// event completes. So a count that differs from `expected` is read again for up to 2 s before it
// is returned.
inline cl_uint settled_map_count(const cl::CommandQueue& queue, const cl::Memory& memory,
                                 cl_uint expected) {
  EXPECT_EQ(queue.finish(), CL_SUCCESS);
  cl_uint count = memory.getInfo<CL_MEM_MAP_COUNT>();
  for (int attempt = 0; count != expected && attempt < 2000; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    count = memory.getInfo<CL_MEM_MAP_COUNT>();
  }
  return count;
}

}  // namespace polydev::testing::pools_support
