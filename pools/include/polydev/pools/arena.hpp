#pragma once

/// @file
/// An arena that carves blocks out of large segments and merges freed neighbours again, as an
/// allocator for `polydev::pools::Pool`: the pool keeps its per-class reuse (the fast path), and
/// what it gives back lands in the arena instead of the driver, where any class can use it.
///
/// The pools of PyOpenCL and PyCUDA, which `Pool` follows, give every allocation a whole block of
/// its size class and keep each class's blocks for that class. On long churn that keeps the sum of
/// every class's own peak: 1.18× to 1.37× the peak of requested bytes on RMM's random_allocations
/// traces (docs/pools.md). Behind a pool, an arena lets memory move between classes: when the pool
/// misses and the arena has no free range that fits, the pool first gives every held block back
/// (`Pool` does this for any allocator with `allocate_from_reserve`), the arena merges them with
/// their free neighbours, and only then asks its upstream for a new segment.
///
/// The upstream is an allocator in the sense of pool.hpp whose `block_type` is `void*` (device or
/// host pointers that support address arithmetic): `cuda::DeviceAllocator`,
/// `cuda::PageLockedAllocator`, or a host allocator. OpenCL buffers cannot be carved this way (a
/// sub-buffer is a different object with alignment rules of its own), so the OpenCL pools do not
/// use an arena.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/pools/detail/free_lists.hpp"

namespace polydev::pools {

/// How an arena sizes its blocks and segments.
struct ArenaOptions {
  /// Every block's address and size are multiples of this (a power of two). 256 is what
  /// `cudaMalloc` guarantees, so carved blocks keep the alignment users rely on.
  std::size_t alignment = 256;
  /// The smallest segment asked of the upstream; segments are multiples of it. 4 MiB: on RMM's
  /// random_allocations traces (blocks up to 1 and 4 MiB), replayed as often as the peer
  /// benchmark does, a pool in front of the arena then reserves at most 1.098× the peak of
  /// requested bytes; 2, 8 and 16 MiB each go above 1.10 on some trace (docs/pools.md).
  std::size_t segment_granularity = std::size_t{4} << 20;
  /// When non-zero, a new segment is at least `reserved / growth_divisor` (rounded up to the
  /// granularity, at most `max_growth_bytes`): fewer, larger upstream calls while the arena grows,
  /// for up to that fraction of the reserve left unused by the growth itself. Off by default:
  /// segments in proportion fragmented RMM's traces more than fixed ones.
  std::size_t growth_divisor = 0;
  /// The cap on the proportional part of a new segment (a larger request still gets a segment of
  /// its own size).
  std::size_t max_growth_bytes = std::size_t{64} << 20;
};

/// Counters of an arena, read together under its lock.
struct ArenaCounters {
  std::size_t reserved_bytes = 0;       ///< bytes of every segment taken from the upstream
  std::size_t peak_reserved_bytes = 0;  ///< the most `reserved_bytes` has been
  std::size_t segments = 0;             ///< segments taken from the upstream and not yet returned
  std::size_t used_bytes = 0;           ///< bytes of the blocks handed out (rounded to alignment)
  std::size_t free_ranges = 0;          ///< free ranges, after merging neighbours
  std::size_t largest_free_range = 0;   ///< bytes of the largest of them
};

/// A block carved out of an arena: its address and the range that records it.
struct ArenaBlock {
  void* ptr = nullptr;
  detail::ArenaRange* range = nullptr;
};

/// Good-fit allocation (TLSF's segregated lists) from segments of an upstream allocator, with freed
/// neighbours merged. Copies share one arena; the segments go back to the upstream when the last
/// copy goes (every block must have been freed by then: the pool guarantees it). Thread-safe (one
/// mutex).
template <typename Upstream>
class Arena {
 public:
  using block_type = ArenaBlock;

  /// @throws std::invalid_argument when `options.alignment` is not a power of two or the
  /// granularity is not a non-zero multiple of it.
  explicit Arena(Upstream upstream, ArenaOptions options = {})
      : state_(std::make_shared<State>(std::move(upstream), checked(options))) {}

