#include "polydev/pools/bins.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace polydev::pools {

namespace {

// All B + 1 top bits set, at the top of the word.
std::size_t largest_class(unsigned leading_bits) noexcept {
  const unsigned width = std::numeric_limits<std::size_t>::digits;
  const std::size_t head = (std::size_t{2} << leading_bits) - 1;
  return head << (width - 1 - leading_bits);
}

}  // namespace

BinScheme::BinScheme(unsigned leading_bits_in_bin_id)
    : leading_bits_(leading_bits_in_bin_id),
      max_size_(leading_bits_in_bin_id > max_leading_bits ? 0
                                                          : largest_class(leading_bits_in_bin_id)) {
  if (leading_bits_in_bin_id > max_leading_bits) {
    throw std::invalid_argument(
        "leading_bits_in_bin_id is " + std::to_string(leading_bits_in_bin_id) + "; expected 0 to " +
        std::to_string(max_leading_bits) + " (4, the default, rounds sizes up by less than 6.25%)");
  }
}

void BinScheme::throw_too_large(std::size_t size) const {
  throw std::length_error("pool request of " + std::to_string(size) +
                          " bytes is larger than the largest size class (" +
                          std::to_string(max_size_) + " bytes)");
}

}  // namespace polydev::pools
