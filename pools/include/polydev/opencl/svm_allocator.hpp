#pragma once

/// @file
/// PyOpenCL's `SVMAllocator` and the `SVMAllocation` it hands out when called: shared virtual
/// memory (OpenCL 2.0), with the pool's allocator interface (see `polydev/pools/pool.hpp`) and
/// PyOpenCL's queue binding. `AnySVMAllocator` holds an `SVMAllocator` or an SVM allocator of the
/// user's, so that one `SVMPool` type takes either.
///
/// SVM memory may be bound to an in-order queue: its last user. Freeing bound memory is enqueued
/// on that queue (after the work already there); handing a held block out on another queue first
/// makes that queue wait for the old one; handing it out with no queue finishes the old one.

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

#include "polydev/opencl/detail/allocator_model.hpp"
#include "polydev/pools/pool.hpp"

namespace polydev::opencl {

/// One SVM allocation and the queue it is bound to (null: unbound).
struct SVMBlock {
  void* ptr = nullptr;
  cl::CommandQueue queue;
};

class SVMAllocation;

namespace detail {

/// `bytes` bytes of SVM on `context` as an owning `SVMAllocation`, with the checks of
/// `SVMAllocator`'s constructor and `allocate`, whose messages start "<who>: ".
SVMAllocation allocate_svm(const cl::Context& context, std::size_t bytes, cl_uint alignment,
                           cl_svm_mem_flags flags, std::optional<cl::CommandQueue> queue,
                           const char* who);

}  // namespace detail

/// PyOpenCL's `SVMAllocation`: SVM owned by this handle, not pooled, freed when it goes. Move-only.
///
/// Freeing follows the queue binding: memory bound to a queue is freed on it, after the work
/// already enqueued there (`clEnqueueSVMFree`), unbound memory at once (`clSVMFree`). Bind the
/// memory to the queue that uses it last, or release it with `enqueue_release(queue)`: SVM is a
/// plain pointer, which OpenCL does not keep alive for commands still using it.
///
/// An allocation of 0 bytes has a null pointer; it is still an allocation until released. Two
/// allocations are equal when they hold the same pointer (PyOpenCL's `SVMPointer` equality), so
/// released handles (null) are equal to each other and to allocations of 0 bytes.
class SVMAllocation {
 public:
  /// Owns nothing (`valid()` is false).
  SVMAllocation() = default;

  /// `size` bytes of SVM on `context`: PyOpenCL's `SVMAllocation(ctx, size, alignment, flags,
  /// queue)`. `alignment` 0 is the driver's default, otherwise a power of two; `flags` as
  /// `SVMAllocator`'s; bound to `queue` if given.
  /// @throws what `SVMAllocator`'s constructor and `allocate` throw (polydev::error for SVM the
  /// context's devices lack, a bad alignment, an out-of-order queue or one of another context;
  /// polydev::out_of_memory; polydev::backend_error).
  explicit SVMAllocation(const cl::Context& context, std::size_t size, cl_uint alignment = 0,
                         cl_svm_mem_flags flags = CL_MEM_READ_WRITE,
                         std::optional<cl::CommandQueue> queue = {});

  SVMAllocation(SVMAllocation&& other) noexcept;
  SVMAllocation& operator=(SVMAllocation&& other) noexcept;
  SVMAllocation(const SVMAllocation&) = delete;
  SVMAllocation& operator=(const SVMAllocation&) = delete;
  ~SVMAllocation();

  /// The SVM pointer (PyOpenCL's `svm_ptr`); null for 0 bytes and once released.
  void* ptr() const noexcept { return block_.ptr; }

  /// The bytes allocated; 0 once released.
  std::size_t size() const noexcept { return size_; }

  /// True until released (or moved from).
  bool valid() const noexcept { return owns_; }

  /// The queue it is bound to, not retained; null when unbound or released (PyOpenCL's `_queue`).
  cl_command_queue queue() const noexcept { return block_.queue(); }

  /// The context the memory belongs to; empty once released.
  const cl::Context& context() const noexcept { return context_; }

  /// Frees the memory now: on the bound queue after its work (enqueued and flushed), or at once
  /// when unbound. The handle owns nothing afterwards.
  /// @throws polydev::error when it was already released.
  void release();

