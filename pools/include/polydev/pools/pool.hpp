#pragma once

/// @file
/// The one pool algorithm behind every polydev pool (OpenCL buffers, OpenCL SVM, CUDA device and
/// page-locked memory): PyOpenCL's and PyCUDA's `memory_pool`, made thread-safe.
///
/// An *allocator* provides the memory. It is a movable type with
/// - `using block_type = ...;` a cheap handle to one allocation (a `cl_mem`, a pointer, ...),
///   default-constructible (the empty handle) and movable;
/// - `block_type allocate(std::size_t bytes);` which throws `polydev::out_of_memory` when memory is
///   short (the pool then frees what it holds and retries) and anything else for other failures
///   (passed through unchanged);
/// - `void free(block_type block) noexcept;`
///
/// The pool remembers each block's size class, so a block need not know its size. It calls
/// `allocate`, `free` and the hook below outside its locks, from whichever threads use the pool,
/// possibly at the same time: they must be safe to call concurrently. `allocator_requirements`
/// and `is_allocator_v` tell whether a type meets these requirements; the optional members below
/// are detected where they are used.
/// - optionally `void hand_out_existing_block(block_type& block);`, called when a held block is
///   handed out again (SVM uses it to order the reuse after the block's previous queue);
/// - optionally `std::optional<block_type> allocate_from_reserve(std::size_t bytes);`, a block
///   from memory the allocator already has, without growing (`Arena`). For such an allocator a
///   miss that the reserve cannot serve first gives every held block back to the allocator, where
///   blocks of all classes merge, and tries the reserve again before `allocate` grows it;
/// - optionally `void release_empty_segments() noexcept;` (any return type), called by
///   `free_held()` after the held blocks went back, so that an allocator that keeps memory of its
///   own (`Arena`) returns what is now unused to the driver too.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/pools/bins.hpp"
#include "polydev/pools/detail/allocator_traits.hpp"
#include "polydev/pools/detail/bin_table.hpp"
#include "polydev/pools/detail/cache_line.hpp"
#include "polydev/pools/detail/spin_lock.hpp"
#include "polydev/pools/detail/thread_number.hpp"

