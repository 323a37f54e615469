#pragma once

/// @file
/// Allocators of OpenCL buffers, the upstream of `opencl::MemoryPool`: PyOpenCL's
/// `DeferredAllocator` and `ImmediateAllocator`, with the pool's allocator interface (see
/// `polydev/pools/pool.hpp`).
///
/// Both hand out plain `cl::Buffer`s (which own their `cl_mem`), refuse `CL_MEM_USE_HOST_PTR` and
/// `CL_MEM_COPY_HOST_PTR` (a pooled buffer outlives any one host array and is reused for other
/// data), and answer a request of 0 bytes with an empty buffer without calling OpenCL. Failures
/// throw `polydev::out_of_memory` for the out-of-memory codes (the pool then frees what it holds
/// and retries) and `polydev::backend_error` for the others.

#include <CL/opencl.hpp>
#include <cstddef>
#include <utility>
#include <variant>

namespace polydev::opencl {

/// `clCreateBuffer` and nothing else. OpenCL may only promise the memory and fail at its first use,
/// so an out-of-memory condition can surface later, in whatever command touches the buffer first;
/// a pool over this allocator then cannot free held blocks to make room. Cheapest raw allocation.
class DeferredAllocator {
 public:
  using block_type = cl::Buffer;

  /// @throws polydev::error when `flags` contain `CL_MEM_USE_HOST_PTR` or `CL_MEM_COPY_HOST_PTR`.
  explicit DeferredAllocator(cl::Context context, cl_mem_flags flags = CL_MEM_READ_WRITE);

  /// A buffer of exactly `bytes` bytes; an empty `cl::Buffer` for 0.
  /// @throws polydev::out_of_memory, polydev::backend_error
  cl::Buffer allocate(std::size_t bytes) const;

  /// Releases the buffer (the by-value parameter's destructor does).
  void free(cl::Buffer /*block*/) const noexcept {}

  /// True: failures may be reported after allocation (PyOpenCL's `is_deferred()`).
  static constexpr bool is_deferred() noexcept { return true; }

  const cl::Context& context() const noexcept { return context_; }
  cl_mem_flags flags() const noexcept { return flags_; }

 private:
  cl::Context context_;
  cl_mem_flags flags_;
};

/// How `ImmediateAllocator` makes a new buffer resident on its queue's device.
enum class Residency {
  /// `migrate` on devices of OpenCL 1.2 or later, `write` on older ones (PyOpenCL's rule).
  automatic,
  /// `clEnqueueMigrateMemObjects` with `CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED`: no data moves.
  migrate,
  /// A blocking write of up to 4 zero bytes, for drivers without (or with a lazy) migration. Needs
  /// a buffer that the host may write.
  write,
};

/// `clCreateBuffer`, then a command on the queue that needs the memory, waited for: a lack of
/// memory is reported by `allocate` itself, where a pool can free held blocks and retry. Each
/// allocation costs a round trip to the device (tens to hundreds of microseconds); pooling hides
/// it.
class ImmediateAllocator {
 public:
  using block_type = cl::Buffer;

  /// The buffers belong to the queue's context; the queue (which keeps its context alive) runs the
  /// residency commands.
  /// @throws polydev::error for host-pointer flags, or for `Residency::write` with flags that
  /// forbid host writes (`CL_MEM_HOST_READ_ONLY`, `CL_MEM_HOST_NO_ACCESS`).
  /// @throws polydev::backend_error when the queue cannot be queried.
  explicit ImmediateAllocator(cl::CommandQueue queue, cl_mem_flags flags = CL_MEM_READ_WRITE,
                              Residency residency = Residency::automatic);

  /// A resident buffer of exactly `bytes` bytes; an empty `cl::Buffer` for 0 (no OpenCL call).
  /// @throws polydev::out_of_memory, polydev::backend_error
  cl::Buffer allocate(std::size_t bytes) const;

  /// Releases the buffer (the by-value parameter's destructor does).
  void free(cl::Buffer /*block*/) const noexcept {}

  static constexpr bool is_deferred() noexcept { return false; }

  const cl::Context& context() const noexcept { return context_; }
  const cl::CommandQueue& queue() const noexcept { return queue_; }
  cl_mem_flags flags() const noexcept { return flags_; }

  /// The method in use: `automatic` resolved for the queue's device at construction.
  Residency residency() const noexcept { return residency_; }

 private:
  cl::Context context_;
  cl::CommandQueue queue_;
  cl_mem_flags flags_;
  Residency residency_;
};

/// Either buffer allocator, so that one `MemoryPool` type (and one `PooledBuffer` type) serves
/// both; the choice costs one branch per raw allocation and nothing on the pool's reuse path.
class BufferAllocator {
 public:
  using block_type = cl::Buffer;

  BufferAllocator(DeferredAllocator allocator) : allocator_(std::move(allocator)) {}   // NOLINT
  BufferAllocator(ImmediateAllocator allocator) : allocator_(std::move(allocator)) {}  // NOLINT

  /// What the wrapped allocator returns or throws.
  cl::Buffer allocate(std::size_t bytes) const {
    return std::visit([bytes](const auto& allocator) { return allocator.allocate(bytes); },
                      allocator_);
  }
  void free(cl::Buffer /*block*/) const noexcept {}

  bool is_deferred() const noexcept {
    return std::holds_alternative<DeferredAllocator>(allocator_);
  }
  const cl::Context& context() const noexcept {
    return std::visit(
        [](const auto& allocator) -> const cl::Context& { return allocator.context(); },
        allocator_);
  }

  /// The wrapped allocator, or null when it is of the other kind.
  const DeferredAllocator* deferred() const noexcept {
    return std::get_if<DeferredAllocator>(&allocator_);
  }
  const ImmediateAllocator* immediate() const noexcept {
    return std::get_if<ImmediateAllocator>(&allocator_);
  }

 private:
  std::variant<DeferredAllocator, ImmediateAllocator> allocator_;
};

}  // namespace polydev::opencl
