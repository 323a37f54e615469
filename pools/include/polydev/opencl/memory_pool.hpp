#pragma once

/// @file
/// PyOpenCL's `MemoryPool` of OpenCL buffers and its `PooledBuffer`, on polydev's one pool
/// algorithm (`polydev/pools/pool.hpp`: bins, counters, out-of-memory retry, thread safety).

#include <CL/opencl.hpp>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "polydev/error.hpp"
#include "polydev/opencl/buffer_allocators.hpp"
#include "polydev/pools/pool.hpp"

namespace polydev::opencl {

/// A buffer from a `MemoryPool`, returned to it by `release()` or the destructor. Usable where a
/// buffer is: it converts to `const cl::Buffer&` (and so to `const cl::Memory&`) for the C++
/// bindings (`queue.enqueueWriteBuffer(pooled, ...)`, `cl::vector<cl::Memory>{pooled}`,
/// `cl::Buffer(pooled).createSubBuffer(...)`), `get()` gives the `cl_mem` for the C API
/// (`clSetKernelArg(kernel, i, sizeof(cl_mem), &mem)`), and `cl::Kernel::setArg(i, pooled)` takes
/// it directly. Never `setArg(i, pooled.get())`: the bindings pass every pointer, a `cl_mem`
/// included, as an SVM pointer, and the kernel then writes into the driver's own memory object.
/// The conversion to `cl_mem` is explicit: an implicit one next to the `cl::Buffer` one would make
/// `cl::Buffer b(pooled)` ambiguous (`cl::Buffer` has a constructor from `cl_mem` too). The handle
/// is a pool reference, the buffer and the requested size; reading the buffer costs no OpenCL
/// call.
///
/// Returning the buffer does not wait for commands that still use it: finish (or order) them
/// before the release, as with PyOpenCL. A sub-buffer or a retained copy from `buffer()` does not
/// keep the memory out of the pool.
class PooledBuffer : public pools::PooledAllocation<BufferAllocator> {
 public:
  using pools::PooledAllocation<BufferAllocator>::PooledAllocation;

  /// The buffer, retained (an independent `cl::Buffer`); empty once released.
  cl::Buffer buffer() const { return valid() ? block() : cl::Buffer(); }

  /// The buffer itself, for every binding that takes a `const cl::Buffer&` or `const cl::Memory&`;
  /// valid while this handle owns it.
  /// @throws polydev::error once released (an empty buffer would reach OpenCL as a null object).
  operator const cl::Buffer&() const {  // NOLINT(google-explicit-constructor)
    if (!valid()) {
      throw error(
          "PooledBuffer: the buffer was released (or moved from); it can no longer be used as a "
          "cl::Buffer");
    }
    return block();
  }

  /// The buffer as a `cl::Memory`, for the bindings that take memory objects of any kind.
  /// @throws polydev::error once released.
  const cl::Memory& memory() const { return static_cast<const cl::Buffer&>(*this); }

  /// The `cl_mem`, not retained: valid while this handle owns it; null once released.
  cl_mem get() const noexcept { return valid() ? block()() : nullptr; }
  explicit operator cl_mem() const noexcept { return get(); }

  /// The bytes of the buffer itself (`CL_MEM_SIZE`, what PyOpenCL's `PooledBuffer.size` reports):
  /// the request rounded up to its size class. `size()` is the request.
  std::size_t buffer_size() const {
    return valid() ? pool()->bins().alloc_size(pool()->bins().bin_number(size())) : 0;
  }

  /// No-ops, for interface parity with `PooledSVM` (buffers carry no queue).
  void bind_to_queue(const cl::CommandQueue& /*queue*/) const noexcept {}
  void unbind_from_queue() const noexcept {}
};

/// PyOpenCL's `MemoryPool` of OpenCL buffers, over any buffer allocator: a `DeferredAllocator`, an
/// `ImmediateAllocator`, or one of the user's (`is_buffer_allocator_v`: the pool's allocator
/// concept with `cl::Buffer` blocks), all held as a `BufferAllocator`. Prefer the immediate one:
/// only then does a lack of memory surface at allocation, where the pool can free the blocks it
/// holds and retry (PyOpenCL warns about deferred allocators; polydev documents it here instead).
/// Counters, `free_held()`, `stop_holding()` and the size classes are `pools::Pool`'s;
/// `allocator()` is the `BufferAllocator` (`allocator().target<A>()` is the user's allocator of
/// type `A`).
class MemoryPool : public pools::Pool<BufferAllocator, PooledBuffer> {
 public:
  /// @throws std::invalid_argument for a `leading_bits_in_bin_id` above
  /// `pools::BinScheme::max_leading_bits`.
  explicit MemoryPool(BufferAllocator allocator, unsigned leading_bits_in_bin_id = 4)
      : Pool(std::move(allocator), leading_bits_in_bin_id) {}

  /// Any other type does not compile, with a message that names the requirement it misses.
  template <typename Allocator,
            typename = std::enable_if_t<!std::is_convertible_v<Allocator, BufferAllocator> &&
                                        !std::is_base_of_v<MemoryPool, Allocator>>>
  explicit MemoryPool(const Allocator& /*allocator*/, unsigned leading_bits_in_bin_id = 4)
      : MemoryPool(detail::refuse_buffer_allocator<Allocator>(), leading_bits_in_bin_id) {}
};

}  // namespace polydev::opencl

namespace cl::detail {

/// Lets `cl::Kernel::setArg(i, pooled)` pass the `cl_mem`; the bindings' generic handler would pass
/// the bytes of the handle object itself.
template <>
struct KernelArgumentHandler<polydev::opencl::PooledBuffer, void> {
  static size_type size(const polydev::opencl::PooledBuffer&) { return sizeof(cl_mem); }
  static const cl_mem* ptr(const polydev::opencl::PooledBuffer& value) { return &value.block()(); }
};

}  // namespace cl::detail
