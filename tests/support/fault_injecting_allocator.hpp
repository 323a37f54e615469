#pragma once

// FaultInjectingAllocator<Upstream>: a test wrapper around any allocator of the pool concept
// (polydev/pools/pool.hpp) that makes chosen allocate() calls fail and enforces a cap on the bytes
// it has live, and counts what reached the upstream allocator, so that a test can drive a
// polydev::pools::Pool over real device memory into its out-of-memory and error paths and check
// that nothing leaks.
//
//   FaultInjectingAllocator<polydev::cuda::DeviceAllocator> faults{DeviceAllocator()};
//   polydev::pools::Pool<FaultInjectingAllocator<DeviceAllocator>> pool(faults);
//   faults.set_byte_cap(faults.counts().live_bytes + 4096);  // the next 4 KiB fit, no more
//   faults.fail_with_out_of_memory_at(faults.next_call());    // ... but the next call fails
//
// Copies share one state (the pool keeps a copy), so the test controls and observes the pool's
// allocator through its own copy. Thread-safe. Needs no GoogleTest.

#include <cstddef>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "polydev/error.hpp"

namespace polydev::testing {

/// What a `FaultInjectingAllocator` (all copies together) has done so far, read at one instant.
struct FaultInjectionCounts {
  std::size_t calls = 0;            ///< allocate() calls, failed ones included (numbered from 1)
  std::size_t injected_faults = 0;  ///< calls failed by the wrapper (chosen calls, byte cap)
  std::size_t allocations = 0;      ///< blocks the upstream allocator handed out
  std::size_t frees = 0;            ///< blocks given back to the upstream allocator
  std::size_t hand_outs = 0;        ///< forwarded `hand_out_existing_block` calls
  std::size_t live_blocks = 0;      ///< allocations - frees
  std::size_t live_bytes = 0;       ///< bytes of the live blocks (and of calls in progress)
  std::size_t unknown_frees = 0;    ///< frees of blocks this wrapper did not allocate (or freed)
};

namespace detail {

template <typename Block, typename = void>
struct has_ptr_member : std::false_type {};
template <typename Block>
struct has_ptr_member<Block, std::void_t<decltype(std::declval<const Block&>().ptr)>>
    : std::true_type {};

template <typename Block, typename = void>
struct has_handle_call : std::false_type {};
template <typename Block>
struct has_handle_call<Block, std::void_t<decltype(std::declval<const Block&>()())>>
    : std::true_type {};

template <typename Allocator, typename Block, typename = void>
struct forwards_hand_out : std::false_type {};
template <typename Allocator, typename Block>
struct forwards_hand_out<Allocator, Block,
                         std::void_t<decltype(std::declval<Allocator&>().hand_out_existing_block(
                             std::declval<Block&>()))>> : std::true_type {};

/// The address that identifies a block: the pointer itself, a block's `ptr` (`SVMBlock`), or the
/// handle of an OpenCL wrapper (`cl::Buffer`'s `cl_mem`).
template <typename Block>
const void* block_identity(const Block& block) {
  if constexpr (std::is_pointer_v<Block>) {
    return block;
  } else if constexpr (has_ptr_member<Block>::value) {
    return block.ptr;
  } else if constexpr (has_handle_call<Block>::value) {
    return static_cast<const void*>(block());
  } else {
    static_assert(std::is_pointer_v<Block>,
                  "FaultInjectingAllocator: teach detail::block_identity this block type");
    return nullptr;
  }
}

}  // namespace detail

template <typename Upstream>
class FaultInjectingAllocator {
 public:
  using block_type = typename Upstream::block_type;
  using upstream_type = Upstream;

  /// The code of the `polydev::backend_error` thrown at a call chosen by
  /// `fail_with_backend_error_at` (backend "FaultInjection", code name "INJECTED_FAILURE").
  static constexpr long injected_error_code = -9999;

  explicit FaultInjectingAllocator(Upstream upstream)
      : upstream_(std::move(upstream)), state_(std::make_shared<State>()) {}

  // --- the allocator concept --------------------------------------------------------------------

  /// Fails as chosen (without calling upstream), else the upstream allocator's block (or error).
  block_type allocate(std::size_t bytes) {
    admit(bytes);  // throws the injected fault, or reserves `bytes` under the cap
    block_type block;
    try {
      block = upstream_.allocate(bytes);
    } catch (...) {
      std::lock_guard<std::mutex> lock(state_->mutex);
      state_->counts.live_bytes -= bytes;
      throw;
    }
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->live.emplace(detail::block_identity(block), bytes);
    ++state_->counts.allocations;
    ++state_->counts.live_blocks;
    return block;
  }