  /// A block of at least `bytes` (rounded up to the alignment; 0 counts as 1): the best-fitting
  /// free range, else a new segment. @throws polydev::out_of_memory when the upstream is out of
  /// memory even after the arena returned its empty segments; what the upstream throws otherwise.
  block_type allocate(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->allocate(state_->rounded(bytes));
  }

  /// A block from the free ranges the arena already has, or nothing; never asks the upstream.
  std::optional<block_type> allocate_from_reserve(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->carve(state_->rounded(bytes));
  }

  /// Returns a block to the free ranges, merged with its free neighbours. Never throws.
  void free(block_type block) noexcept {
    if (block.range == nullptr) return;
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->give_back(block.range);
  }

  /// Returns every segment that is wholly free to the upstream; the number of bytes returned.
  std::size_t release_empty_segments() noexcept {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->release_empty_segments();
  }

  ArenaCounters counters() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    ArenaCounters counters = state_->counters;
    counters.free_ranges = state_->free_ranges.count();
    counters.largest_free_range = state_->free_ranges.largest();
    return counters;
  }

  const ArenaOptions& options() const noexcept { return state_->options; }
  const Upstream& upstream() const noexcept { return state_->upstream; }

 private:
  static ArenaOptions checked(ArenaOptions options) {
    const auto power_of_two = [](std::size_t value) {
      return value != 0 && (value & (value - 1)) == 0;
    };
    if (!power_of_two(options.alignment)) {
      throw std::invalid_argument("ArenaOptions: alignment " + std::to_string(options.alignment) +
                                  " is not a power of two (256, what cudaMalloc guarantees, is "
                                  "the default)");
    }
    if (options.segment_granularity == 0 || options.segment_granularity % options.alignment != 0) {
      throw std::invalid_argument("ArenaOptions: segment_granularity " +
                                  std::to_string(options.segment_granularity) +
                                  " must be a non-zero multiple of the alignment (" +
                                  std::to_string(options.alignment) + ")");
    }
    return options;
  }

  struct Segment {
    detail::ArenaRange* first;
    std::size_t bytes;
  };

  struct State {
    State(Upstream upstream_in, ArenaOptions options_in)
        : upstream(std::move(upstream_in)), options(options_in) {}
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    ~State() {
      for (const Segment& segment : segments) {
        upstream.free(reinterpret_cast<void*>(segment.first->address));
      }
    }

    std::size_t rounded(std::size_t bytes) const {
      const std::size_t unit = options.alignment;
      if (bytes > SIZE_MAX - unit) {
        throw std::length_error("arena allocation of " + std::to_string(bytes) +
                                " bytes: no size class is that large");
      }
      return bytes == 0 ? unit : (bytes + unit - 1) & ~(unit - 1);
    }

    std::optional<ArenaBlock> carve(std::size_t bytes) {
      detail::ArenaRange* range = free_ranges.find(bytes);
      if (range == nullptr) return std::nullopt;
      // The node for the free tail is made before anything changes, so a failed allocation
      // leaves the arena as it was.
      detail::ArenaRange* tail = range->size > bytes ? new_range() : nullptr;
      free_ranges.remove(range);
      if (tail != nullptr) {
        tail->address = range->address + bytes;
        tail->size = range->size - bytes;
        tail->free = true;
        tail->previous = range;
        tail->next = range->next;
        if (range->next != nullptr) range->next->previous = tail;
        range->next = tail;
        range->size = bytes;
        free_ranges.insert(tail);
      }
      range->free = false;
      counters.used_bytes += range->size;
      return ArenaBlock{reinterpret_cast<void*>(range->address), range};
    }

