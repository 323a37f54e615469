#include "polydev/key.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>

namespace polydev {

namespace {

// "(R)", "(TM)" and "(C)" carry no information in a key ("Intel(R) Xeon(R)" -> "intel_xeon").
std::size_t trademark_length(std::string_view text, std::size_t at) {
  for (std::string_view mark : {"(r)", "(tm)", "(c)"}) {
    if (text.size() - at < mark.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < mark.size(); ++i) {
      same = same && std::tolower(static_cast<unsigned char>(text[at + i])) == mark[i];
    }
    if (same) return mark.size();
  }
  return 0;
}

}  // namespace

std::string slug(std::string_view text) {
  std::string out;
  bool pending_separator = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (const std::size_t skip = trademark_length(text, at)) {
      at += skip - 1;
      pending_separator = true;
      continue;
    }
    const char c = text[at];
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) && u < 128) {
      if (pending_separator && !out.empty()) out += '_';
      pending_separator = false;
      out += static_cast<char>(std::tolower(u));
    } else {
      pending_separator = true;
    }
  }
  return out.empty() ? "unnamed" : out;
}

std::string shorten_slug(std::string slug, std::size_t max_length) {
  if (slug.size() > max_length) slug.resize(max_length);
  while (!slug.empty() && slug.back() == '_') slug.pop_back();
  return slug;
}

namespace {

std::optional<std::uint32_t> parse_hex(std::string_view text) {
  if (text.empty() || text.size() > 8) return std::nullopt;
  std::uint32_t value = 0;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isxdigit(u)) return std::nullopt;
    const int digit = std::isdigit(u) ? u - '0' : std::tolower(u) - 'a' + 10;
    value = value * 16 + static_cast<std::uint32_t>(digit);
  }
  return value;
}

std::string hex(std::uint32_t value, int width) {
  std::array<char, 16> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%0*x", width, value);
  return buffer.data();
}

}  // namespace

std::optional<std::string> pci_key_suffix(std::string_view pci_bus_id) {
  const auto first_colon = pci_bus_id.find(':');
  const auto second_colon = pci_bus_id.find(':', first_colon + 1);
  const auto dot = pci_bus_id.find('.', second_colon + 1);
  if (first_colon == std::string_view::npos || second_colon == std::string_view::npos ||
      dot == std::string_view::npos) {
    return std::nullopt;
  }
  const auto domain = parse_hex(pci_bus_id.substr(0, first_colon));
  const auto bus = parse_hex(pci_bus_id.substr(first_colon + 1, second_colon - first_colon - 1));
  const auto device = parse_hex(pci_bus_id.substr(second_colon + 1, dot - second_colon - 1));
  const auto function = parse_hex(pci_bus_id.substr(dot + 1));
  if (!domain || !bus || !device || !function) return std::nullopt;
  // PCI's bus, device and function are 8, 5 and 3 bits. Beyond them the suffix's fixed-width
  // fields would be ambiguous: "0:1234:05.10" and "1234:05:10.0" would both be pci_1234_05_10.
  if (*bus > 0xff || *device > 0x1f || *function > 7) return std::nullopt;
  std::string out = "pci_";
  if (*domain != 0) out += hex(*domain, 4) + "_";
  out += hex(*bus, 2) + "_" + hex(*device, 2);
  if (*function != 0) out += "_" + hex(*function, 1);
  return out;
}

std::string opencl_platform_word(std::string_view platform_name) {
  const std::string lowered = slug(platform_name);
  struct Known {
    const char* needle;
    const char* word;
  };
  static constexpr Known known[] = {
      {"portable_computing_language", "pocl"},
      {"pocl", "pocl"},
      {"nvidia", "nvidia"},
      {"intel", "intel"},
      {"amd", "amd"},
      {"advanced_micro_devices", "amd"},
      {"apple", "apple"},
      {"rusticl", "rusticl"},
      {"clover", "clover"},
  };
  for (const auto& entry : known) {
    if (lowered.find(entry.needle) != std::string::npos) return entry.word;
  }
  return shorten_slug(lowered, 24);
}

}  // namespace polydev
