#pragma once

// A small streaming JSON writer for the documents polydev prints: strings escaped per RFC 8259,
// commas placed by the writer so callers cannot produce malformed output. Whatever bytes a string
// holds, the document is valid UTF-8: an ill-formed sequence becomes U+FFFD (one per maximal
// ill-formed subpart, as Unicode recommends), and control characters (C0, DEL, C1) are escaped.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace polydev::detail {

class JsonWriter {
 public:
  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(bool flag);
  JsonWriter& null();
  const std::string& text() const { return out_; }

 private:
  void separate();
  // Starts or ends an object or array: `bracket` is its brace or square bracket.
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  std::string out_;
  std::vector<bool> first_in_scope_;
  bool after_key_ = false;
};

}  // namespace polydev::detail