namespace polydev::pools {

namespace detail {

template <typename Allocator, typename = void>
struct block_type_of {
  static constexpr bool exists = false;
  using type_or_void = void;
};
template <typename Allocator>
struct block_type_of<Allocator, std::void_t<typename Allocator::block_type>> {
  static constexpr bool exists = true;
  using type_or_void = typename Allocator::block_type;
};

template <typename Allocator, typename = void>
struct allocate_member : std::false_type {};
template <typename Allocator>
struct allocate_member<Allocator,
                       std::void_t<typename Allocator::block_type,
                                   decltype(std::declval<Allocator&>().allocate(std::size_t{}))>>
    : std::is_convertible<decltype(std::declval<Allocator&>().allocate(std::size_t{})),
                          typename Allocator::block_type> {};

template <typename Allocator, typename = void>
struct free_member {
  static constexpr bool exists = false;
  static constexpr bool is_noexcept = false;
};
template <typename Allocator>
struct free_member<Allocator, std::void_t<decltype(std::declval<Allocator&>().free(
                                  std::declval<typename Allocator::block_type>()))>> {
  static constexpr bool exists = true;
  static constexpr bool is_noexcept =
      noexcept(std::declval<Allocator&>().free(std::declval<typename Allocator::block_type>()));
};

template <typename Allocator, bool = block_type_of<Allocator>::exists>
struct block_is_handle : std::false_type {};
template <typename Allocator>
struct block_is_handle<Allocator, true>
    : std::bool_constant<std::is_default_constructible_v<typename Allocator::block_type> &&
                         std::is_move_constructible_v<typename Allocator::block_type> &&
                         std::is_move_assignable_v<typename Allocator::block_type>> {};

}  // namespace detail

/// The required part of the allocator concept described at the top of this header, one member per
/// requirement, so that a check can say which one a type misses (C++17 has no concepts).
template <typename Allocator>
struct allocator_requirements {
  /// `Allocator::block_type` names a type.
  static constexpr bool has_block_type = detail::block_type_of<Allocator>::exists;
  /// That type is default-constructible and movable.
  static constexpr bool block_is_handle = detail::block_is_handle<Allocator>::value;
  /// `allocate(std::size_t)` (on a non-const allocator) returns a `block_type`.
  static constexpr bool has_allocate = detail::allocate_member<Allocator>::value;
  /// `free(block_type)` exists (on a non-const allocator)...
  static constexpr bool has_free = detail::free_member<Allocator>::exists;
  /// ...and is `noexcept` (blocks are freed in destructors).
  static constexpr bool free_is_noexcept = detail::free_member<Allocator>::is_noexcept;
  /// The allocator itself can be moved into the pool.
  static constexpr bool is_movable = std::is_move_constructible_v<Allocator>;
  /// All of the above.
  static constexpr bool value = has_block_type && block_is_handle && has_allocate && has_free &&
                                free_is_noexcept && is_movable;
};

/// Whether `Allocator` meets the allocator concept (its required members).
template <typename Allocator>
inline constexpr bool is_allocator_v = allocator_requirements<Allocator>::value;

/// Counters of a pool, read together under its lock.
struct PoolCounters {
  std::size_t held_blocks = 0;    ///< blocks kept for reuse
  std::size_t active_blocks = 0;  ///< blocks handed out and not yet returned
  std::size_t managed_bytes = 0;  ///< bytes of every block the pool owns (held or active), rounded
  std::size_t active_bytes = 0;   ///< bytes requested by the active blocks, not rounded
};

/// The shared state of one pool. It lives while a `Pool` object refers to it or a block it handed
/// out is active.
///
/// Held blocks and counters are split into shards, one per hardware thread (rounded up to a power
/// of two), each with its own lock on its own cache lines: a thread allocates from and returns to
/// its shard (its number modulo the shard count; threads alive at once have distinct numbers, see
/// thread_number.hpp), so threads that allocate and free at once do not contend, and a single
/// thread pays one uncontended lock per operation. A thread whose shard has no block of the bin
/// takes one from another shard before asking the allocator, so blocks freed by one thread serve
/// the others. The counters are the sums over the shards, exact whenever no operation is in flight.
///
/// Lifetime: while a `Pool` object refers to the state, returned blocks are held; when the last
/// one goes (under `lifetime_`), held blocks are freed and blocks returned later go straight back
/// to the allocator, each return deciding under `lifetime_` whether it was the last; the last
/// deletes the state.
///
/// The state itself starts on a cache-line boundary and spans whole lines: every operation reads
/// its fields, and a heap that put another object on the same line (a driver's or a benchmark's,
/// written by another thread) would make each operation fetch the line again.
template <typename Allocator>
class alignas(detail::false_sharing_range) PoolCore {
 public:
  using block_type = typename Allocator::block_type;

  /// A new state with one owner (the calling `Pool`).
  static PoolCore* create(Allocator allocator, unsigned leading_bits_in_bin_id) {
    return new PoolCore(std::move(allocator), leading_bits_in_bin_id);
  }

  PoolCore(const PoolCore&) = delete;
  PoolCore& operator=(const PoolCore&) = delete;

  /// One more `Pool` object refers to this state.
  void add_owner() noexcept {
    std::lock_guard<std::mutex> lock(lifetime_);
    ++owners_;
  }

  /// A `Pool` object lets go; the state may be deleted by this call.
  void drop_owner() noexcept {
    bool unused = false;
    {
      std::lock_guard<std::mutex> lock(lifetime_);
      if (--owners_ > 0) return;
      holding_.store(false, std::memory_order_relaxed);  // nothing can reuse a block any more
      free_held();
      unused = counters().active_blocks == 0;
    }
    if (unused) delete this;
  }

