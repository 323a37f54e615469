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
/// and retries) and `polydev::backend_error` for the others. They are callable, as PyOpenCL's
/// allocators are: `allocator(bytes)` is a buffer that owns itself.
///
/// A *buffer allocator* of the user's is any type of the pool's allocator concept whose
/// `block_type` is `cl::Buffer` (`is_buffer_allocator_v`); `BufferAllocator` holds one, so a
/// `MemoryPool` takes it too.

#include <CL/opencl.hpp>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>

#include "polydev/opencl/detail/allocator_model.hpp"
#include "polydev/pools/pool.hpp"

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

  /// `allocate(bytes)`: a buffer that owns itself (PyOpenCL's `allocator(size)`).
  cl::Buffer operator()(std::size_t bytes) const { return allocate(bytes); }

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

  /// `allocate(bytes)`: a buffer that owns itself (PyOpenCL's `allocator(size)`).
  cl::Buffer operator()(std::size_t bytes) const { return allocate(bytes); }

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

/// `allocator_requirements` of the pool's allocator concept, plus: the blocks are `cl::Buffer`s.
template <typename Allocator>
struct buffer_allocator_requirements : pools::allocator_requirements<Allocator> {
  /// `block_type` is `cl::Buffer` (what a `PooledBuffer` holds).
  static constexpr bool makes_buffers =
      std::is_same_v<typename pools::detail::block_type_of<Allocator>::type_or_void, cl::Buffer>;
  /// All of the above.
  static constexpr bool value = pools::allocator_requirements<Allocator>::value && makes_buffers;
};

/// Whether `Allocator` is a buffer allocator: an allocator of the pool's concept
/// (polydev/pools/pool.hpp) whose `block_type` is `cl::Buffer`.
template <typename Allocator>
inline constexpr bool is_buffer_allocator_v = buffer_allocator_requirements<Allocator>::value;

/// Any buffer allocator, so that one `MemoryPool` type (and one `PooledBuffer` type) serves all:
/// a `DeferredAllocator`, an `ImmediateAllocator` (held as they are: the choice costs one branch
/// per raw allocation and nothing on the pool's reuse path), or an allocator of the user's (held
/// behind one virtual call per raw allocation, free and reuse hook). Copies share the user's
/// allocator, as PyOpenCL's pools share theirs. Callable: `allocator(bytes)` is a buffer that owns
/// itself (the wrapped allocator's `free` is not involved; its destructor releases it).
class BufferAllocator {
 public:
  using block_type = cl::Buffer;

  /// Polydev's own allocators, held as they are.
  BufferAllocator(DeferredAllocator allocator) : allocator_(std::move(allocator)) {}   // NOLINT
  BufferAllocator(ImmediateAllocator allocator) : allocator_(std::move(allocator)) {}  // NOLINT

  /// An allocator of the user's (`is_buffer_allocator_v`). Its members are called from any thread
  /// that uses a pool over it, possibly at the same time; its optional members
  /// (`hand_out_existing_block`, `release_empty_segments`, `is_deferred`, `context`) are used when
  /// present. `allocate_from_reserve` is not: a pool over such an allocator is
  /// `pools::Pool<Allocator>`.
  template <typename Allocator,
            // The requirements last, and only asked when the others hold (std::conjunction): for
            // BufferAllocator itself they ask whether it is movable, which is this constructor.
            typename = std::enable_if_t<
                std::conjunction_v<std::negation<std::is_same<Allocator, BufferAllocator>>,
                                   std::negation<std::is_same<Allocator, DeferredAllocator>>,
                                   std::negation<std::is_same<Allocator, ImmediateAllocator>>,
                                   buffer_allocator_requirements<Allocator>>>>
  BufferAllocator(Allocator allocator)  // NOLINT(google-explicit-constructor)
      : allocator_(
            std::make_shared<detail::AllocatorOf<Allocator, cl::Buffer>>(std::move(allocator))) {}

  /// What the wrapped allocator returns or throws.
  cl::Buffer allocate(std::size_t bytes) const {
    if (const auto* deferred = std::get_if<DeferredAllocator>(&allocator_)) {
      return deferred->allocate(bytes);
    }
    if (const auto* immediate = std::get_if<ImmediateAllocator>(&allocator_)) {
      return immediate->allocate(bytes);
    }
    return std::get<Model>(allocator_)->allocate(bytes);
  }

  /// `allocate(bytes)`: a buffer that owns itself (PyOpenCL's `allocator(size)`).
  cl::Buffer operator()(std::size_t bytes) const { return allocate(bytes); }

