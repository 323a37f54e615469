// The reader of program binary cache entries (decode_program_cache_entry), which sees whatever a
// crash, a full disk, failing storage or another polydev version left in the cache folder.
//
// Input: the bytes of a cache file.
//
// Checked: the reader never reads outside the bytes (ASan), and either gives a reason or an entry
// whose key and binary lie inside the bytes and which encodes back to exactly those bytes (it
// accepts the writer's output and nothing else). The input is also split into a key and a binary
// that are encoded and decoded back, and every single flipped byte of that encoding is rejected.
// Problems are short: they quote at most a prefix of the file.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "opencl/program_cache_entry.hpp"

namespace {

using polydev::detail::decode_program_cache_entry;
using polydev::detail::encode_program_cache_entry;
using polydev::detail::ProgramCacheEntry;
using polydev_fuzz::require;

bool inside(std::string_view part, std::string_view whole) {
  return part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size();
}

void check_decoded(std::string_view bytes, const ProgramCacheEntry& entry) {
  if (!entry.problem.empty()) {
    require(entry.key.empty() && entry.binary.empty(), "a rejected entry has a key or binary");
    require(entry.problem.size() < 400, "a problem quotes too much of the file: " + entry.problem);
    return;
  }
  require(inside(entry.key, bytes) && inside(entry.binary, bytes),
          "a key or binary outside the bytes read");
  require(encode_program_cache_entry(entry.key, entry.binary) == bytes,
          "accepted bytes that the writer would not write");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check_decoded(bytes, decode_program_cache_entry(bytes));

  // As a key and a binary: what the writer writes reads back, and no flipped byte does.
  const std::size_t split = size == 0 ? 0 : data[0] % (size + 1);
  const std::string_view key = bytes.substr(0, split);
  const std::string_view binary = bytes.substr(split);
  const std::string encoded = encode_program_cache_entry(key, binary);
  const ProgramCacheEntry round_trip = decode_program_cache_entry(encoded);
  require(round_trip.problem.empty(), "the writer's output was rejected: " + round_trip.problem);
  require(round_trip.key == key && round_trip.binary == binary, "the entry read back differs");
  std::string flipped = encoded;
  const std::size_t at =
      size == 0 ? 0 : (std::size_t{data[size - 1]} * 131 + size) % encoded.size();
  const auto mask = static_cast<char>(size > 1 ? (data[1] == 0 ? 1 : data[1]) : 0x20);
  flipped[at] = static_cast<char>(flipped[at] ^ mask);
  const ProgramCacheEntry damaged = decode_program_cache_entry(flipped);
  require(!damaged.problem.empty(), "a flipped byte at " + std::to_string(at) + " of " +
                                        std::to_string(encoded.size()) + " was accepted");
  check_decoded(flipped, damaged);
  return 0;
}
