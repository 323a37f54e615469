#pragma once

// Wait-list checks of the memory operations' tests (copy_test.cpp, memory_object_test.cpp): a
// user event that holds commands back, and whether a device can hold anything back at all.

#include <gtest/gtest.h>

#include <CL/opencl.hpp>

#include "support/opencl_checks.hpp"

namespace polydev::testing::pools_support {

// Why wait-list tests skip on a device that runs each command inside its enqueue call.
inline constexpr const char* kRunsAtEnqueue =
    "the device ran a kernel before clEnqueueNDRangeKernel returned (no asynchronous execution, "
    "as PoCL's 'basic'): nothing it is given is ever pending, so a wait list cannot be seen to "
    "hold a command back (and PoCL 3.1 deadlocks when a user event is completed while such a "
    "device has a command waiting for it)";

// Whether `device` ran a kernel of a few milliseconds before the enqueue call returned, on a queue
// of its own that is never flushed. A device that runs commands asynchronously has hardly started
// it then.
inline bool runs_commands_at_enqueue(const cl::Context& context, const cl::Device& device) {
  constexpr const char* source = R"CLC(
__kernel void spin(__global uint* out, uint rounds) {
  uint state = (uint)get_global_id(0);
  for (uint r = 0; r < rounds; ++r) state = state * 1664525u + 1013904223u;
  out[get_global_id(0)] = state;
}
)CLC";
  constexpr std::size_t items = 4096;
  const cl::Program program = build_program(context, device, source);
  if (program() == nullptr) return false;
  cl::Kernel kernel(program, "spin");
  cl_int status = CL_SUCCESS;
  cl::Buffer out(context, CL_MEM_WRITE_ONLY, items * sizeof(cl_uint), nullptr, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  cl::CommandQueue queue(context, device, 0, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(kernel.setArg(0, out), CL_SUCCESS);
  EXPECT_EQ(kernel.setArg(1, cl_uint{20000}), CL_SUCCESS);
  cl::Event done;
  EXPECT_EQ(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NullRange,
                                       nullptr, &done),
            CL_SUCCESS);
  const bool ran = done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE;
  EXPECT_EQ(queue.finish(), CL_SUCCESS);
  return ran;
}

// A user event that holds back the commands waiting for it until `open()`: a command behind it
// cannot have run, so its event is not complete and its memory untouched. Opened at the end of
// the scope too, so that a failed assertion cannot leave a queue waiting forever.
class Gate {
 public:
  explicit Gate(const cl::Context& context) : event_(context, &status_) {}
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;
  ~Gate() { open(); }

  // CL_SUCCESS when the user event was made.
  cl_int status() const { return status_; }
  const cl::UserEvent& event() const { return event_; }
  void open() {
    if (!opened_ && status_ == CL_SUCCESS) event_.setStatus(CL_COMPLETE);
    opened_ = true;
  }

 private:
  cl_int status_ = CL_SUCCESS;
  cl::UserEvent event_;
  bool opened_ = false;
};

// The execution status of the command behind `event`.
inline cl_int execution_status(const cl::Event& event) {
  return event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
}

}  // namespace polydev::testing::pools_support
