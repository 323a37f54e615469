#include "io/json_writer.hpp"

#include <array>
#include <cstdio>

#include "io/printable.hpp"

namespace polydev::detail {

namespace {

// U+FFFD in UTF-8: what an ill-formed sequence becomes.
constexpr const char* kReplacementCharacter = "\xef\xbf\xbd";

}  // namespace

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_in_scope_.empty()) {
    if (!first_in_scope_.back()) out_ += ", ";
    first_in_scope_.back() = false;
  }
}

JsonWriter& JsonWriter::open(char bracket) {
  separate();
  out_ += bracket;
  first_in_scope_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  out_ += bracket;
  first_in_scope_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  value(name);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  separate();
  out_ += '"';
  for (std::size_t at = 0; at < text.size();) {
    const Utf8Step step = decode_utf8(text, at);
    if (!step.valid) {
      // Driver strings, files and XML reports may hold any bytes; the document stays UTF-8.
      out_ += kReplacementCharacter;
    } else if (step.code_point == '"') {
      out_ += "\\\"";
    } else if (step.code_point == '\\') {
      out_ += "\\\\";
    } else if (step.code_point == '\n') {
      out_ += "\\n";
    } else if (step.code_point == '\r') {
      out_ += "\\r";
    } else if (step.code_point == '\t') {
      out_ += "\\t";
    } else if (step.code_point < 0x20 || (step.code_point >= 0x7f && step.code_point <= 0x9f)) {
      // C0 must be escaped; DEL and C1 need not be, but escaped they cannot act on a terminal
      // that shows the JSON.
      std::array<char, 8> escaped{};
      std::snprintf(escaped.data(), escaped.size(), "\\u%04x",
                    static_cast<unsigned>(step.code_point));
      out_ += escaped.data();
    } else {
      out_.append(text.substr(at, step.length));
    }
    at += step.length;
  }
  out_ += '"';
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  separate();
  out_ += std::to_string(number);
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  separate();
  out_ += flag ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace polydev::detail
