// The POLYDEV_DEVICES parser: text -> clauses and terms, or a selection_error that names the piece,
// where it is, what is wrong and what is accepted.
#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "polydev/devices_selector.hpp"
#include "polydev/error.hpp"
#include "selection/warning_summary.hpp"

namespace polydev {

namespace {

using Attribute = SelectorTerm::Attribute;
using Operator = SelectorTerm::Operator;

constexpr const char* kAcceptedTerms =
    "accepted terms: backend=opencl|cuda, type=gpu|cpu|accelerator|custom, name~TEXT or "
    "name=TEXT (also vendor, platform, key), ext=EXTENSION, fp64, opencl>=X.Y, cc>=X.Y, "
    "mem>=SIZE (also >, <=, <, =), max=N; '!' before a term negates it";

// The names a term can start with: attributes that take an operator and a value, and flags.
constexpr std::string_view kValueAttributeNames[] = {
    "backend", "type", "name", "vendor", "platform", "key", "ext", "opencl", "cc", "mem", "max"};
constexpr std::string_view kFlagNames[] = {"fp64"};

bool is_blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Damerau-Levenshtein distance (optimal string alignment: insertions, deletions, substitutions
// and swaps of two neighbours, each 1), or `limit + 1` when it is larger than `limit`.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return std::min(d[a.size()][b.size()], limit + 1);
}

// The one candidate closest to `name` (lower case), within 2 edits, or 1 for a candidate of up to
// 3 letters; nothing when none is that close or two are equally close.
template <std::size_t N>
std::optional<std::string> closest_name(const std::string& name,
                                        const std::string_view (&candidates)[N]) {
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::size_t best = kNone;
  std::optional<std::string> found;
  for (const std::string_view candidate : candidates) {
    const std::size_t limit = candidate.size() <= 3 ? 1 : 2;
    const std::size_t distance = edit_distance(name, candidate, limit);
    if (distance > limit) continue;
    if (distance < best) {
      best = distance;
      found = std::string(candidate);
    } else if (distance == best) {
      found.reset();
    }
  }
  return found;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// A piece of the selector text and where it starts (0-based offset into the whole text).
struct Piece {
  std::string_view text;
  std::size_t offset = 0;
};

Piece trimmed(Piece piece) {
  while (!piece.text.empty() && is_blank(piece.text.front())) {
    piece.text.remove_prefix(1);
    ++piece.offset;
  }
  while (!piece.text.empty() && is_blank(piece.text.back())) piece.text.remove_suffix(1);
  return piece;
}

std::vector<Piece> split(Piece whole, char separator) {
  std::vector<Piece> pieces;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = whole.text.find(separator, start);
    const std::size_t stop = end == std::string_view::npos ? whole.text.size() : end;
    pieces.push_back({whole.text.substr(start, stop - start), whole.offset + start});
    if (end == std::string_view::npos) return pieces;
    start = end + 1;
  }
}

// Parses one term; every error names the term and where it is.
class TermParser {
 public:
  TermParser(const std::string& selector, Piece term, std::size_t clause, std::size_t index)
      : selector_(selector), piece_(term), clause_(clause), index_(index) {}

  // Returns the term, or, for `max=N`, sets `max` and returns nothing.
  std::optional<SelectorTerm> parse(std::optional<std::size_t>& max) {
    SelectorTerm term;
    term.text = std::string(piece_.text);
    term.position = piece_.offset + 1;
    const Piece rest = take_negation(term);
    std::size_t length = 0;
    while (length < rest.text.size() &&
           (std::isalnum(static_cast<unsigned char>(rest.text[length])) != 0 ||
            rest.text[length] == '_')) {
      ++length;
    }
    const std::string name = lower(rest.text.substr(0, length));
    if (name.empty()) fail("expected an attribute name first; " + std::string(kAcceptedTerms));
    std::string_view value = trimmed({rest.text.substr(length), 0}).text;
    term.op = take_operator(value);
    value = trimmed({value, 0}).text;
    if (name == "max") {
      parse_max(term, value, max);
      return std::nullopt;
    }
    if (!parse_attribute(term, name, value)) {
      fail_unknown(name, rest.text.substr(0, length), rest.text.substr(length), term);
    }
    return term;
  }

 private:
  // A leading '!' negates the term; returns what follows it.
  Piece take_negation(SelectorTerm& term) const {
    Piece rest = piece_;
    if (rest.text.empty() || rest.text.front() != '!') return rest;
    term.negated = true;
    rest = trimmed({rest.text.substr(1), rest.offset + 1});
    if (rest.text.empty()) fail("'!' must be followed by a term to negate, e.g. !type=cpu");
    if (rest.text.front() == '!') fail("'!' twice; one '!' negates a term, e.g. !type=cpu");
    return rest;
  }

