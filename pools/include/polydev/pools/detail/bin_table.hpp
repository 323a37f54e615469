#pragma once

/// @file
/// The held blocks of a pool shard, by bin.

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "polydev/pools/detail/cache_line.hpp"

namespace polydev::pools::detail {

// Free blocks per bin. Small bin numbers (every bin of the default scheme) index a flat table, so
// the hot path is one vector access; larger ones (fine schemes) go through a hash map. Every
// allocation of the table is on cache lines of its own: a shard's table is written on every
// operation, and a heap that placed two shards' lists side by side would make their threads
// contend although they share nothing.
//
// A bitmap marks the flat bins that hold blocks, so that giving every held block back and finding
// the largest visit only those: with a fine scheme (6 leading bits: about 1400 bins up to 4 MiB)
// walking every bin cost more than the blocks themselves when a compact pool gives its blocks back
// to its arena on a miss.
template <typename Block>
class BinTable {
 public:
  static constexpr std::uint32_t flat_bins = 4096;
  using Blocks = std::vector<Block, CacheLineAllocator<Block>>;

  /// Keeps `block` in `bin`. May throw std::bad_alloc; then nothing changed and `block` was not
  /// moved from.
  void push(std::uint32_t bin, Block&& block) {
    if (bin < flat_bins) {
      if (bin >= flat_.size()) flat_.resize(bin + 1);
      flat_[bin].push_back(std::move(block));
      mark(bin);
      return;
    }
    overflow_[bin].push_back(std::move(block));
  }

  /// Moves the most recently pushed block of `bin` into `block`; false when the bin is empty.
  /// (An out parameter, not `std::optional`: returning a two-word handle through optionals made
  /// the compiler copy it with mismatched stores and loads, which stalled the hot path.)
  bool pop(std::uint32_t bin, Block& block) {
    Blocks* blocks = nullptr;
    if (bin < flat_bins) {
      // The bitmap answers for an empty bin without touching its vector: on the compact pool's
      // churn most takes find their bin empty, and the vectors' headers would miss the cache.
      if ((words_[bin / 64] & (std::uint64_t{1} << (bin % 64))) == 0) return false;
      blocks = &flat_[bin];
    } else {
      const auto found = overflow_.find(bin);
      if (found == overflow_.end()) return false;
      blocks = &found->second;
    }
    if (blocks->empty()) return false;
    block = std::move(blocks->back());
    blocks->pop_back();
    if (blocks->empty() && bin < flat_bins) unmark(bin);
    return true;
  }

  /// The highest bin that holds a block, or false when none does.
  bool highest_nonempty(std::uint32_t& bin) const {
    bool found = false;
    for (const auto& [number, blocks] : overflow_) {
      if (!blocks.empty() && (!found || number > bin)) {
        bin = number;
        found = true;
      }
    }
    if (found || summary_ == 0) return found;
    const unsigned word = highest_bit(summary_);
    bin = word * 64 + highest_bit(words_[word]);
    return true;
  }

  /// Calls `visit(bin, blocks)` for every bin that holds blocks, then empties it.
  template <typename Visit>
  void drain(Visit&& visit) {
    for (std::uint64_t words = summary_; words != 0; words &= words - 1) {
      const unsigned word = static_cast<unsigned>(__builtin_ctzll(words));
      for (std::uint64_t bits = words_[word]; bits != 0; bits &= bits - 1) {
        const std::uint32_t bin = word * 64 + static_cast<unsigned>(__builtin_ctzll(bits));
        visit(bin, flat_[bin]);
        flat_[bin].clear();
      }
      words_[word] = 0;
    }
    summary_ = 0;
    for (auto& [number, blocks] : overflow_) {
      if (blocks.empty()) continue;
      visit(number, blocks);
      blocks.clear();
    }
  }

 private:
  static unsigned highest_bit(std::uint64_t value) noexcept {
    return 63u - static_cast<unsigned>(__builtin_clzll(value));
  }
  void mark(std::uint32_t bin) noexcept {
    words_[bin / 64] |= std::uint64_t{1} << (bin % 64);
    summary_ |= std::uint64_t{1} << (bin / 64);
  }
  void unmark(std::uint32_t bin) noexcept {
    words_[bin / 64] &= ~(std::uint64_t{1} << (bin % 64));
    if (words_[bin / 64] == 0) summary_ &= ~(std::uint64_t{1} << (bin / 64));
  }

  std::vector<Blocks, CacheLineAllocator<Blocks>> flat_;
  std::uint64_t words_[flat_bins / 64] = {};  // bit b % 64 of word b / 64: flat bin b holds blocks
  std::uint64_t summary_ = 0;                 // bit w: words_[w] is non-zero
  static_assert(flat_bins / 64 <= 64, "summary_ has one bit per word of words_");
  std::unordered_map<std::uint32_t, Blocks, std::hash<std::uint32_t>, std::equal_to<>,
                     CacheLineAllocator<std::pair<const std::uint32_t, Blocks>>>
      overflow_;
};

}  // namespace polydev::pools::detail