    ArenaBlock allocate(std::size_t bytes) {
      if (auto block = carve(bytes)) return *block;
      const std::size_t granule = options.segment_granularity;
      const auto round_to_granule = [granule](std::size_t value) {
        return value > SIZE_MAX - granule ? value : (value + granule - 1) / granule * granule;
      };
      const std::size_t needed = round_to_granule(bytes);
      std::size_t proportional = 0;
      if (options.growth_divisor != 0) {
        proportional = round_to_granule(
            std::min(counters.reserved_bytes / options.growth_divisor, options.max_growth_bytes));
      }
      const std::size_t preferred = std::max(needed, proportional);
      void* base = nullptr;
      std::size_t segment_bytes = preferred;
      try {
        base = upstream.allocate(segment_bytes);
      } catch (const out_of_memory&) {
        // Segments that are wholly free may be in the way; then ask only for what is needed.
        release_empty_segments();
        segment_bytes = needed;
        base = upstream.allocate(segment_bytes);
      }
      add_segment(base, segment_bytes);
      return *carve(bytes);
    }

    void add_segment(void* base, std::size_t bytes) {
      detail::ArenaRange* range = nullptr;
      try {
        range = new_range();
        segments.push_back({range, bytes});
      } catch (...) {
        if (range != nullptr) recycle(range);
        upstream.free(base);
        throw;
      }
      *range = detail::ArenaRange{};
      range->address = reinterpret_cast<std::uintptr_t>(base);
      range->size = bytes;
      free_ranges.insert(range);
      counters.reserved_bytes += bytes;
      counters.peak_reserved_bytes =
          std::max(counters.peak_reserved_bytes, counters.reserved_bytes);
      ++counters.segments;
    }

    void give_back(detail::ArenaRange* range) noexcept {
      counters.used_bytes -= range->size;
      range->free = true;
      if (detail::ArenaRange* next = range->next; next != nullptr && next->free) {
        free_ranges.remove(next);
        range->size += next->size;
        unlink(next);
      }
      if (detail::ArenaRange* previous = range->previous; previous != nullptr && previous->free) {
        free_ranges.remove(previous);
        previous->size += range->size;
        unlink(range);
        range = previous;
      }
      free_ranges.insert(range);
    }

    // Removes `range` (not a segment's first) from its segment's list and recycles it.
    void unlink(detail::ArenaRange* range) noexcept {
      range->previous->next = range->next;
      if (range->next != nullptr) range->next->previous = range->previous;
      recycle(range);
    }

    // Range records come from blocks of them that the arena keeps: a carve and a merge would
    // otherwise each call the heap, which costs as much as the rest of the operation. Throws
    // std::bad_alloc (before anything changed) when a new block of records cannot be had.
    detail::ArenaRange* new_range() {
      if (spare_ranges == nullptr) {
        range_blocks.push_back(std::make_unique<detail::ArenaRange[]>(ranges_per_block));
        for (std::size_t i = 0; i < ranges_per_block; ++i) recycle(&range_blocks.back()[i]);
      }
      return std::exchange(spare_ranges, spare_ranges->next);
    }

    void recycle(detail::ArenaRange* range) noexcept {
      range->next = spare_ranges;
      spare_ranges = range;
    }

    std::size_t release_empty_segments() noexcept {
      std::size_t released = 0;
      for (std::size_t i = 0; i < segments.size();) {
        detail::ArenaRange* first = segments[i].first;
        if (!first->free || first->next != nullptr) {
          ++i;
          continue;
        }
        free_ranges.remove(first);
        upstream.free(reinterpret_cast<void*>(first->address));
        released += segments[i].bytes;
        counters.reserved_bytes -= segments[i].bytes;
        --counters.segments;
        recycle(first);
        segments[i] = segments.back();
        segments.pop_back();
      }
      return released;
    }

    Upstream upstream;
    const ArenaOptions options;
    mutable std::mutex mutex;
    detail::FreeLists free_ranges{static_cast<unsigned>(__builtin_ctzll(options.alignment))};
    std::vector<Segment> segments;
    ArenaCounters counters;
    static constexpr std::size_t ranges_per_block = 256;
    std::vector<std::unique_ptr<detail::ArenaRange[]>> range_blocks;
    detail::ArenaRange* spare_ranges = nullptr;
  };

  std::shared_ptr<State> state_;
};

}  // namespace polydev::pools
