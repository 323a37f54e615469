// Links from the HTML page to the files that messages name: relative to the page, or below a
// URL of the project's file browser.
#include <filesystem>

#include "render.hpp"

namespace polydev::report {

namespace {

namespace fs = std::filesystem;

// A path as part of a URL: unreserved characters and '/' as they are, every other byte %XX.
std::string url_path(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool keep = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
                      (byte >= '0' && byte <= '9') || c == '-' || c == '.' || c == '_' ||
                      c == '~' || c == '/';
    if (keep) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

// `path` relative to `folder` when it lies below it; empty otherwise.
std::string below(const fs::path& path, const fs::path& folder) {
  const fs::path relative = path.lexically_normal().lexically_relative(folder.lexically_normal());
  if (relative.empty() || relative == "." || *relative.begin() == "..") return "";
  return relative.generic_string();
}

}  // namespace

std::string source_link(const std::string& location, const SourceLinks& links) {
  if (location.empty() || location == "unknown file") return "";
  std::string file = location;
  std::string line;
  const auto colon = location.rfind(':');
  if (colon != std::string::npos && colon > 0 && colon + 1 < location.size() &&
      location.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    file = location.substr(0, colon);
    line = location.substr(colon + 1);
  }
  const fs::path path(file);
  // A relative path is relative to the working directory of the test, which the report does not
  // know.
  if (!path.is_absolute()) return "";
  if (!links.url.empty()) {
    const std::string relative = below(path, links.root);
    if (!relative.empty()) {
      const std::string base = links.url.back() == '/' ? links.url : links.url + "/";
      return base + url_path(relative) + (line.empty() ? "" : "#L" + line);
    }
  }
  if (links.page_folder.empty()) return "";
  const fs::path relative =
      path.lexically_normal().lexically_relative(fs::path(links.page_folder).lexically_normal());
  return relative.empty() ? "" : url_path(relative.generic_string());
}

}  // namespace polydev::report
