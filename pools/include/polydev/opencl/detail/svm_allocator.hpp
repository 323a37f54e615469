#pragma once

/// @file
/// Queue order for SVM blocks bound to queues (polydev/opencl/svm_allocator.hpp, svm_pool.hpp).

#include <CL/opencl.hpp>

namespace polydev::opencl::detail {

/// @throws polydev::error naming `who` when `queue` is out of order (SVM binding needs the queue's
/// order to stand for "after everything enqueued so far").
void require_in_order(const cl::CommandQueue& queue, const char* who);

/// Makes `next` wait for everything enqueued on `previous` so far (a marker on `previous`, a
/// barrier on `next`). @throws polydev::backend_error
void order_after(const cl::CommandQueue& previous, const cl::CommandQueue& next);

}  // namespace polydev::opencl::detail