  /// Enqueues the free on the bound queue after `wait_for` (`clEnqueueSVMFree`) and returns its
  /// event (a marker's for 0 bytes). The handle owns nothing afterwards.
  /// @throws polydev::error when released, or when not bound to a queue (pass one);
  /// polydev::backend_error when OpenCL refuses the command (the handle then still owns the
  /// memory).
  cl::Event enqueue_release(const std::vector<cl::Event>& wait_for = {});

  /// Enqueues the free on `queue` after `wait_for`: as above, on a queue of the allocation's
  /// context. When bound to another queue, `queue` first waits for the work enqueued there.
  /// @throws polydev::error when released or for a queue of another context;
  /// polydev::backend_error when OpenCL refuses the commands (the handle then still owns the
  /// memory).
  cl::Event enqueue_release(const cl::CommandQueue& queue,
                            const std::vector<cl::Event>& wait_for = {});

  /// Binds the memory to `queue` (in order, of the allocation's context), from now on its last
  /// user: if it was bound to another queue, `queue` first waits for the work enqueued there.
  /// @throws polydev::error when released, for an out-of-order queue or one of another context;
  /// polydev::backend_error when the ordering commands fail.
  void bind_to_queue(const cl::CommandQueue& queue);

  /// Finishes the bound queue (so that the host may use the memory, and a free need not wait)
  /// and unbinds the memory.
  /// @throws polydev::error when released, polydev::backend_error when `clFinish` fails.
  void unbind_from_queue();

  /// Equal when they hold the same pointer (see the class).
  friend bool operator==(const SVMAllocation& a, const SVMAllocation& b) noexcept {
    return a.ptr() == b.ptr();
  }
  /// Not the same pointer.
  friend bool operator!=(const SVMAllocation& a, const SVMAllocation& b) noexcept {
    return !(a == b);
  }

 private:
  friend class SVMAllocator;
  friend SVMAllocation detail::allocate_svm(const cl::Context&, std::size_t, cl_uint,
                                            cl_svm_mem_flags, std::optional<cl::CommandQueue>,
                                            const char*);

  // Takes over `block` of `size` bytes, allocated on `context`.
  SVMAllocation(cl::Context context, SVMBlock block, std::size_t size) noexcept
      : context_(std::move(context)), block_(std::move(block)), size_(size), owns_(true) {}

  // Throws unless the handle owns memory; `who` names the member for the message.
  void require_owned(const char* who) const;
  // Frees without throwing (the destructor's and move assignment's path).
  void free_now() noexcept;
  // Drops ownership after the memory was freed or its free enqueued.
  void forget() noexcept;

  cl::Context context_;
  SVMBlock block_;
  std::size_t size_ = 0;
  bool owns_ = false;
};

/// `clSVMAlloc` / `clSVMFree` on one context, coarse-grain by default (`CL_MEM_READ_WRITE`);
/// fine-grain with `CL_MEM_SVM_FINE_GRAIN_BUFFER` (and `CL_MEM_SVM_ATOMICS`) in `flags`.
/// `allocate` and `free` are what `SVMPool` uses; a user calls it: `allocator(bytes)` is an
/// `SVMAllocation` (PyOpenCL's `SVMAllocator.__call__`).
class SVMAllocator {
 public:
  using block_type = SVMBlock;

  /// `alignment` 0 is the driver's default; otherwise a power of two. With a `queue`, new and
  /// reused blocks are bound to it and frees are enqueued on it.
  /// @throws polydev::error when a device of the context lacks the SVM that `flags` ask for (no SVM
  /// at all, or no fine-grain buffers: the message gives the device's SVM capabilities), for a bad
  /// alignment, or for a queue that is out of order or belongs to another context.
  /// @throws polydev::backend_error when a query fails.
  explicit SVMAllocator(cl::Context context, cl_uint alignment = 0,
                        cl_svm_mem_flags flags = CL_MEM_READ_WRITE,
                        std::optional<cl::CommandQueue> queue = {});

  /// A block of exactly `bytes` bytes bound to the allocator's queue; a null pointer for 0.
  /// @throws polydev::out_of_memory when `clSVMAlloc` returns null (OpenCL's only failure report),
  /// polydev::backend_error (`CL_INVALID_BUFFER_SIZE`) above the devices' largest allocation.
  SVMBlock allocate(std::size_t bytes) const;

  /// An allocation of exactly `bytes` bytes that owns itself, bound to the allocator's queue; a
  /// null pointer for 0 (PyOpenCL's `allocator(size)`).
  /// @throws what `allocate` throws.
  SVMAllocation operator()(std::size_t bytes) const;

