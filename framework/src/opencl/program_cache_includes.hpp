#pragma once

// The files a program source reaches through #include, found and read for the keys of both program
// caches (docs/program-cache.md). Apart from OpenCL and header-only, so that the unit tests check
// the scanning and the search without a driver.
//
// Everything here reads files that anyone may have put in an include folder: a FIFO, a device, a
// header of gigabytes, a header that includes itself. Files are read through read_regular_file with
// a cap, each file once (a visited set of canonical paths), and the number of files, the bytes in
// all and the nesting depth are bounded; past a bound the program is left uncached, with the
// reason.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "io/printable.hpp"
#include "opencl/program_cache_entry.hpp"
#include "polydev/detail/regular_file.hpp"
#include "polydev/opencl/program_cache.hpp"

namespace polydev::opencl::detail {

inline constexpr std::size_t kIncludedFileLimit = 16 * 1024 * 1024;
inline constexpr std::size_t kIncludedBytesLimit = 64 * 1024 * 1024;
inline constexpr std::size_t kIncludedFilesLimit = 1024;
inline constexpr std::size_t kIncludeDepthLimit = 64;

/// One `#include` as written: the name between the quotes or angle brackets.
struct IncludeDirective {
  std::string name;
  bool quoted = false;
};

/// The directives of one text, or why one of them cannot be followed.
struct IncludeDirectives {
  std::vector<IncludeDirective> directives;
  std::string problem;  ///< empty when every directive names a file
};

/// The folders build options add to the search, in order, and the files `-include` adds.
struct IncludeOptions {
  std::vector<std::string> quoted_folders;  ///< -iquote, then also the ones below
  std::vector<std::string> folders;         ///< -I, -isystem, -idirafter: both kinds of include
  std::vector<std::string> forced;          ///< -include FILE
};

namespace include_scan_detail {

inline bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Past spaces, tabs and block comments on the line (a directive may have them around its name).
inline std::size_t skip_blanks(std::string_view text, std::size_t at) {
  while (at < text.size()) {
    const char c = text[at];
    if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r') {
      ++at;
    } else if (text.compare(at, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", at + 2);
      if (end == std::string_view::npos) return text.size();
      at = end + 2;
    } else {
      break;
    }
  }
  return at;
}

// Translation phase 2: a backslash at the end of a line joins it with the next.
inline std::string spliced(std::string_view raw) {
  std::string text;
  text.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == '\n') {
      ++i;
    } else if (raw[i] == '\\' && i + 2 < raw.size() && raw[i + 1] == '\r' && raw[i + 2] == '\n') {
      i += 2;
    } else {
      text += raw[i];
    }
  }
  return text;
}

// The line of a directive, for a message.
inline std::string line_at(std::string_view text, std::size_t at) {
  const std::size_t end = text.find('\n', at);
  return polydev::detail::quote(text.substr(at, end == std::string_view::npos ? end : end - at));
}

