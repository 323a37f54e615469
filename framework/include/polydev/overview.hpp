#pragma once

/// @file
/// What this machine has and what the environment selects, for people (a table) and scripts
/// (JSON). The `polydev devices` command and the test main print it.

#include <optional>
#include <string>

#include "polydev/cuda/inventory.hpp"
#include "polydev/cuda/selection.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/selection.hpp"

namespace polydev {

/// Both inventories and the outcome of both selectors. A selector error is kept as text, not
/// thrown, so that the table can still show what exists.
struct Overview {
  opencl::Inventory opencl;
  std::optional<std::string> pyopencl_test;           ///< the selector's text, when set
  std::optional<opencl::Selection> opencl_selection;  ///< empty when the selector is invalid
  std::string opencl_error;                           ///< the selector's error, if any

  cuda::Inventory cuda;
  cuda::DeviceSources cuda_sources;
  std::optional<cuda::Selection> cuda_selection;
  std::string cuda_error;
};

/// Builds the overview from inventories and device-setting sources (pure).
Overview make_overview(opencl::Inventory opencl, std::optional<std::string> pyopencl_test,
                       cuda::Inventory cuda, cuda::DeviceSources cuda_sources);

/// The overview of this process: the live inventories and the real environment.
const Overview& system_overview();

/// A table of every platform and device, each marked selected or not, with the reason.
std::string format_table(const Overview& overview);

/// The `polydev devices --json` document (see README.md for its shape).
std::string format_json(const Overview& overview);

}  // namespace polydev
