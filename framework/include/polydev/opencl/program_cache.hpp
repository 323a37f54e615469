#pragma once

/// @file
/// A compiled-program cache keyed by context, source and build options: programs are built once
/// per context, the way PyOpenCL's kernels cached with `first_arg_dependent_memoize` are. Needs the
/// OpenCL backend.

#include <CL/opencl.hpp>
#include <cstddef>
#include <string>
#include <vector>

namespace polydev::opencl {

/// The files a program's source reaches through `#include`, read now: what the keys of both program
/// caches cover besides the source and the options, so that a changed header rebuilds the program
/// (as PyOpenCL's cache follows included files).
///
/// Each `#include "name"` and `#include <name>` of the source and, recursively, of every file
/// reached is looked up where a compiler looks: for a quoted name the including file's folder
/// first (for the source itself, the working folder), then every `-I DIR` / `-IDIR` folder of the
/// options in order (also `-iquote`, `-isystem`, `-idirafter`); an angled name in those folders
/// only; an absolute name as it is. `-include FILE` counts as a quoted include of the source.
/// Every file of that name found along the way is followed, not only the first, because drivers
/// differ on the folder of a source given as text. Directives are found without preprocessing:
/// one in a comment or in `#if 0` code is followed too.
struct ProgramIncludes {
  /// The canonical path of every file reached, once each, in the order first reached.
  std::vector<std::string> files;
  /// Each file's path and content with their lengths: the part of the cache keys.
  std::string key;
  /// Why the program cannot be cached, or empty: an include found in no folder, a file that cannot
  /// be read (not a regular file, no permission, over 16 MiB), a computed `#include MACRO`,
  /// `#include_next`, more than 1024 files or 64 MiB in all, or includes nested over 64 deep.
  std::string problem;
};

/// Scans `source` and the build `options` as `build_program` does before every lookup.
ProgramIncludes program_includes(const std::string& source, const std::string& options);

/// The program built from `source` with `options` for every device of `context`, built on the
/// first call for that (context, source, options, included files) and returned from the cache
/// afterwards. The included files (`program_includes`) are read at every call, so a header changed
/// between two calls gives a new program. A program whose includes cannot all be followed
/// (`ProgramIncludes::problem`) is built from source at every call and kept in neither cache; a
/// warning on stderr says why, once per reason and process.
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