  /// A block of at least `size` bytes (exactly `alloc_size(bin_number(size))`): the most recently
  /// returned block of the same bin in this thread's shard, else one of another shard, else a new
  /// one. On out-of-memory, frees held blocks one at a time, largest first, retrying after each,
  /// then throws `polydev::out_of_memory` with the request and the counters.
  /// `bin` is `bins().bin_number(size)`, which the caller has already computed (it keeps it to
  /// return the block).
  block_type allocate(std::size_t size, std::uint32_t bin) {
    const unsigned own_index = own_shard_index();
    Shard& own = shards_[own_index];
    block_type reused{};
    if (take_held(own_index, bin, size, reused)) return hand_out(std::move(reused), size, bin);
    const std::size_t bytes = bins_scheme_.alloc_size(bin);
    const auto count_new = [&](block_type&& block) {
      std::lock_guard<detail::SpinLock> lock(own.lock);
      ++own.counters.active_blocks;
      own.counters.managed_bytes += bytes;
      own.counters.active_bytes += size;
      return std::move(block);
    };
    if constexpr (detail::has_reserve<Allocator>::value) {
      if (auto block = allocator_.allocate_from_reserve(bytes)) return count_new(std::move(*block));
      if (release_held(/*skip_shards_that_look_empty=*/true)) {
        if (auto block = allocator_.allocate_from_reserve(bytes)) {
          return count_new(std::move(*block));
        }
      }
    }
    while (true) {
      try {
        return count_new(allocator_.allocate(bytes));
      } catch (const out_of_memory& failure) {
        // Another thread may have returned a block of this bin meanwhile.
        if (take_held(own_index, bin, size, reused)) return hand_out(std::move(reused), size, bin);
        if (!free_largest_held()) throw_out_of_memory(size, bytes, failure);
      }
    }
  }

  /// Returns a block handed out for a request of `size` bytes. Never throws. May delete the
  /// state (when no `Pool` refers to it and this was its last active block).
  /// `bin` is the one the block was allocated in.
  void free(block_type block, std::size_t size, std::uint32_t bin) noexcept {
    Shard& own = shards_[own_shard_index()];
    {
      std::lock_guard<detail::SpinLock> lock(own.lock);
      // Read under the shard's lock: `stop_holding` and `drop_owner` clear it before they sweep
      // the shards, so a block pushed here is either swept or was never pushed.
      if (holding_.load(std::memory_order_relaxed)) {
        try {
          own.hold(bin, std::move(block));
          --own.counters.active_blocks;
          own.counters.active_bytes -= size;
          return;
        } catch (const std::bad_alloc&) {
          // No heap left to remember the block: it goes back to the allocator, as below.
        }
      }
    }
    allocator_.free(std::move(block));
    bool unused = false;
    {
      // Not holding: the state may have no owner, and the last return deletes it. Counting the
      // block out and deciding happen under one lock, so exactly one return sees zero.
      std::lock_guard<std::mutex> lifetime(lifetime_);
      {
        std::lock_guard<detail::SpinLock> lock(own.lock);
        --own.counters.active_blocks;
        own.counters.active_bytes -= size;
        own.counters.managed_bytes -= bins_scheme_.alloc_size(bin);
      }
      unused = owners_ == 0 && counters().active_blocks == 0;
    }
    if (unused) delete this;
  }

  /// Frees every held block (of every shard). Active blocks are not affected.
  void free_held() noexcept {
    release_held(/*skip_shards_that_look_empty=*/false);
    if constexpr (detail::has_release_empty_segments<Allocator>::value) {
      allocator_.release_empty_segments();
    }
  }

  /// Frees every held block and, from now on, every returned block. Irreversible.
  void stop_holding() noexcept {
    holding_.store(false, std::memory_order_relaxed);
    free_held();
  }

  /// The sums over the shards; a shard's own counts may wrap (a block handed out by one shard and
  /// returned to another), their sums do not.
  PoolCounters counters() const {
    PoolCounters total;
    for (unsigned i = 0; i < shard_count_; ++i) {
      const Shard& shard = shards_[i];
      std::lock_guard<detail::SpinLock> lock(shard.lock);
      total.held_blocks += shard.counters.held_blocks;
      total.active_blocks += shard.counters.active_blocks;
      total.managed_bytes += shard.counters.managed_bytes;
      total.active_bytes += shard.counters.active_bytes;
    }
    return total;
  }

  const BinScheme& bins() const noexcept { return bins_scheme_; }
  const Allocator& allocator() const noexcept { return allocator_; }

