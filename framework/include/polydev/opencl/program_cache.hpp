#pragma once

/// @file
/// A compiled-program cache keyed by context, source and build options: programs are built once
/// per context, the way PyOpenCL's kernels cached with `first_arg_dependent_memoize` are. Needs the
/// OpenCL backend.

#include <CL/opencl.hpp>
#include <cstddef>
#include <string>

namespace polydev::opencl {

/// The program built from `source` with `options` for every device of `context`, built on the
/// first call for that (context, source, options) and returned from the cache afterwards.
///
/// A first call on a new context takes the program from the binaries of the process-wide
/// `ProgramBinaryCache` (binary_cache.hpp) when it has one for every device of the context, which
/// spares the compiler: on most drivers this is what makes a program cheap for the second and later
/// contexts of a run (tests that make their own with `make_context()`, each process of a suite).
/// Otherwise it builds from source and keeps the binaries. A binary the driver refuses is dropped
/// and the program built from source.
///
/// The cache holds the program and, through it, the context until `clear_first_arg_caches()`;
/// the fixtures' context factory (`polydev::opencl::create_context`) clears it before it makes a
/// new context. A failed build is not cached.
/// @throws polydev::backend_error when the build fails; `what()` carries each device's build log.
/// @throws polydev::error when `POLYDEV_NO_CACHE` has a value other than 0, 1 or empty.
cl::Program build_program(const cl::Context& context, const std::string& source,
                          const std::string& options = {});

/// The program built from `source` with `options` for every device of `context` as
/// `build_program` builds it on a first call (from the binaries of the process-wide
/// `ProgramBinaryCache` when it has them, else from source, keeping the binaries), but not kept
/// for later calls: for a program used once, such as a characterization probe, whose context the
/// cache must not hold. @throws the same as `build_program`.
cl::Program build_program_once(const cl::Context& context, const std::string& source,
                               const std::string& options = {});

/// How many programs the cache holds now (for tests and diagnostics).
std::size_t cached_program_count();

}  // namespace polydev::opencl