  // Fills `term` for the attribute `name` with its operator and `value`; false for a name that is
  // no attribute.
  bool parse_attribute(SelectorTerm& term, const std::string& name, std::string_view value) const {
    if (name == "fp64") {
      if (term.op != Operator::none || !value.empty()) {
        fail("'fp64' takes no value; write fp64 or !fp64");
      }
      term.attribute = Attribute::fp64;
    } else if (name == "backend" || name == "type") {
      parse_enumerated(term, name, value);
    } else if (name == "name" || name == "vendor" || name == "platform" || name == "key") {
      parse_text_match(term, name, value);
    } else if (name == "ext") {
      parse_extension(term, value);
    } else if (name == "opencl" || name == "cc") {
      term.attribute = name == "opencl" ? Attribute::opencl : Attribute::cc;
      require_comparison(
          term, name,
          name == "opencl" ? "opencl>=3.0 (for the backend: backend=opencl)" : "cc>=9.0");
      term.version = parse_version(value, name);
    } else if (name == "mem") {
      term.attribute = Attribute::mem;
      require_comparison(term, name, "mem>=16G");
      term.bytes = parse_size(value);
    } else {
      return false;
    }
    return true;
  }

  // backend=opencl|cuda, type=gpu|cpu|...: values from a fixed set.
  void parse_enumerated(SelectorTerm& term, const std::string& name, std::string_view value) const {
    term.attribute = name == "backend" ? Attribute::backend : Attribute::type;
    require_equal(term, name, name == "backend" ? "backend=opencl|cuda" : "type=gpu|cpu");
    term.values = alternatives(value);
    for (std::string& alternative : term.values) {
      alternative = lower(alternative);
      check_enumerated(name, alternative);
    }
  }

  // name, vendor, platform, key: contains ('~') or is ('=') one of the texts.
  void parse_text_match(SelectorTerm& term, const std::string& name, std::string_view value) const {
    term.attribute = name == "name"     ? Attribute::name
                     : name == "vendor" ? Attribute::vendor
                     : name == "key"    ? Attribute::key
                                        : Attribute::platform;
    if (term.op != Operator::contains && term.op != Operator::equal) {
      fail(detail::quote(name) + " takes '~' (contains) or '=' (is), e.g. " + name + "~" +
           example_text(name));
    }
    term.values = alternatives(value);
  }

  void parse_extension(SelectorTerm& term, std::string_view value) const {
    term.attribute = Attribute::ext;
    require_equal(term, "ext", "ext=cl_khr_fp16");
    term.values = alternatives(value);
    for (const std::string& alternative : term.values) {
      if (std::any_of(alternative.begin(), alternative.end(), is_blank)) {
        fail(detail::quote(alternative) +
             " is not one extension name; name one, e.g. ext=cl_khr_fp16 " +
             "(or several with '|' for any of them, or several terms for all of them)");
      }
    }
  }

  // `written` is the unknown name as written, `after` what follows it (operator and value).
  [[noreturn]] void fail_unknown(const std::string& name, std::string_view written,
                                 std::string_view after, const SelectorTerm& term) const {
    const std::string negation = term.negated ? "!" : "";
    std::string suggestion;
    if (term.op == Operator::none) {
      // A bare word: a device type or backend (a hint of its own, unquoted as it always was), a
      // misspelt flag, or else a name to look for.
      if (name == "gpu" || name == "cpu" || name == "accelerator" || name == "custom" ||
          name == "cuda") {
        fail("unknown attribute " + detail::quote(written) + " (did you mean " + negation +
             (name == "cuda" ? "backend=" : "type=") + name + "?); " + kAcceptedTerms);
      }
      if (const auto flag = closest_name(name, kFlagNames)) {
        suggestion = *flag;
      } else {
        suggestion = "name~" + std::string(written);
      }
    } else if (const auto attribute = closest_name(name, kValueAttributeNames)) {
      suggestion = *attribute + std::string(after);
    }
    const std::string hint =
        suggestion.empty() ? "" : " (did you mean " + detail::quote(negation + suggestion) + "?)";
    fail("unknown attribute " + detail::quote(written) + hint + "; " + kAcceptedTerms);
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw selection_error("POLYDEV_DEVICES=" + detail::quote(selector_) + ": term " +
                          detail::quote(piece_.text) + " (clause " + std::to_string(clause_) +
                          ", term " + std::to_string(index_) + ", character " +
                          std::to_string(piece_.offset + 1) + "): " + problem);
  }

