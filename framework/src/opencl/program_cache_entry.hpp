#pragma once

// The layout of one file of the program binary cache (docs/program-cache.md), apart from OpenCL so
// that the reader can be fuzzed without a driver:
//
//   polydev-program-binary 2\n
//   <key bytes> <binary bytes> <FNV-1a 64 of key and binary, 16 lowercase hex digits>\n
//   <key><binary>
//
// Cache files are written by other processes and other polydev versions, cut short by a full disk
// or a crash, and flipped by failing storage: the reader accepts exactly what the writer writes
// and gives a reason for anything else, so a damaged entry is rebuilt instead of handed to a
// driver. Header-only: the library and the fuzz target both compile it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "io/printable.hpp"

namespace polydev::detail {

/// The first line of every entry. The number changes whenever the layout or the key does, so an
/// entry of another polydev version is rebuilt rather than misread.
inline constexpr std::string_view kProgramCacheMagic = "polydev-program-binary 2\n";

inline std::uint64_t fnv1a_64(std::string_view bytes,
                              std::uint64_t hash = 14695981039346656037ull) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

/// Appends one field to a cache key, as `<name> <bytes>:<value>\n`: with the size in front, no
/// value can pass for the end of its field and the start of another. The keys of both program
/// caches, and the part that included files add to them, are made of such fields.
inline void append_key_field(std::string& key, std::string_view name, std::string_view value) {
  key += name;
  key += ' ';
  key += std::to_string(value.size());
  key += ':';
  key += value;
  key += '\n';
}

inline std::string encode_program_cache_entry(std::string_view key, std::string_view binary) {
  static const char kHex[] = "0123456789abcdef";
  std::uint64_t checksum = fnv1a_64(binary, fnv1a_64(key));
  char digits[16];
  for (int i = 15; i >= 0; --i, checksum >>= 4) digits[i] = kHex[checksum & 0xF];
  std::string entry(kProgramCacheMagic);
  entry += std::to_string(key.size()) + ' ' + std::to_string(binary.size()) + ' ';
  entry.append(digits, sizeof(digits));
  entry += '\n';
  entry.append(key);
  entry.append(binary);
  return entry;
}

/// An entry read back: its key and binary (views into the bytes given), or why the bytes are not
/// an entry.
struct ProgramCacheEntry {
  std::string_view key;
  std::string_view binary;
  std::string problem;  ///< empty when the entry is whole
};

namespace program_cache_entry_detail {

// A decimal size as the writer writes it: digits only, no sign, no leading zero, no overflow.
inline std::optional<std::size_t> parse_size(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::size_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::size_t>(c - '0');
    if (value > (static_cast<std::size_t>(-1) - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

inline std::optional<std::uint64_t> parse_checksum(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    int digit = 0;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else {
      return std::nullopt;
    }
    value = value << 4 | static_cast<std::uint64_t>(digit);
  }
  return value;
}

}  // namespace program_cache_entry_detail

/// Checks `bytes` against the layout and the checksum. Accepts exactly the output of
/// `encode_program_cache_entry`; never reads outside `bytes`.
inline ProgramCacheEntry decode_program_cache_entry(std::string_view bytes) {
  namespace impl = program_cache_entry_detail;
  ProgramCacheEntry entry;
  const std::string_view family = kProgramCacheMagic.substr(0, kProgramCacheMagic.rfind(' ') + 1);
  if (bytes.substr(0, kProgramCacheMagic.size()) != kProgramCacheMagic) {
    if (bytes.substr(0, family.size()) == family) {
      const std::string_view version =
          bytes.substr(family.size(), bytes.find('\n') - family.size());
      entry.problem = "it was written in another layout (version " + quote(version, 16) +
                      ", this polydev writes " +
                      std::string(kProgramCacheMagic.substr(
                          family.size(), kProgramCacheMagic.size() - family.size() - 1)) +
                      ")";
    } else {
      entry.problem =
          "it is not a polydev program cache entry (it starts with " + quote(bytes, 24) + ")";
    }
    return entry;
  }
  const std::size_t header_begin = kProgramCacheMagic.size();
  const std::size_t header_end = bytes.find('\n', header_begin);
  const std::string_view header = bytes.substr(
      header_begin, header_end == std::string_view::npos ? 0 : header_end - header_begin);
  const std::size_t first_space = header.find(' ');
  const std::size_t second_space =
      first_space == std::string_view::npos ? first_space : header.find(' ', first_space + 1);
  std::optional<std::size_t> key_size;
  std::optional<std::size_t> binary_size;
  std::optional<std::uint64_t> checksum;
  if (header_end != std::string_view::npos && second_space != std::string_view::npos) {
    key_size = impl::parse_size(header.substr(0, first_space));
    binary_size = impl::parse_size(header.substr(first_space + 1, second_space - first_space - 1));
    checksum = impl::parse_checksum(header.substr(second_space + 1));
  }
  if (!key_size || !binary_size || !checksum) {
    entry.problem =
        "its header is not '<key bytes> <binary bytes> <checksum>' (it is " +
        quote(header_end == std::string_view::npos ? bytes.substr(header_begin) : header, 48) + ")";
    return entry;
  }
  const std::size_t payload = bytes.size() - header_end - 1;
  if (*key_size > payload || *binary_size != payload - *key_size) {
    entry.problem = "it holds " + std::to_string(payload) + " bytes after its header, not the " +
                    std::to_string(*key_size) + " + " + std::to_string(*binary_size) +
                    " its header announces (a partial or foreign file)";
    return entry;
  }
  const std::string_view key = bytes.substr(header_end + 1, *key_size);
  const std::string_view binary = bytes.substr(header_end + 1 + *key_size);
  if (fnv1a_64(binary, fnv1a_64(key)) != *checksum) {
    entry.problem =
        "its checksum does not match its content (bytes were changed after it was "
        "written)";
    return entry;
  }
  entry.key = key;
  entry.binary = binary;
  return entry;
}

}  // namespace polydev::detail
