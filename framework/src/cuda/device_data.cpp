// DeviceData's PyCUDA helpers (alignment, coalescing, texture channels) and the parsing of a
// compute capability given as text.
#include "polydev/cuda/device_data.hpp"

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

#include "io/printable.hpp"
#include "polydev/error.hpp"

namespace polydev::cuda {

namespace {

// Digits only, at most 3 of them (so no overflow); -1 for anything else.
int parse_small_number(std::string_view digits) {
  if (digits.empty() || digits.size() > 3) return -1;
  int value = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::size_t round_up(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

DeviceData DeviceData::for_compute_capability(std::string_view text) {
  const std::size_t dot = text.find('.');
  const int major = dot == std::string_view::npos ? -1 : parse_small_number(text.substr(0, dot));
  const int minor = dot == std::string_view::npos ? -1 : parse_small_number(text.substr(dot + 1));
  if (major < 0 || minor < 0) {
    throw error("compute capability " + detail::quote(text) +
                " is not of the form MAJOR.MINOR (e.g. '9.0' or '12.1')");
  }
  return for_compute_capability(major, minor);
}

int DeviceData::align_bytes(int word_size) const {
  // Coalescing rules of cc 1.x that PyCUDA kept: 64-byte segments for 4-byte words, 128-byte
  // segments for 8- and 16-byte words.
  if (word_size == 4) return 64;
  if (word_size == 8 || word_size == 16) return 128;
  throw error("no alignment possible for fetches of size " + std::to_string(word_size) +
              " bytes; align_bytes takes a word size of 4, 8 or 16");
}

std::size_t DeviceData::align(std::size_t bytes, int word_size) const {
  return round_up(bytes, static_cast<std::size_t>(align_bytes(word_size)));
}

int DeviceData::align_words(int word_size) const {
  // align_bytes accepts only sizes that divide it, so the division is exact.
  return align_bytes(word_size) / word_size;
}

std::size_t DeviceData::align_dtype(std::size_t elements, int dtype_size) const {
  return round_up(elements, static_cast<std::size_t>(align_words(dtype_size)));
}

int DeviceData::coalesce(int thread_count) const {
  if (thread_count < 0) {
    throw error("coalesce: thread count " + std::to_string(thread_count) +
                " is negative; expected a count of 0 or more");
  }
  return (thread_count + 15) / 16 * 16;
}

int DeviceData::make_valid_tex_channel_count(int size) {
  if (size < 1 || size > 4) {
    throw error("no valid texture channel count for " + std::to_string(size) +
                " channels; a texture has 1, 2 or 4 channels, so expected 1..4");
  }
  return size <= 2 ? size : 4;
}

}  // namespace polydev::cuda