  /// Frees on the block's queue after its work (`clEnqueueSVMFree`, flushed), or at once
  /// (`clSVMFree`) for an unbound block.
  void free(SVMBlock block) const noexcept;

  /// Orders the reuse of a held block after its previous queue: binds it to the allocator's queue
  /// (which first waits, through a marker, for the previous queue), or, without an allocator
  /// queue, finishes the previous queue and unbinds. Never throws: if the marker cannot be
  /// enqueued it finishes the previous queue instead.
  void hand_out_existing_block(SVMBlock& block) const noexcept;

  /// False: failures are reported by `allocate` itself (PyOpenCL's `is_deferred()`).
  static constexpr bool is_deferred() noexcept { return false; }

  /// The context, alignment, flags and queue it was made with.
  const cl::Context& context() const noexcept { return context_; }
  cl_uint alignment() const noexcept { return alignment_; }
  cl_svm_mem_flags flags() const noexcept { return flags_; }
  const std::optional<cl::CommandQueue>& queue() const noexcept { return queue_; }

 private:
  friend SVMAllocation detail::allocate_svm(const cl::Context&, std::size_t, cl_uint,
                                            cl_svm_mem_flags, std::optional<cl::CommandQueue>,
                                            const char*);

  SVMAllocator(cl::Context context, cl_uint alignment, cl_svm_mem_flags flags,
               std::optional<cl::CommandQueue> queue, const char* who);
  SVMBlock allocate(std::size_t bytes, const char* who) const;

  cl::Context context_;
  cl_uint alignment_;
  cl_svm_mem_flags flags_;
  std::optional<cl::CommandQueue> queue_;
  cl_ulong max_allocation_ = 0;  // smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE of the context's devices
};

/// `allocator_requirements` of the pool's allocator concept, plus: the blocks are `SVMBlock`s.
template <typename Allocator>
struct svm_allocator_requirements : pools::allocator_requirements<Allocator> {
  /// `block_type` is `SVMBlock` (what a `PooledSVM` holds).
  static constexpr bool makes_svm_blocks =
      std::is_same_v<typename pools::detail::block_type_of<Allocator>::type_or_void, SVMBlock>;
  /// All of the above.
  static constexpr bool value = pools::allocator_requirements<Allocator>::value && makes_svm_blocks;
};

/// Whether `Allocator` is an SVM allocator: an allocator of the pool's concept
/// (polydev/pools/pool.hpp) whose `block_type` is `SVMBlock`. Its `free` gets blocks with the queue
/// binding of their last holder (`PooledSVM::bind_to_queue` changes it); its
/// `hand_out_existing_block`, if any, orders their reuse (see `SVMAllocator`'s).
template <typename Allocator>
inline constexpr bool is_svm_allocator_v = svm_allocator_requirements<Allocator>::value;

/// Any SVM allocator, so that one `SVMPool` type (and one `PooledSVM` type) serves all: an
/// `SVMAllocator` (held as it is) or an allocator of the user's (held behind one virtual call per
/// raw allocation, free and reuse). Copies share the user's allocator, as PyOpenCL's pools share
/// theirs.
class AnySVMAllocator {
 public:
  using block_type = SVMBlock;

  /// Polydev's own allocator, held as it is.
  AnySVMAllocator(SVMAllocator allocator)  // NOLINT(google-explicit-constructor)
      : allocator_(std::move(allocator)) {}

  /// An allocator of the user's (`is_svm_allocator_v`). Its members are called from any thread
  /// that uses a pool over it, possibly at the same time; its optional members
  /// (`hand_out_existing_block`, `release_empty_segments`, `is_deferred`, `context`) are used when
  /// present. `allocate_from_reserve` is not: a pool over such an allocator is
  /// `pools::Pool<Allocator>`.
  template <typename Allocator,
            // The requirements last, and only asked when the others hold (std::conjunction): for
            // AnySVMAllocator itself they ask whether it is movable, which is this constructor.
            typename = std::enable_if_t<
                std::conjunction_v<std::negation<std::is_same<Allocator, AnySVMAllocator>>,
                                   std::negation<std::is_same<Allocator, SVMAllocator>>,
                                   svm_allocator_requirements<Allocator>>>>
  AnySVMAllocator(Allocator allocator)  // NOLINT(google-explicit-constructor)
      : allocator_(
            std::make_shared<detail::AllocatorOf<Allocator, SVMBlock>>(std::move(allocator))) {}

