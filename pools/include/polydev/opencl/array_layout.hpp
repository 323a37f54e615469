#pragma once

/// @file
/// The array layout of `svm_empty`'s and `get_host_array`'s arrays under its OpenCL names: the
/// backend-neutral one of `polydev/pools/array_layout.hpp`.

#include "polydev/pools/array_layout.hpp"

namespace polydev::opencl {

using pools::ArrayLayout;
using pools::describe_shape;
using pools::make_layout;
using pools::Order;
using pools::parse_order;

}  // namespace polydev::opencl