  void free(block_type block) noexcept {
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      const auto found = state_->live.find(detail::block_identity(block));
      if (found == state_->live.end()) {
        ++state_->counts.unknown_frees;
      } else {
        state_->counts.live_bytes -= found->second;
        --state_->counts.live_blocks;
        ++state_->counts.frees;
        state_->freed_sizes.push_back(found->second);
        state_->live.erase(found);
      }
    }
    upstream_.free(std::move(block));
  }

  /// Present exactly when `Upstream` has it (the pool calls it when it hands out a held block).
  template <typename U = Upstream,
            typename = std::enable_if_t<detail::forwards_hand_out<U, block_type>::value>>
  void hand_out_existing_block(block_type& block) {
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      ++state_->counts.hand_outs;
    }
    upstream_.hand_out_existing_block(block);
  }

  // --- faults (calls are numbered from 1 across all copies) -------------------------------------

  /// The number the next allocate() call will have.
  std::size_t next_call() const { return counts().calls + 1; }

  /// allocate() call number `call` throws `polydev::out_of_memory` without calling upstream.
  void fail_with_out_of_memory_at(std::size_t call) const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->out_of_memory_calls.insert(call);
  }

  /// allocate() call number `call` throws `polydev::backend_error` (not an out-of-memory
  /// condition) without calling upstream; see `injected_backend_error`.
  void fail_with_backend_error_at(std::size_t call) const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->backend_error_calls.insert(call);
  }

  /// From now on, an allocate() call that would take the live bytes above `bytes` throws
  /// `polydev::out_of_memory` without calling upstream.
  void set_byte_cap(std::size_t bytes) const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->byte_cap = bytes;
  }

  void remove_byte_cap() const { set_byte_cap(std::numeric_limits<std::size_t>::max()); }

  /// The exception that the call chosen by `fail_with_backend_error_at` throws.
  static backend_error injected_backend_error(std::size_t call, std::size_t bytes) {
    return backend_error(
        "FaultInjection", "FaultInjectingAllocator::allocate", injected_error_code,
        "INJECTED_FAILURE",
        "call " + std::to_string(call) + " of " + std::to_string(bytes) + " bytes");
  }

  // --- observation
  // --------------------------------------------------------------------------------

  FaultInjectionCounts counts() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->counts;
  }

  /// The bytes of every allocate() call, failed ones included, in call order.
  std::vector<std::size_t> requests() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->requests;
  }

  /// The bytes of every block given back to upstream, in order.
  std::vector<std::size_t> freed_sizes() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->freed_sizes;
  }

  const Upstream& upstream() const noexcept { return upstream_; }

 private:
  struct State {
    std::mutex mutex;
    FaultInjectionCounts counts;
    std::set<std::size_t> out_of_memory_calls;
    std::set<std::size_t> backend_error_calls;
    std::size_t byte_cap = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> requests;
    std::vector<std::size_t> freed_sizes;
    std::unordered_multimap<const void*, std::size_t> live;  // block identity -> bytes
  };

  // Numbers the call, throws the fault chosen for it, else counts `bytes` as live (so that
  // concurrent calls cannot overshoot the cap together).
  void admit(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    State& s = *state_;
    const std::size_t call = ++s.counts.calls;
    s.requests.push_back(bytes);
    if (s.backend_error_calls.count(call) != 0) {
      ++s.counts.injected_faults;
      throw injected_backend_error(call, bytes);
    }
    if (s.out_of_memory_calls.count(call) != 0) {
      ++s.counts.injected_faults;
      throw out_of_memory("FaultInjectingAllocator: out-of-memory injected at call " +
                          std::to_string(call) + " (" + std::to_string(bytes) + " bytes)");
    }
    if (bytes > s.byte_cap || s.counts.live_bytes > s.byte_cap - bytes) {
      ++s.counts.injected_faults;
      throw out_of_memory("FaultInjectingAllocator: " + std::to_string(bytes) +
                          " bytes would exceed the cap of " + std::to_string(s.byte_cap) +
                          " bytes (" + std::to_string(s.counts.live_bytes) + " live)");
    }
    s.counts.live_bytes += bytes;
  }

  Upstream upstream_;
  std::shared_ptr<State> state_;
};

}  // namespace polydev::testing