 private:
  // One lock, the held blocks it guards and their counters, alone on their cache lines.
  using Blocks = typename detail::BinTable<block_type>::Blocks;

  // On lines of its own (see `detail::false_sharing_range`).
  struct alignas(detail::false_sharing_range) Shard {
    mutable detail::SpinLock lock;
    detail::BinTable<block_type> bins;
    PoolCounters counters;
    // Whether `counters.held_blocks` is non-zero, readable without the lock: a miss skips the
    // shards that hold nothing instead of locking each of them (up to 64) in turn. A stale value
    // only costs a new allocation or one lock, as losing a race for a block would. Kept by
    // `hold`, `unhold` and `free_held`, the only places that change the held count.
    std::atomic<bool> holds_blocks{false};

    // Under `lock`: keeps `block` in `bin`. May throw std::bad_alloc; then nothing changed and
    // `block` was not moved from.
    void hold(std::uint32_t bin, block_type&& block) {
      bins.push(bin, std::move(block));
      ++counters.held_blocks;
      holds_blocks.store(true, std::memory_order_relaxed);
    }
    // Under `lock`: moves the most recently held block of `bin` into `block`; false if none.
    bool unhold(std::uint32_t bin, block_type& block) {
      if (!bins.pop(bin, block)) return false;
      --counters.held_blocks;
      holds_blocks.store(counters.held_blocks != 0, std::memory_order_relaxed);
      return true;
    }
  };

  static unsigned shard_count_for_this_machine() noexcept {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    unsigned count = 1;
    while (count < threads && count < 64) count *= 2;
    return count;
  }

  PoolCore(Allocator allocator, unsigned leading_bits_in_bin_id)
      : allocator_(std::move(allocator)),
        bins_scheme_(leading_bits_in_bin_id),
        shard_count_(shard_count_for_this_machine()),
        shards_(new Shard[shard_count_]) {}
  ~PoolCore() = default;

  unsigned own_shard_index() const noexcept {
    return detail::this_thread_number() & (shard_count_ - 1);
  }

  // Moves a held block of `bin` into `block`, counted out in the shard it comes from: shard
  // `first` (this thread's) first. False when no shard holds one.
  bool take_held(unsigned first, std::uint32_t bin, std::size_t size, block_type& block) {
    for (unsigned i = 0; i < shard_count_; ++i) {
      Shard& shard = shards_[(first + i) & (shard_count_ - 1)];
      if (i != 0 && !shard.holds_blocks.load(std::memory_order_relaxed)) continue;
      std::lock_guard<detail::SpinLock> lock(shard.lock);
      if (!shard.unhold(bin, block)) continue;
      ++shard.counters.active_blocks;
      shard.counters.active_bytes += size;
      return true;
    }
    return false;
  }

  // Frees held blocks shard by shard. Locking every shard is what `drop_owner` and
  // `stop_holding` rely on: a return that pushed a block before a shard's lock was taken here is
  // seen, and one after it sees `holding_` false. A miss that only wants memory back (the reserve
  // path of `allocate`) may skip the shards whose flag says they hold nothing. True when it
  // gave any block back.
  bool release_held(bool skip_shards_that_look_empty) noexcept {
    std::vector<block_type> released;
    bool freed_at_once = false;
    for (unsigned i = 0; i < shard_count_; ++i) {
      Shard& shard = shards_[i];
      if (skip_shards_that_look_empty && !shard.holds_blocks.load(std::memory_order_relaxed)) {
        continue;
      }
      std::lock_guard<detail::SpinLock> lock(shard.lock);
      shard.bins.drain([&](std::uint32_t bin, Blocks& blocks) {
        shard.counters.managed_bytes -= blocks.size() * bins_scheme_.alloc_size(bin);
        shard.counters.held_blocks -= blocks.size();
        for (auto& block : blocks) {
          try {
            released.push_back(std::move(block));
          } catch (const std::bad_alloc&) {
            // No heap for the list: this block goes back now, under the shard's lock.
            allocator_.free(std::move(block));
            freed_at_once = true;
          }
        }
      });
      shard.holds_blocks.store(false, std::memory_order_relaxed);
    }
    for (auto& block : released) allocator_.free(std::move(block));
    return freed_at_once || !released.empty();
  }