  /// What the wrapped allocator returns or throws.
  SVMBlock allocate(std::size_t bytes) const {
    if (const auto* svm = std::get_if<SVMAllocator>(&allocator_)) return svm->allocate(bytes);
    return std::get<Model>(allocator_)->allocate(bytes);
  }

  /// Gives a block back to the wrapped allocator.
  void free(SVMBlock block) const noexcept {
    if (const auto* svm = std::get_if<SVMAllocator>(&allocator_)) {
      svm->free(std::move(block));
    } else {
      std::get<Model>(allocator_)->free(std::move(block));
    }
  }

  /// The wrapped allocator's hook; nothing for a user's allocator without one.
  void hand_out_existing_block(SVMBlock& block) const {
    if (const auto* svm = std::get_if<SVMAllocator>(&allocator_)) {
      svm->hand_out_existing_block(block);
    } else {
      std::get<Model>(allocator_)->hand_out_existing_block(block);
    }
  }

  /// The user's allocator's `release_empty_segments()`, when it has one; nothing otherwise.
  void release_empty_segments() const noexcept {
    if (const Model* model = std::get_if<Model>(&allocator_)) (*model)->release_empty_segments();
  }

  /// False for `SVMAllocator`; what a user's allocator's `is_deferred()` says, false when it has
  /// none.
  bool is_deferred() const noexcept {
    const Model* model = std::get_if<Model>(&allocator_);
    return model != nullptr && (*model)->is_deferred();
  }

  /// The context of the memory; for a user's allocator what its `context()` said when it was
  /// wrapped, an empty context when it has none.
  const cl::Context& context() const noexcept {
    if (const auto* svm = std::get_if<SVMAllocator>(&allocator_)) return svm->context();
    return std::get<Model>(allocator_)->context();
  }

  /// The wrapped allocator when it is an `Allocator` (`SVMAllocator` or the user's), else null.
  template <typename Allocator>
  const Allocator* target() const noexcept {
    if constexpr (std::is_same_v<Allocator, SVMAllocator>) {
      return std::get_if<SVMAllocator>(&allocator_);
    } else {
      const Model* model = std::get_if<Model>(&allocator_);
      return model ? static_cast<const Allocator*>((*model)->target(typeid(Allocator))) : nullptr;
    }
  }

 private:
  using Model = std::shared_ptr<detail::AllocatorModel<SVMBlock>>;
  std::variant<SVMAllocator, Model> allocator_;
};

namespace detail {

/// Reached only by a type that is not an SVM allocator (`SVMPool`'s constructor for other types):
/// each static_assert names a requirement, and at least one fails for such a type.
template <typename Allocator>
AnySVMAllocator refuse_svm_allocator() {
  using Requirements = svm_allocator_requirements<Allocator>;
  static_assert(Requirements::has_block_type,
                "SVMPool: the allocator has no member type block_type; an SVM allocator has "
                "using block_type = polydev::opencl::SVMBlock;");
  static_assert(!Requirements::has_block_type || Requirements::makes_svm_blocks,
                "SVMPool: the allocator's block_type is not polydev::opencl::SVMBlock (other "
                "blocks: pools::Pool<Allocator>)");
  static_assert(!Requirements::makes_svm_blocks || Requirements::has_allocate,
                "SVMPool: the allocator needs SVMBlock allocate(std::size_t bytes)");
  static_assert(!Requirements::makes_svm_blocks || Requirements::has_free,
                "SVMPool: the allocator needs void free(SVMBlock block) noexcept");
  static_assert(!Requirements::has_free || Requirements::free_is_noexcept,
                "SVMPool: the allocator's free(SVMBlock) must be noexcept (pooled blocks are "
                "returned by destructors)");
  static_assert(Requirements::is_movable, "SVMPool: the allocator must be move-constructible");
  static_assert(!Requirements::value,
                "SVMPool: the allocator is an SVM allocator but cannot be copied from the "
                "argument; pass it as an rvalue (std::move)");
  throw std::logic_error("unreachable: the static_asserts above fail for every type");
}

}  // namespace detail

}  // namespace polydev::opencl

namespace std {

/// Hashes an `SVMAllocation` by its pointer, as its equality compares.
template <>
struct hash<polydev::opencl::SVMAllocation> {
  std::size_t operator()(const polydev::opencl::SVMAllocation& allocation) const noexcept {
    return std::hash<void*>()(allocation.ptr());
  }
};

}  // namespace std