  // Removes the operator at the start of `text` and returns it.
  Operator take_operator(std::string_view& text) const {
    if (text.empty()) return Operator::none;
    const auto starts = [&](std::string_view prefix) {
      return text.substr(0, prefix.size()) == prefix;
    };
    if (starts("!="))
      fail("'!=' is not an operator; negate the whole term instead, e.g. !type=cpu");
    if (starts("==")) fail("'==' is not an operator; write '=' once, e.g. type=gpu");
    constexpr std::pair<std::string_view, Operator> kOperators[] = {
        {">=", Operator::greater_equal}, {"<=", Operator::less_equal}, {">", Operator::greater},
        {"<", Operator::less},           {"=", Operator::equal},       {"~", Operator::contains}};
    for (const auto& [spelling, op] : kOperators) {
      if (starts(spelling)) {
        text.remove_prefix(spelling.size());
        return op;
      }
    }
    fail("expected an operator ('=', '~', '>=', '>', '<=', '<') after the attribute name, not " +
         detail::quote(text) + "; " + kAcceptedTerms);
  }

  void require_equal(const SelectorTerm& term, const std::string& name, const char* example) const {
    if (term.op != Operator::equal) {
      fail(detail::quote(name) + " takes '=' and one or more values separated by '|', e.g. " +
           example);
    }
  }

  void require_comparison(const SelectorTerm& term, const std::string& name,
                          const char* example) const {
    if (term.op == Operator::none || term.op == Operator::contains) {
      fail(detail::quote(name) + " takes a comparison ('>=', '>', '<=', '<' or '='), e.g. " +
           example);
    }
  }

  static std::string example_text(const std::string& name) {
    if (name == "name") return "h200";
    if (name == "vendor") return "nvidia";
    if (name == "platform") return "pocl";
    return "opencl_pocl";
  }

  std::vector<std::string> alternatives(std::string_view value) const {
    if (value.empty()) fail("no value after the operator; e.g. type=gpu or name~h200");
    std::vector<std::string> out;
    for (const Piece& alternative : split({value, 0}, '|')) {
      const std::string_view text = trimmed(alternative).text;
      if (text.empty()) {
        fail("an empty alternative in " + detail::quote(value) +
             "; separate values by single '|', e.g. type=gpu|accelerator");
      }
      out.emplace_back(text);
    }
    return out;
  }

  void check_enumerated(const std::string& name, const std::string& value) const {
    if (name == "backend" && value != "opencl" && value != "cuda") {
      fail(detail::quote(value) + " is not a backend; expected opencl or cuda");
    }
    if (name == "type" && value != "gpu" && value != "cpu" && value != "accelerator" &&
        value != "custom") {
      fail(detail::quote(value) +
           " is not a device type; expected gpu, cpu, accelerator or custom");
    }
  }