  // A hook that throws must not lose the block: it goes back to the pool before the error
  // reaches the caller.
  block_type hand_out(block_type block, std::size_t size, std::uint32_t bin) {
    if constexpr (detail::has_hand_out_hook<Allocator, block_type>::value) {
      try {
        allocator_.hand_out_existing_block(block);
      } catch (...) {
        free(std::move(block), size, bin);
        throw;
      }
    }
    return block;
  }

  // Frees one block of the highest non-empty bin of all shards; false when nothing is held.
  bool free_largest_held() {
    while (true) {
      Shard* largest = nullptr;
      std::uint32_t largest_bin = 0;
      for (unsigned i = 0; i < shard_count_; ++i) {
        std::uint32_t bin = 0;
        std::lock_guard<detail::SpinLock> lock(shards_[i].lock);
        if (shards_[i].bins.highest_nonempty(bin) && (!largest || bin > largest_bin)) {
          largest = &shards_[i];
          largest_bin = bin;
        }
      }
      if (!largest) return false;
      block_type block;
      {
        std::lock_guard<detail::SpinLock> lock(largest->lock);
        if (!largest->unhold(largest_bin, block)) continue;  // taken meanwhile: look again
        largest->counters.managed_bytes -= bins_scheme_.alloc_size(largest_bin);
      }
      allocator_.free(std::move(block));
      return true;
    }
  }

  [[noreturn]] void throw_out_of_memory(std::size_t size, std::size_t bytes,
                                        const out_of_memory& failure) const {
    const PoolCounters c = counters();
    throw out_of_memory(
        "pool allocation of " + std::to_string(size) + " bytes (" + std::to_string(bytes) +
        " with rounding) failed after freeing every held block: " + failure.what() +
        "; pool: " + std::to_string(c.active_blocks) + " active blocks of " +
        std::to_string(c.active_bytes) + " bytes, " + std::to_string(c.managed_bytes) +
        " bytes managed, " + std::to_string(c.held_blocks) + " held");
  }

  Allocator allocator_;
  BinScheme bins_scheme_;
  unsigned shard_count_;
  std::unique_ptr<Shard[]> shards_;
  std::mutex lifetime_;  // owners_, and the decision to delete once no `Pool` refers to the state
  std::size_t owners_ = 1;
  std::atomic<bool> holding_{true};
};

/// A block handed out by a pool: returned to it once, by `release()` or by the destructor.
/// Move-only. The pool's state lives as long as any of its blocks (see `PoolCore`).
template <typename Allocator>
class PooledAllocation {
 public:
  using block_type = typename Allocator::block_type;

  PooledAllocation() = default;
  /// Used by the pool: `block` of `pool`, handed out for a request of `size` bytes in `bin`.
  PooledAllocation(PoolCore<Allocator>* pool, block_type block, std::size_t size, std::uint32_t bin)
      : pool_(pool), block_(std::move(block)), size_(size), bin_(bin) {}
  PooledAllocation(PooledAllocation&& other) noexcept
      : pool_(std::exchange(other.pool_, nullptr)),
        block_(std::move(other.block_)),
        size_(other.size_),
        bin_(other.bin_) {}
  PooledAllocation& operator=(PooledAllocation&& other) noexcept {
    if (this != &other) {
      reset();
      pool_ = std::exchange(other.pool_, nullptr);
      block_ = std::move(other.block_);
      size_ = other.size_;
      bin_ = other.bin_;
    }
    return *this;
  }
  PooledAllocation(const PooledAllocation&) = delete;
  PooledAllocation& operator=(const PooledAllocation&) = delete;
  ~PooledAllocation() { reset(); }

  /// Returns the block to its pool. @throws polydev::error if it was already returned.
  void release() {
    if (!pool_) {
      throw error("pooled allocation released twice (or moved from): it no longer owns a block");
    }
    reset();
  }

  /// True until the block is returned.
  bool valid() const noexcept { return pool_ != nullptr; }