  /// Gives a pooled block back: to the user's allocator's `free`; for polydev's own allocators the
  /// by-value parameter's destructor releases it.
  void free(cl::Buffer block) const noexcept {
    if (const Model* model = std::get_if<Model>(&allocator_)) (*model)->free(std::move(block));
  }

  /// The user's allocator's hook, when it has one; nothing otherwise.
  void hand_out_existing_block(cl::Buffer& block) const {
    if (const Model* model = std::get_if<Model>(&allocator_)) {
      (*model)->hand_out_existing_block(block);
    }
  }

  /// The user's allocator's `release_empty_segments()`, when it has one; nothing otherwise.
  void release_empty_segments() const noexcept {
    if (const Model* model = std::get_if<Model>(&allocator_)) (*model)->release_empty_segments();
  }

  /// Whether failures may be reported after allocation: true for `DeferredAllocator`; what a
  /// user's allocator's `is_deferred()` says, false when it has none.
  bool is_deferred() const noexcept {
    if (std::holds_alternative<DeferredAllocator>(allocator_)) return true;
    if (const Model* model = std::get_if<Model>(&allocator_)) return (*model)->is_deferred();
    return false;
  }

  /// The context of the buffers; for a user's allocator what its `context()` said when it was
  /// wrapped, an empty context when it has none.
  const cl::Context& context() const noexcept {
    if (const auto* deferred = std::get_if<DeferredAllocator>(&allocator_)) {
      return deferred->context();
    }
    if (const auto* immediate = std::get_if<ImmediateAllocator>(&allocator_)) {
      return immediate->context();
    }
    return std::get<Model>(allocator_)->context();
  }

  /// The wrapped allocator, or null when it is of the other kind.
  const DeferredAllocator* deferred() const noexcept {
    return std::get_if<DeferredAllocator>(&allocator_);
  }
  const ImmediateAllocator* immediate() const noexcept {
    return std::get_if<ImmediateAllocator>(&allocator_);
  }

  /// The wrapped allocator when it is an `Allocator` (polydev's or the user's), else null (as
  /// `std::function::target`).
  template <typename Allocator>
  const Allocator* target() const noexcept {
    if constexpr (std::is_same_v<Allocator, DeferredAllocator>) {
      return deferred();
    } else if constexpr (std::is_same_v<Allocator, ImmediateAllocator>) {
      return immediate();
    } else {
      const Model* model = std::get_if<Model>(&allocator_);
      return model ? static_cast<const Allocator*>((*model)->target(typeid(Allocator))) : nullptr;
    }
  }

 private:
  using Model = std::shared_ptr<detail::AllocatorModel<cl::Buffer>>;
  std::variant<DeferredAllocator, ImmediateAllocator, Model> allocator_;
};

namespace detail {

/// Reached only by a type that is not a buffer allocator (`MemoryPool`'s constructor for other
/// types): each static_assert names a requirement, and at least one fails for such a type.
template <typename Allocator>
BufferAllocator refuse_buffer_allocator() {
  using Requirements = buffer_allocator_requirements<Allocator>;
  static_assert(Requirements::has_block_type,
                "MemoryPool: the allocator has no member type block_type; a buffer allocator has "
                "using block_type = cl::Buffer;");
  static_assert(!Requirements::has_block_type || Requirements::makes_buffers,
                "MemoryPool: the allocator's block_type is not cl::Buffer; a buffer allocator has "
                "using block_type = cl::Buffer; (other blocks: pools::Pool<Allocator>)");
  static_assert(!Requirements::makes_buffers || Requirements::has_allocate,
                "MemoryPool: the allocator needs cl::Buffer allocate(std::size_t bytes)");
  static_assert(!Requirements::makes_buffers || Requirements::has_free,
                "MemoryPool: the allocator needs void free(cl::Buffer block) noexcept");
  static_assert(!Requirements::has_free || Requirements::free_is_noexcept,
                "MemoryPool: the allocator's free(cl::Buffer) must be noexcept (pooled buffers "
                "are returned by destructors)");
  static_assert(Requirements::is_movable, "MemoryPool: the allocator must be move-constructible");
  static_assert(!Requirements::value,
                "MemoryPool: the allocator is a buffer allocator but cannot be copied from the "
                "argument; pass it as an rvalue (std::move)");
  throw std::logic_error("unreachable: the static_asserts above fail for every type");
}

}  // namespace detail

}  // namespace polydev::opencl