  // Up to 9 digits: enough for any count or version part, never an overflow.
  static std::optional<std::uint64_t> small_number(std::string_view digits) {
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; })) {
      return std::nullopt;
    }
    return std::stoull(std::string(digits));
  }

  DeviceVersion parse_version(std::string_view value, const std::string& name) const {
    const std::string example = name == "opencl" ? "opencl>=3.0" : "cc>=9.0";
    if (value.find('|') != std::string_view::npos) {
      fail(
          "'|' alternatives are for backend, type, name, vendor, platform, key and ext; for a "
          "range write two terms, e.g. " +
          name + ">=2.0," + name + "<3.0");
    }
    const std::size_t dot = value.find('.');
    const auto major = small_number(value.substr(0, dot));
    const auto minor = dot == std::string_view::npos ? std::optional<std::uint64_t>(0)
                                                     : small_number(value.substr(dot + 1));
    if (!major || !minor) {
      fail(detail::quote(value) + " is not a version; expected MAJOR or MAJOR.MINOR, e.g. " +
           example);
    }
    return {static_cast<int>(*major), static_cast<int>(*minor)};
  }

  std::uint64_t parse_size(std::string_view value) const {
    const std::string accepted =
        "expected a number (at most 6 decimals) with an optional binary unit K, M, G or T (also "
        "KiB, MiB, GiB, TiB; none means bytes), e.g. mem>=16G or mem>=1.5T";
    std::size_t end = 0;
    while (end < value.size() &&
           (std::isdigit(static_cast<unsigned char>(value[end])) != 0 || value[end] == '.')) {
      ++end;
    }
    const std::string_view number = value.substr(0, end);
    const std::string unit = lower(trimmed({value.substr(end), 0}).text);
    const std::size_t dot = number.find('.');
    const std::string_view whole = number.substr(0, dot);
    const std::string_view fraction =
        dot == std::string_view::npos ? std::string_view() : number.substr(dot + 1);
    const bool digits_ok = !whole.empty() && (dot == std::string_view::npos ||
                                              (!fraction.empty() && fraction.size() <= 6 &&
                                               fraction.find('.') == std::string_view::npos));
    if (!digits_ok) fail(detail::quote(value) + " is not a memory size; " + accepted);
    std::uint64_t scale = 1;
    if (unit == "k" || unit == "kib") {
      scale = 1ull << 10;
    } else if (unit == "m" || unit == "mib") {
      scale = 1ull << 20;
    } else if (unit == "g" || unit == "gib") {
      scale = 1ull << 30;
    } else if (unit == "t" || unit == "tib") {
      scale = 1ull << 40;
    } else if (unit == "kb" || unit == "mb" || unit == "gb" || unit == "tb") {
      fail(detail::quote(value) + ": decimal units (KB, MB, GB, TB) are not accepted, to " +
           "leave no doubt about 1000 or 1024; write the binary unit, e.g. mem>=16G (16 GiB)");
    } else if (!unit.empty() && unit != "b") {
      fail(detail::quote(value) + " has an unknown unit " + detail::quote(unit) + "; " + accepted);
    }
    if (scale == 1 && !fraction.empty()) {
      fail(detail::quote(value) + " is not a whole number of bytes; " + accepted);
    }
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    // Any number of digits: the value, not its spelling, decides whether it fits in 64 bits.
    std::uint64_t integer = 0;
    bool too_large = false;
    for (char c : whole) {
      const auto digit = static_cast<std::uint64_t>(c - '0');
      if (integer > (kMax - digit) / 10) too_large = true;
      integer = too_large ? kMax : integer * 10 + digit;
    }
    const std::string too_large_message =
        detail::quote(value) +
        " is too large; the largest memory size is 18446744073709551615 bytes (16 EiB minus one "
        "byte)";
    if (too_large || integer > kMax / scale) fail(too_large_message);
    std::uint64_t bytes = integer * scale;
    if (!fraction.empty()) {
      // scale <= 2^40 and fraction < 10^6, so the product fits in 64 bits.
      std::uint64_t denominator = 1;
      for (std::size_t i = 0; i < fraction.size(); ++i) denominator *= 10;
      const std::uint64_t part = std::stoull(std::string(fraction)) * scale / denominator;
      if (bytes > kMax - part) fail(too_large_message);
      bytes += part;
    }
    return bytes;
  }

  void parse_max(const SelectorTerm& term, std::string_view value,
                 std::optional<std::size_t>& max) const {
    if (term.negated) fail("'max' cannot be negated; write max=N, e.g. max=2");
    const auto count = term.op == Operator::equal ? small_number(value) : std::nullopt;
    if (!count || *count == 0) {
      fail(
          "'max' takes '=' and a count from 1 to 999999999, e.g. max=2 (the clause takes its "
          "first 2 devices)");
    }
    if (max) fail("a second 'max' in one clause; give each clause at most one");
    max = static_cast<std::size_t>(*count);
  }

  const std::string& selector_;
  Piece piece_;
  std::size_t clause_;
  std::size_t index_;
};

}  // namespace

DevicesSelector parse_devices_selector(const std::string& text) {
  DevicesSelector selector;
  selector.text = text;
  if (std::all_of(text.begin(), text.end(), is_blank)) return selector;
  const std::vector<Piece> clauses = split({text, 0}, ';');
  for (std::size_t c = 0; c < clauses.size(); ++c) {
    const Piece clause_piece = trimmed(clauses[c]);
    if (clause_piece.text.empty()) {
      throw selection_error("POLYDEV_DEVICES=" + detail::quote(text) + ": clause " +
                            std::to_string(c + 1) + " (character " +
                            std::to_string(clause_piece.offset + 1) +
                            ") is empty; expected terms separated by ',' (e.g. type=gpu,fp64), "
                            "clauses separated by single ';' and no ';' at either end");
    }
    SelectorClause clause;
    clause.text = std::string(clause_piece.text);
    clause.position = clause_piece.offset + 1;
    const std::vector<Piece> terms = split(clause_piece, ',');
    for (std::size_t t = 0; t < terms.size(); ++t) {
      const Piece term_piece = trimmed(terms[t]);
      if (term_piece.text.empty()) {
        throw selection_error("POLYDEV_DEVICES=" + detail::quote(text) + ": term " +
                              std::to_string(t + 1) + " of clause " + std::to_string(c + 1) +
                              " (character " + std::to_string(term_piece.offset + 1) +
                              ") is empty; expected a term between single ',' (e.g. "
                              "type=gpu,fp64) and none at either end of a clause");
      }
      if (auto term = TermParser(text, term_piece, c + 1, t + 1).parse(clause.max)) {
        clause.terms.push_back(std::move(*term));
      }
    }
    selector.clauses.push_back(std::move(clause));
  }
  return selector;
}

}  // namespace polydev
