#pragma once

/// @file
/// The free ranges of an arena (polydev/pools/arena.hpp), in segregated lists.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace polydev::pools::detail {

// One range of a segment, free or handed out. Neighbours are the ranges just below and above it
// in the same segment; a segment's first range is never merged away, so it also names the
// segment. Free ranges are also on one of the free lists (`FreeLists`).
struct ArenaRange {
  std::uintptr_t address = 0;
  std::size_t size = 0;
  ArenaRange* previous = nullptr;
  ArenaRange* next = nullptr;
  ArenaRange* previous_free = nullptr;
  ArenaRange* next_free = nullptr;
  bool free = true;
};

// Free ranges in segregated lists, as in TLSF (Masmano et al., "TLSF: a new dynamic memory
// allocator for real-time systems", 2004): sizes in units of the alignment, one list per
// 1/32 of each power of two (every size below 32 units has a list of its own), and bitmaps of the
// non-empty lists. Finding a range is a few bit scans whatever the number of free ranges, and
// every list but the small ones holds sizes within 3 % of each other.
class FreeLists {
 public:
  static constexpr unsigned fine_bits = 5;
  static constexpr unsigned lists_per_level = 1u << fine_bits;
  static constexpr unsigned levels = 64;

  explicit FreeLists(unsigned alignment_log2) : unit_log2_(alignment_log2) {}

  void insert(ArenaRange* range) noexcept {
    const auto [level, list] = list_of(range->size >> unit_log2_);
    ArenaRange*& head = heads_[level][list];
    range->previous_free = nullptr;
    range->next_free = head;
    if (head != nullptr) head->previous_free = range;
    head = range;
    level_map_ |= std::uint64_t{1} << level;
    list_maps_[level] |= 1u << list;
    ++count_;
  }

  void remove(ArenaRange* range) noexcept {
    const auto [level, list] = list_of(range->size >> unit_log2_);
    if (range->previous_free != nullptr) {
      range->previous_free->next_free = range->next_free;
    } else {
      heads_[level][list] = range->next_free;
      if (range->next_free == nullptr) {
        list_maps_[level] &= ~(1u << list);
        if (list_maps_[level] == 0) level_map_ &= ~(std::uint64_t{1} << level);
      }
    }
    if (range->next_free != nullptr) range->next_free->previous_free = range->previous_free;
    --count_;
  }

  // A free range of at least `bytes` (a multiple of the alignment), or null. Looks first in the
  // lists whose every range is large enough (taking the head of the smallest non-empty one), then
  // in the list of `bytes` itself, which also holds smaller ranges.
  ArenaRange* find(std::size_t bytes) const noexcept {
    const std::size_t units = bytes >> unit_log2_;
    std::size_t rounded_up = units;
    if (units >= lists_per_level) {
      rounded_up += (std::size_t{1} << (log2(units) - fine_bits)) - 1;
    }
    const auto [level, list] = list_of(rounded_up);
    if (ArenaRange* head = first_from(level, list)) return head;
    const auto [own_level, own_list] = list_of(units);
    for (ArenaRange* range = heads_[own_level][own_list]; range != nullptr;
         range = range->next_free) {
      if (range->size >= bytes) return range;
    }
    return nullptr;
  }

  std::size_t count() const noexcept { return count_; }

  std::size_t largest() const noexcept {
    if (level_map_ == 0) return 0;
    const unsigned level = 63u - static_cast<unsigned>(__builtin_clzll(level_map_));
    const unsigned list = 31u - static_cast<unsigned>(__builtin_clz(list_maps_[level]));
    std::size_t largest = 0;
    for (ArenaRange* range = heads_[level][list]; range != nullptr; range = range->next_free) {
      largest = std::max(largest, range->size);
    }
    return largest;
  }

 private:
  static unsigned log2(std::size_t value) noexcept {
    return 63u - static_cast<unsigned>(__builtin_clzll(value));
  }

  static std::pair<unsigned, unsigned> list_of(std::size_t units) noexcept {
    if (units < lists_per_level) return {0u, static_cast<unsigned>(units)};
    const unsigned top = log2(units);
    return {top - fine_bits + 1,
            static_cast<unsigned>((units >> (top - fine_bits)) - lists_per_level)};
  }

  ArenaRange* first_from(unsigned level, unsigned list) const noexcept {
    if (level >= levels) return nullptr;
    std::uint32_t lists = list_maps_[level] & (~0u << list);
    if (lists == 0) {
      const std::uint64_t higher =
          level + 1 >= levels ? 0 : level_map_ & (~std::uint64_t{0} << (level + 1));
      if (higher == 0) return nullptr;
      level = static_cast<unsigned>(__builtin_ctzll(higher));
      lists = list_maps_[level];
    }
    return heads_[level][static_cast<unsigned>(__builtin_ctz(lists))];
  }

  unsigned unit_log2_;
  std::uint64_t level_map_ = 0;
  std::uint32_t list_maps_[levels] = {};
  ArenaRange* heads_[levels][lists_per_level] = {};
  std::size_t count_ = 0;
};

}  // namespace polydev::pools::detail
