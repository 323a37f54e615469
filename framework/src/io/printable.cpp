#include "io/printable.hpp"

#include <cstdio>

namespace polydev::detail {

namespace {

bool in(unsigned char byte, unsigned char low, unsigned char high) {
  return byte >= low && byte <= high;
}

void append_escaped(std::string& out, unsigned char byte) {
  char escape[5];
  std::snprintf(escape, sizeof escape, "\\x%02x", byte);
  out += escape;
}

// Whether a well-formed code point may be shown as it is. C1 controls (U+0080..U+009F) matter:
// terminals that take 8-bit controls read U+009B as CSI. The bidi embeddings, overrides and
// isolates reorder the text after them, so that a name or a message reads other than it is; the
// bidi marks and the invisible format characters (zero-width spaces and joiners, the word joiner,
// a byte order mark at the start of a file) show nothing, so that two texts that differ look the
// same.
bool shown_raw(char32_t code_point, bool keep_lines) {
  if (keep_lines && (code_point == '\n' || code_point == '\t')) return true;
  const bool bidi_control = (code_point >= 0x202a && code_point <= 0x202e) ||
                            (code_point >= 0x2066 && code_point <= 0x2069) || code_point == 0x061c;
  const bool invisible = (code_point >= 0x200b && code_point <= 0x200f) ||
                         (code_point >= 0x2060 && code_point <= 0x2064) || code_point == 0xfeff;
  if (invisible) return false;
  // U+2028 and U+2029 break a line where a renderer (a browser, an editor) honours them.
  const bool line_separator = code_point == 0x2028 || code_point == 0x2029;
  return code_point >= 0x20 && code_point != 0x7f && !(code_point >= 0x80 && code_point <= 0x9f) &&
         !bidi_control && !(line_separator && !keep_lines);
}

std::string escape(std::string_view text, bool keep_lines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const Utf8Step step = decode_utf8(text, at);
    if (step.valid && shown_raw(step.code_point, keep_lines)) {
      out.append(text.substr(at, step.length));
    } else {
      for (std::size_t i = 0; i < step.length; ++i) {
        append_escaped(out, static_cast<unsigned char>(text[at + i]));
      }
    }
    at += step.length;
  }
  return out;
}

}  // namespace

Utf8Step decode_utf8(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return {true, lead, 1};
  // The length of the sequence the lead byte starts, and the range its second byte must be in;
  // the narrow ranges exclude overlong forms (E0, F0), surrogates (ED) and code points above
  // U+10FFFF (F4).
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xbf;
  char32_t code_point = 0;
  if (in(lead, 0xc2, 0xdf)) {
    length = 2;
    code_point = lead & 0x1fu;
  } else if (in(lead, 0xe0, 0xef)) {
    length = 3;
    code_point = lead & 0x0fu;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (in(lead, 0xf0, 0xf4)) {
    length = 4;
    code_point = lead & 0x07u;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return {false, 0, 1};  // a continuation byte, C0, C1 (overlong 2-byte forms) or F5..FF
  }
  for (std::size_t i = 1; i < length; ++i) {
    if (at + i >= text.size() || !in(byte(i), low, high)) return {false, 0, i};
    code_point = (code_point << 6) | (byte(i) & 0x3fu);
    low = 0x80;
    high = 0xbf;
  }
  return {true, code_point, length};
}

namespace {

// How many bytes of `text` fit in `max_bytes` when the cut may not split a character, so that a
// name is not shown with a broken last character.
std::size_t whole_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  std::size_t end = 0;
  while (end < text.size()) {
    const std::size_t length = decode_utf8(text, end).length;
    if (end + length > max_bytes) break;
    end += length;
  }
  return end;
}

std::string length_note(std::string_view text) {
  return "... (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
  const std::size_t end = whole_prefix(text, max_bytes);
  if (end == text.size()) return escape(text, /*keep_lines=*/false);
  return escape(text.substr(0, end), false) + length_note(text);
}

std::string quote(std::string_view text, std::size_t max_bytes) {
  const std::size_t end = whole_prefix(text, max_bytes);
  std::string out = "'" + escape(text.substr(0, end), /*keep_lines=*/false) + "'";
  if (end < text.size()) out += length_note(text);
  return out;
}

std::string printable_text(std::string_view text) { return escape(text, /*keep_lines=*/true); }

}  // namespace polydev::detail
