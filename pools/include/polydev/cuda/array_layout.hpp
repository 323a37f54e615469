#pragma once

/// @file
/// The array layout of the typed host arrays that `PageLockedMemoryPool::allocate(shape, dtype,
/// order)` hands out, under its CUDA names: the backend-neutral one of
/// `polydev/pools/array_layout.hpp`.

#include "polydev/pools/array_layout.hpp"

namespace polydev::cuda {

using pools::ArrayLayout;
using pools::make_layout;
using pools::Order;
using pools::parse_order;

}  // namespace polydev::cuda