// Options as a compiler's command line splits them: blanks separate, quotes group and are removed.
inline std::vector<std::string> option_words(std::string_view options) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = '\0';
  for (const char c : options) {
    if (quote != '\0') {
      if (c == quote) {
        quote = '\0';
      } else {
        word += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

}  // namespace include_scan_detail

/// The `#include` directives of `text`, over-approximated: every `#` (or `%:`) followed by
/// `include` counts, wherever it is (a comment, a string, `#if 0` code), so that no real directive
/// is missed; continued lines are joined first. A computed include (`#include MACRO`), an
/// `#include_next` or a name without its closing quote or bracket is a problem.
inline IncludeDirectives scan_include_directives(std::string_view raw) {
  using namespace include_scan_detail;
  const std::string text = spliced(raw);
  IncludeDirectives result;
  for (std::size_t at = 0; at < text.size(); ++at) {
    std::size_t after = 0;
    if (text[at] == '#') {
      after = at + 1;
    } else if (text.compare(at, 2, "%:") == 0) {  // the digraph of #
      after = at + 2;
    } else {
      continue;
    }
    after = skip_blanks(text, after);
    if (text.compare(after, 7, "include") != 0) continue;
    std::size_t name = after + 7;
    if (name < text.size() && is_identifier_char(text[name])) {
      if (text.compare(name, 5, "_next") == 0 &&
          (name + 5 >= text.size() || !is_identifier_char(text[name + 5]))) {
        result.problem = "it has an #include_next (" + line_at(text, at) +
                         "), whose file depends on the folder of the including file in the "
                         "compiler's search, which polydev does not follow";
        return result;
      }
      continue;  // another word, such as #included in prose
    }
    name = skip_blanks(text, name);
    const char open = name < text.size() ? text[name] : '\0';
    if (open != '"' && open != '<') {
      result.problem = "it has a computed #include (" + line_at(text, at) +
                       "): polydev follows only names in quotes or angle brackets";
      return result;
    }
    const char close = open == '"' ? '"' : '>';
    const std::size_t end = text.find_first_of(std::string{close, '\n'}, name + 1);
    if (end == std::string::npos || text[end] != close || end == name + 1) {
      result.problem =
          "it has an #include whose name is empty or not closed (" + line_at(text, at) + ")";
      return result;
    }
    result.directives.push_back({text.substr(name + 1, end - name - 1), open == '"'});
    at = end;
  }
  return result;
}

/// The include folders and forced includes of build options: `-I DIR` and `-IDIR`, and the same
/// two forms of `-iquote`, `-isystem`, `-idirafter` and `-include`. A flag without its value (the
/// last word) adds nothing; the compiler refuses such options itself.
inline IncludeOptions include_options(std::string_view options) {
  const std::vector<std::string> words = include_scan_detail::option_words(options);
  IncludeOptions result;
  struct Flag {
    std::string_view name;
    std::vector<std::string>* into;
  };
  // -include before -I..., and -idirafter before -i...: the longest flag that matches wins.
  const Flag flags[] = {{"-include", &result.forced},
                        {"-idirafter", &result.folders},
                        {"-isystem", &result.folders},
                        {"-iquote", &result.quoted_folders},
                        {"-I", &result.folders}};
  for (std::size_t i = 0; i < words.size(); ++i) {
    for (const Flag& flag : flags) {
      if (words[i].compare(0, flag.name.size(), flag.name) != 0) continue;
      if (words[i].size() > flag.name.size()) {
        flag.into->push_back(words[i].substr(flag.name.size()));
      } else if (i + 1 < words.size()) {
        flag.into->push_back(words[++i]);
      }
      break;
    }
  }
  return result;
}

/// Follows the includes of `source` built with `options`. `source_folder` is the folder of the
/// source for its quoted includes: the working folder for a source given as text.
class IncludeResolver {
 public:
  IncludeResolver(std::string_view options, std::filesystem::path source_folder)
      : options_(include_options(options)), source_folder_(std::move(source_folder)) {}

  ProgramIncludes resolve(std::string_view source) {
    ProgramIncludes result;
    std::vector<IncludeDirective> forced;
    for (const std::string& file : options_.forced) forced.push_back({file, true});
    follow_all(forced, source_folder_, "the option -include", 0, result);
    if (result.problem.empty()) follow_text(source, source_folder_, "the source", 0, result);
    if (!result.problem.empty()) {
      result.problem +=
          "; polydev keys its program caches on the content of every file a source "
          "includes (an #include in a comment or #if 0 code counts too), so this "
          "program is built from source at every call and not cached";
      result.key.clear();
    }
    return result;
  }

 private:
  void follow_text(std::string_view text, const std::filesystem::path& folder,
                   const std::string& from, std::size_t depth, ProgramIncludes& result) {
    const IncludeDirectives found = scan_include_directives(text);
    if (!found.problem.empty()) {
      result.problem = from + " cannot be followed: " + found.problem;
      return;
    }
    follow_all(found.directives, folder, from, depth, result);
  }

  void follow_all(const std::vector<IncludeDirective>& directives,
                  const std::filesystem::path& folder, const std::string& from, std::size_t depth,
                  ProgramIncludes& result) {
    for (const IncludeDirective& directive : directives) {
      follow(directive, folder, from, depth, result);
      if (!result.problem.empty()) return;
    }
  }

  // Every file of the directive's name along the search path; a name found nowhere is a problem.
  void follow(const IncludeDirective& directive, const std::filesystem::path& folder,
              const std::string& from, std::size_t depth, ProgramIncludes& result) {
    const std::string written =
        directive.quoted ? "\"" + directive.name + "\"" : "<" + directive.name + ">";
    const std::string what = "the #include " + polydev::detail::printable(written) + " of " + from;
    if (depth >= kIncludeDepthLimit) {
      result.problem =
          what + " is nested more than " + std::to_string(kIncludeDepthLimit) + " includes deep";
      return;
    }
    std::vector<std::filesystem::path> candidates;
    const std::filesystem::path name(directive.name);
    if (name.is_absolute()) {
      candidates.push_back(name);
    } else {
      if (directive.quoted) {
        candidates.push_back(folder / name);
        for (const std::string& quoted : options_.quoted_folders) {
          candidates.push_back(std::filesystem::path(quoted) / name);
        }
      }
      for (const std::string& each : options_.folders) {
        candidates.push_back(std::filesystem::path(each) / name);
      }
    }
    bool found = false;
    for (const std::filesystem::path& candidate : candidates) {
      std::error_code failure;
      // A folder of that name is no header: compilers look on, and so does the search here.
      if (std::filesystem::is_directory(candidate, failure)) continue;
      const std::string path = canonical(candidate);
      if (visited_.count(path) != 0) {
        found = true;
        continue;
      }
      std::optional<std::string> content;
      const std::size_t room = kIncludedBytesLimit - bytes_;
      try {
        content = polydev::detail::read_regular_file_if_present(
            candidate.string(), room < kIncludedFileLimit ? room : kIncludedFileLimit);
      } catch (const polydev::detail::file_error& failure_to_read) {
        if (failure_to_read.kind() == polydev::detail::file_error::Kind::too_large &&
            room < kIncludedFileLimit) {
          result.problem = what + " brings the included files over " +
                           std::to_string(kIncludedBytesLimit / (1024 * 1024)) + " MiB in all";
        } else {
          result.problem = what + " cannot be read: " + printable(failure_to_read.what());
        }
        return;
      }
      if (!content) continue;  // not in this folder
      found = true;
      if (visited_.size() >= kIncludedFilesLimit) {
        result.problem =
            what + " reaches more than " + std::to_string(kIncludedFilesLimit) + " included files";
        return;
      }
      // Marked before its own includes are followed: a file that includes itself is read once.
      visited_.insert(path);
      bytes_ += content->size();
      result.files.push_back(path);
      polydev::detail::append_key_field(result.key, "file", path);
      polydev::detail::append_key_field(result.key, "content", *content);
      follow_text(*content, std::filesystem::path(path).parent_path(),
                  polydev::detail::quote(path, 200), depth + 1, result);
      if (!result.problem.empty()) return;
    }
    if (!found) {
      std::string searched;
      for (const std::filesystem::path& candidate : candidates) {
        searched += (searched.empty() ? "" : ", ") +
                    polydev::detail::quote(candidate.parent_path().string(), 200);
      }
      result.problem = what + " is found in none of the folders searched (" +
                       (searched.empty() ? std::string("none") : searched) +
                       "); add its folder with -I";
    }
  }

  static std::string printable(std::string_view text) { return polydev::detail::printable(text); }

  static std::string canonical(const std::filesystem::path& path) {
    std::error_code failure;
    std::filesystem::path resolved = std::filesystem::weakly_canonical(path, failure);
    if (failure) resolved = std::filesystem::absolute(path, failure).lexically_normal();
    return resolved.string();
  }

  IncludeOptions options_;
  std::filesystem::path source_folder_;
  std::set<std::string> visited_;
  std::size_t bytes_ = 0;
};

}  // namespace polydev::opencl::detail
