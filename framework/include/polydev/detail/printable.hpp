#pragma once

/// @file
/// Text from outside polydev (driver strings, file content, XML reports, arguments, environment
/// variables) as polydev may show it on a terminal or in a log: a device name or a report can hold
/// any bytes, and printed raw an ESC sequence recolors or clears the terminal, a carriage return
/// overwrites the line before, a bidi override reorders what follows, and invalid UTF-8 garbles
/// it. These helpers keep printable UTF-8 as it is and show everything else as visible escapes, so
/// a person still sees what the source held. Not part of the API: public only because the test
/// main and the fixtures (polydev::gtest) print such text too, through the same function.

#include <cstddef>
#include <string>
#include <string_view>

namespace polydev::detail {

/// How much of a foreign string an error or a table quotes: enough to recognize it, short enough
/// that a 64 MiB line does not become a 64 MiB message.
inline constexpr std::size_t kQuoteLimit = 160;

/// One step of UTF-8 decoding at `text[at]` (`at < text.size()`): a well-formed sequence (Unicode
/// table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF) gives its code point and
/// length; anything else gives `valid == false` and the length of the maximal ill-formed subpart
/// (at least 1), the unit that Unicode replaces with one U+FFFD.
struct Utf8Step {
  bool valid = false;
  char32_t code_point = 0;
  std::size_t length = 1;
};
Utf8Step decode_utf8(std::string_view text, std::size_t at);

/// `text` on one line: printable UTF-8 as it is; C0 controls (line breaks and tabs included), DEL,
/// C1 controls, the bidi embedding, override and isolate controls (U+202A..U+202E,
/// U+2066..U+2069, U+061C), the invisible format characters (U+200B..U+200F, U+2060..U+2064,
/// U+FEFF: zero-width spaces and joiners, bidi marks, a byte order mark), the line and paragraph
/// separators (U+2028, U+2029) and bytes that are not well-formed UTF-8 as `\xNN`, one per byte.
/// Longer than `max_bytes`, it is cut at a character boundary and ends in "... (N bytes)". The
/// backslash is not escaped: the result is for reading, not for parsing back.
std::string printable(std::string_view text, std::size_t max_bytes = kQuoteLimit);

/// How many bytes of a value an error message quotes (a selector, a line of a file).
inline constexpr std::size_t kQuotedBytes = 80;

/// `text` in single quotes for a message, escaped as `printable` escapes it: `'0;0;0'`, or, when
/// longer than `max_bytes`, its start and its length: `'0;0;0;0'... (200000 bytes)`.
std::string quote(std::string_view text, std::size_t max_bytes = kQuotedBytes);

/// As `printable`, for text of several lines shown whole (a failure message): line feeds, tabs,
/// U+2028 and U+2029 are kept, nothing is cut.
std::string printable_text(std::string_view text);

}  // namespace polydev::detail
