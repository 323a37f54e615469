#pragma once

/// @file
/// An allocator of the user's behind virtual calls: what `BufferAllocator` and `AnySVMAllocator`
/// hold so that one `MemoryPool` type and one `SVMPool` type take any allocator of the concept
/// (polydev/pools/pool.hpp), as PyOpenCL's pools take any `AllocatorBase`.

#include <CL/opencl.hpp>
#include <cstddef>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "polydev/pools/detail/allocator_traits.hpp"

namespace polydev::opencl::detail {

template <typename Allocator, typename = void>
struct has_is_deferred : std::false_type {};
template <typename Allocator>
struct has_is_deferred<Allocator,
                       std::void_t<decltype(std::declval<const Allocator&>().is_deferred())>>
    : std::is_convertible<decltype(std::declval<const Allocator&>().is_deferred()), bool> {};

template <typename Allocator, typename = void>
struct has_context : std::false_type {};
template <typename Allocator>
struct has_context<Allocator, std::void_t<decltype(std::declval<const Allocator&>().context())>>
    : std::is_convertible<decltype(std::declval<const Allocator&>().context()), cl::Context> {};

/// The members of the allocator concept (required and optional) for blocks of type `Block`.
template <typename Block>
class AllocatorModel {
 public:
  AllocatorModel() = default;
  AllocatorModel(const AllocatorModel&) = delete;
  AllocatorModel& operator=(const AllocatorModel&) = delete;
  virtual ~AllocatorModel() = default;

  virtual Block allocate(std::size_t bytes) = 0;
  virtual void free(Block block) noexcept = 0;
  /// The allocator's hook; nothing for an allocator without one.
  virtual void hand_out_existing_block(Block& block) = 0;
  /// The allocator's `release_empty_segments()`; nothing for an allocator without one.
  virtual void release_empty_segments() noexcept = 0;
  /// The allocator's `is_deferred()`; false for an allocator without one.
  virtual bool is_deferred() const noexcept = 0;
  /// The allocator's `context()`; an empty context for an allocator without one.
  virtual const cl::Context& context() const noexcept = 0;
  /// The allocator when it is of `type`, else null.
  virtual const void* target(const std::type_info& type) const noexcept = 0;
};

/// `AllocatorModel` of one allocator type, holding the allocator.
template <typename Allocator, typename Block>
class AllocatorOf final : public AllocatorModel<Block> {
 public:
  explicit AllocatorOf(Allocator allocator) : allocator_(std::move(allocator)) {
    if constexpr (has_context<Allocator>::value) context_ = allocator_.context();
  }

  Block allocate(std::size_t bytes) override { return allocator_.allocate(bytes); }
  void free(Block block) noexcept override { allocator_.free(std::move(block)); }
  void hand_out_existing_block(Block& block) override {
    if constexpr (pools::detail::has_hand_out_hook<Allocator, Block>::value) {
      allocator_.hand_out_existing_block(block);
    }
  }
  void release_empty_segments() noexcept override {
    if constexpr (pools::detail::has_release_empty_segments<Allocator>::value) {
      allocator_.release_empty_segments();
    }
  }
  bool is_deferred() const noexcept override {
    if constexpr (has_is_deferred<Allocator>::value) {
      return static_cast<bool>(allocator_.is_deferred());
    } else {
      return false;
    }
  }
  const cl::Context& context() const noexcept override { return context_; }
  const void* target(const std::type_info& type) const noexcept override {
    return type == typeid(Allocator) ? &allocator_ : nullptr;
  }

 private:
  Allocator allocator_;
  cl::Context context_;  // copied once: `context()` hands out a reference
};

}  // namespace polydev::opencl::detail
