#pragma once

/// @file
/// The live OpenCL system: the process-wide inventory together with the driver handles behind it.
/// Needs the OpenCL backend (`POLYDEV_WITH_OPENCL`) and the Khronos C++ bindings.

#include <CL/opencl.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "polydev/opencl/inventory.hpp"

namespace polydev::opencl {

/// Enumerates once, on first use (thread-safe), and keeps the handles for the life of the process.
/// Root platforms and devices are not reference counted in OpenCL, so the handles stay valid.
class System {
 public:
  /// The process-wide system.
  static const System& get();

  /// The inventory as values (what selection works on).
  const Inventory& inventory() const noexcept { return inventory_; }

  /// The platform at `index`. @throws std::out_of_range for an index the inventory does not have.
  cl::Platform platform(std::size_t index) const;

  /// The device at `position`. @throws std::out_of_range for a position the inventory lacks.
  cl::Device device(DevicePosition position) const;

  /// Builds a system from a fresh enumeration; `get()` is what code normally wants.
  static System enumerate_now();

 private:
  Inventory inventory_;
  std::vector<cl::Platform> platforms_;
  std::vector<std::vector<cl::Device>> devices_;
};

}  // namespace polydev::opencl

namespace polydev::opencl {

/// PyOpenCL's `create_some_context(interactive=False)`: a context on the device(s) that
/// `PYOPENCL_TEST` / `PYOPENCL_CTX` choose (see `choose_devices`), after clearing the
/// first-argument caches. Warnings of the selection are printed on stderr.
/// @throws polydev::selection_error, polydev::backend_error
cl::Context create_some_context();

/// A queue on `device` in `context` with `properties`, made through the C API that the platform's
/// version calls for (`clCreateCommandQueueWithProperties` from OpenCL 2.0 on), as the bindings'
/// `cl::CommandQueue` constructors choose it, but with the version read safely. It takes the
/// device's handle (`device()` of a `cl::Device`), so that no `cl::Device` need exist.
/// @throws polydev::error when the platform's version is malformed (with the reason),
/// polydev::backend_error or polydev::out_of_memory when the driver refuses the queue
cl::CommandQueue create_queue(const cl::Context& context, cl_device_id device,
                              cl_command_queue_properties properties = 0);

/// A new context on `device` alone, after clearing the first-argument caches (PyOpenCL's
/// `ctx_factory()`). @throws polydev::backend_error, polydev::out_of_memory
cl::Context create_context(const cl::Device& device);

}  // namespace polydev::opencl
