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

namespace polydev::pools {

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
  std::uint32_t bin_number(std::size_t size) const;

  /// The bytes allocated for every block of `bin` (what `bin_number` rounds to).
  std::size_t alloc_size(std::uint32_t bin) const noexcept;

  /// The largest request that has a class (the largest `(2^(B+1) - 1) * 2^k` in `size_t`).
  std::size_t max_size() const noexcept;

 private:
  unsigned leading_bits_;
};

}  // namespace polydev::pools
