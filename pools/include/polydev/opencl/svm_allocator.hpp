#pragma once

/// @file
/// PyOpenCL's `SVMAllocator`: shared virtual memory (OpenCL 2.0) for `opencl::SVMPool`, with the
/// pool's allocator interface (see `polydev/pools/pool.hpp`) and PyOpenCL's queue binding.
///
/// An SVM block may be bound to an in-order queue: its last user. Freeing a bound block is enqueued
/// on that queue (after the work already there); handing a held block out on another queue first
/// makes that queue wait for the old one; handing it out with no queue finishes the old one.

#include <CL/opencl.hpp>
#include <cstddef>
#include <optional>

namespace polydev::opencl {

/// One SVM allocation and the queue it is bound to (null: unbound).
struct SVMBlock {
  void* ptr = nullptr;
  cl::CommandQueue queue;
};

/// `clSVMAlloc` / `clSVMFree` on one context, coarse-grain by default (`CL_MEM_READ_WRITE`);
/// fine-grain with `CL_MEM_SVM_FINE_GRAIN_BUFFER` (and `CL_MEM_SVM_ATOMICS`) in `flags`.
class SVMAllocator {
 public:
  using block_type = SVMBlock;

  /// `alignment` 0 is the driver's default; otherwise a power of two. With a `queue`, new and
  /// reused blocks are bound to it and frees are enqueued on it.
  /// @throws polydev::error when a device of the context lacks the SVM that `flags` ask for (no SVM
  /// at all, or no fine-grain buffers), for a bad alignment, or for a queue that is out of order or
  /// belongs to another context. @throws polydev::backend_error when a query fails.
  explicit SVMAllocator(cl::Context context, cl_uint alignment = 0,
                        cl_svm_mem_flags flags = CL_MEM_READ_WRITE,
                        std::optional<cl::CommandQueue> queue = {});

  /// A block of exactly `bytes` bytes bound to the allocator's queue; a null pointer for 0.
  /// @throws polydev::out_of_memory when `clSVMAlloc` returns null (OpenCL's only failure report),
  /// polydev::backend_error (`CL_INVALID_BUFFER_SIZE`) above the devices' largest allocation.
  SVMBlock allocate(std::size_t bytes) const;

  /// Frees on the block's queue after its work (`clEnqueueSVMFree`, flushed), or at once
  /// (`clSVMFree`) for an unbound block.
  void free(SVMBlock block) const noexcept;

  /// Orders the reuse of a held block after its previous queue: binds it to the allocator's queue
  /// (which first waits, through a marker, for the previous queue), or, without an allocator
  /// queue, finishes the previous queue and unbinds. Never throws: if the marker cannot be
  /// enqueued it finishes the previous queue instead.
  void hand_out_existing_block(SVMBlock& block) const noexcept;

  static constexpr bool is_deferred() noexcept { return false; }

  const cl::Context& context() const noexcept { return context_; }
  cl_uint alignment() const noexcept { return alignment_; }
  cl_svm_mem_flags flags() const noexcept { return flags_; }
  const std::optional<cl::CommandQueue>& queue() const noexcept { return queue_; }

 private:
  cl::Context context_;
  cl_uint alignment_;
  cl_svm_mem_flags flags_;
  std::optional<cl::CommandQueue> queue_;
  cl_ulong max_allocation_ = 0;  // smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE of the context's devices
};

}  // namespace polydev::opencl