  /// The requested size in bytes (the block itself may be larger; see `BinScheme`).
  std::size_t size() const noexcept { return size_; }

  /// The underlying block. Meaningless once released.
  const block_type& block() const noexcept { return block_; }

 protected:
  /// The pool state; null once released.
  PoolCore<Allocator>* pool() const noexcept { return pool_; }

 private:
  void reset() noexcept {
    if (pool_) std::exchange(pool_, nullptr)->free(std::move(block_), size_, bin_);
  }

  PoolCore<Allocator>* pool_ = nullptr;
  block_type block_{};
  std::size_t size_ = 0;
  std::uint32_t bin_ = 0;  // kept so that returning the block does not compute it again
};

/// A pool over `Allocator`: `allocate(size)` hands out `PooledAllocation`s. The concrete pools
/// (`opencl::MemoryPool`, `cuda::DeviceMemoryPool`, ...) are this with a handle type of their own.
template <typename Allocator, typename Pooled = PooledAllocation<Allocator>>
class Pool {
  static_assert(allocator_requirements<Allocator>::has_block_type,
                "polydev::pools::Pool: the allocator has no member type block_type (the handle of "
                "one allocation: using block_type = void*; for example)");
  static_assert(!allocator_requirements<Allocator>::has_block_type ||
                    allocator_requirements<Allocator>::block_is_handle,
                "polydev::pools::Pool: the allocator's block_type must be default-constructible "
                "(the empty handle) and movable");
  static_assert(!allocator_requirements<Allocator>::has_block_type ||
                    allocator_requirements<Allocator>::has_allocate,
                "polydev::pools::Pool: the allocator needs block_type allocate(std::size_t bytes)");
  static_assert(!allocator_requirements<Allocator>::has_block_type ||
                    allocator_requirements<Allocator>::has_free,
                "polydev::pools::Pool: the allocator needs void free(block_type block) noexcept");
  static_assert(!allocator_requirements<Allocator>::has_free ||
                    allocator_requirements<Allocator>::free_is_noexcept,
                "polydev::pools::Pool: the allocator's free(block_type) must be noexcept (pooled "
                "blocks are returned by destructors)");
  static_assert(allocator_requirements<Allocator>::is_movable,
                "polydev::pools::Pool: the allocator must be move-constructible (the pool keeps "
                "its own)");

 public:
  explicit Pool(Allocator allocator, unsigned leading_bits_in_bin_id = 4)
      : core_(PoolCore<Allocator>::create(std::move(allocator), leading_bits_in_bin_id)) {}
  Pool(const Pool& other) noexcept : core_(other.core_) { core_->add_owner(); }
  Pool(Pool&& other) noexcept : core_(std::exchange(other.core_, nullptr)) {}
  Pool& operator=(Pool other) noexcept {
    std::swap(core_, other.core_);
    return *this;
  }
  ~Pool() {
    if (core_) core_->drop_owner();
  }

  /// A block for `size` bytes. @throws polydev::out_of_memory, std::length_error for sizes beyond
  /// the largest class, or what the allocator throws for other failures.
  Pooled allocate(std::size_t size) {
    const std::uint32_t bin = core_->bins().bin_number(size);
    return Pooled(core_, core_->allocate(size, bin), size, bin);
  }
  Pooled operator()(std::size_t size) { return allocate(size); }

  std::size_t held_blocks() const { return core_->counters().held_blocks; }
  std::size_t active_blocks() const { return core_->counters().active_blocks; }
  std::size_t managed_bytes() const { return core_->counters().managed_bytes; }
  std::size_t active_bytes() const { return core_->counters().active_bytes; }
  PoolCounters counters() const { return core_->counters(); }

  void free_held() noexcept { core_->free_held(); }
  void stop_holding() noexcept { core_->stop_holding(); }

  std::uint32_t bin_number(std::size_t size) const { return core_->bins().bin_number(size); }
  std::size_t alloc_size(std::uint32_t bin) const noexcept { return core_->bins().alloc_size(bin); }
  const Allocator& allocator() const noexcept { return core_->allocator(); }

 private:
  PoolCore<Allocator>* core_;
};

}  // namespace polydev::pools
