#pragma once

/// @file
/// Size classes of polydev's pools: the leading-bits scheme of PyOpenCL and PyCUDA
/// (`leading_bits_in_bin_id`, default 4), with one deliberate difference in rounding.
///
/// A request of `s` bytes is rounded *up* to the next size whose binary form has at most `B + 1`
/// significant bits (`B = leading_bits_in_bin_id`): `(2^B + m) * 2^k` with `0 <= m < 2^B`. Such a
/// size is its own class, so powers of two and every other class boundary waste nothing, and any
/// other size wastes less than `s / 2^B` (6.25% for B = 4). The seeds instead fill every bit below
/// the leading `B + 1` with ones, so 4096 becomes 4351; polydev's 4096 stays 4096 (the seeds say
/// the rounding within a bin is not guaranteed). Sizes below `2^(B+1)` are exact in both.
///
/// A request of 0 bytes uses the 1-byte class, as in the seeds, so that a pooled object is always a
/// real allocation. Bin numbers are `(exponent << B) | mantissa` and increase with size.

#include <cstddef>
#include <cstdint>
#include <limits>

namespace polydev::pools {

/// The index of the highest set bit of `value`, which is `floor(log2(value))` for `value >= 1`; 0
/// for 0 (as for 1), as PyOpenCL's and PyCUDA's `bitlog2` in `pyopencl.tools` and `pycuda.tools`.
/// Their pool tests size requests with it (`2^(bitlog2(free memory) - 6)`); the size classes of
/// `BinScheme` are built on it. 63 for the largest 64-bit `size_t`.
constexpr unsigned bitlog2(std::size_t value) noexcept {
  // One instruction on the pools' hot path (bin_number); the builtin is undefined for 0.
  return value <= 1 ? 0u
                    : static_cast<unsigned>(std::numeric_limits<unsigned long long>::digits - 1) -
                          static_cast<unsigned>(__builtin_clzll(value));
}

/// The size classes for one value of `leading_bits_in_bin_id`.
class BinScheme {
 public:
  /// Largest accepted `leading_bits_in_bin_id`: bin numbers `(63 << B) | mantissa` must fit in 32
  /// bits, and finer classes than 1/2^16 of a size have no use.
  static constexpr unsigned max_leading_bits = 16;

  /// @throws std::invalid_argument when `leading_bits_in_bin_id > max_leading_bits`.
  explicit BinScheme(unsigned leading_bits_in_bin_id = 4);

  unsigned leading_bits() const noexcept { return leading_bits_; }

  /// The bin of a request of `size` bytes.
  /// @throws std::length_error when `size > max_size()` (rounding up would overflow).
  std::uint32_t bin_number(std::size_t size) const {
    if (size > max_size_) throw_too_large(size);
    const unsigned b = leading_bits_;
    const std::uint64_t mantissa_mask = (std::uint64_t{1} << b) - 1;
    std::uint64_t s = size == 0 ? 1 : size;
    unsigned exponent = bitlog2(static_cast<std::size_t>(s));
    if (exponent > b) {
      // Round up to a multiple of 2^(exponent - b); this may carry into the next exponent.
      const std::uint64_t unit = std::uint64_t{1} << (exponent - b);
      s = (s + unit - 1) & ~(unit - 1);
      exponent = bitlog2(static_cast<std::size_t>(s));
      const std::uint64_t mantissa = (s >> (exponent - b)) & mantissa_mask;
      return static_cast<std::uint32_t>((std::uint64_t{exponent} << b) | mantissa);
    }
    const std::uint64_t mantissa = (s << (b - exponent)) & mantissa_mask;
    return static_cast<std::uint32_t>((std::uint64_t{exponent} << b) | mantissa);
  }

  /// The bytes allocated for every block of `bin` (what `bin_number` rounds to).
  std::size_t alloc_size(std::uint32_t bin) const noexcept {
    const unsigned b = leading_bits_;
    const unsigned exponent = bin >> b;
    const std::uint64_t head = (std::uint64_t{1} << b) | (bin & ((std::uint64_t{1} << b) - 1));
    return static_cast<std::size_t>(exponent >= b ? head << (exponent - b)
                                                  : head >> (b - exponent));
  }

  /// The largest request that has a class (the largest `(2^(B+1) - 1) * 2^k` in `size_t`).
  std::size_t max_size() const noexcept { return max_size_; }

 private:
  // Out of line: the message is built only on this path, and the pool's hot path stays small.
  [[noreturn]] void throw_too_large(std::size_t size) const;

  unsigned leading_bits_;
  std::size_t max_size_;
};

}  // namespace polydev::pools
