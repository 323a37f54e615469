#include "polydev/pools/bins.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace polydev::pools {

namespace {

// Index of the highest set bit; 0 for 0 and 1 (as the seeds' bitlog2).
unsigned bitlog2(std::uint64_t value) noexcept {
  return value <= 1 ? 0u : 63u - static_cast<unsigned>(__builtin_clzll(value));
}

}  // namespace

BinScheme::BinScheme(unsigned leading_bits_in_bin_id) : leading_bits_(leading_bits_in_bin_id) {
  if (leading_bits_in_bin_id > max_leading_bits) {
    throw std::invalid_argument(
        "leading_bits_in_bin_id is " + std::to_string(leading_bits_in_bin_id) + "; expected 0 to " +
        std::to_string(max_leading_bits) + " (4, the default, rounds sizes up by less than 6.25%)");
  }
}

std::size_t BinScheme::max_size() const noexcept {
  // All B + 1 top bits set, at the top of the word.
  const unsigned width = std::numeric_limits<std::size_t>::digits;
  const std::size_t head = (std::size_t{2} << leading_bits_) - 1;
  return head << (width - 1 - leading_bits_);
}

std::uint32_t BinScheme::bin_number(std::size_t size) const {
  if (size > max_size()) {
    throw std::length_error("pool request of " + std::to_string(size) +
                            " bytes is larger than the largest size class (" +
                            std::to_string(max_size()) + " bytes)");
  }
  const unsigned b = leading_bits_;
  const std::uint64_t mantissa_mask = (std::uint64_t{1} << b) - 1;
  std::uint64_t s = size == 0 ? 1 : size;
  unsigned exponent = bitlog2(s);
  if (exponent > b) {
    // Round up to a multiple of 2^(exponent - b); this may carry into the next exponent.
    const unsigned shift = exponent - b;
    const std::uint64_t unit = std::uint64_t{1} << shift;
    s = (s + unit - 1) & ~(unit - 1);
    exponent = bitlog2(s);
    const std::uint64_t mantissa = (s >> (exponent - b)) & mantissa_mask;
    return static_cast<std::uint32_t>((std::uint64_t{exponent} << b) | mantissa);
  }
  const std::uint64_t mantissa = (s << (b - exponent)) & mantissa_mask;
  return static_cast<std::uint32_t>((std::uint64_t{exponent} << b) | mantissa);
}

std::size_t BinScheme::alloc_size(std::uint32_t bin) const noexcept {
  const unsigned b = leading_bits_;
  const unsigned exponent = bin >> b;
  const std::uint64_t head = (std::uint64_t{1} << b) | (bin & ((std::uint64_t{1} << b) - 1));
  return static_cast<std::size_t>(exponent >= b ? head << (exponent - b) : head >> (b - exponent));
}

}  // namespace polydev::pools
