#include "polydev/ctest_resources.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "io/json_writer.hpp"
#include "io/printable.hpp"
#include "polydev/detail/environment.hpp"
#include "polydev/error.hpp"

namespace polydev {

namespace {

bool is_resource_type_name(const std::string& name) {
  if (name.empty() || !std::islower(static_cast<unsigned char>(name.front()))) return false;
  return std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::islower(c) || std::isdigit(c) || c == '_';
  });
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> pieces;
  std::string piece;
  for (char c : text) {
    if (c == separator) {
      pieces.push_back(piece);
      piece.clear();
    } else {
      piece += c;
    }
  }
  pieces.push_back(piece);
  return pieces;
}

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; });
}

// What CTest writes for one resource type of a group: "id:<id>,slots:<n>", one id because every
// device is a resource type with the one id "0" in polydev's spec and its entries ask for one of
// each. Several ';'-separated ids would be a hand-written or foreign spec that polydev cannot map
// to one device; a malformed value is no allocation CTest made.
void check_allocation_value(const std::string& variable, const std::string& value) {
  const auto fail = [&](const std::string& problem) {
    throw selection_error(variable + "=" + detail::quote(value) + " " + problem +
                          "; expected 'id:<id>,slots:<n>' (one id, n a positive number), as "
                          "ctest writes for a test given one device of the type");
  };
  if (value.find(';') != std::string::npos) {
    fail("allocates " + std::to_string(split(value, ';').size()) +
         " ids of one resource type, where a device is one id");
  }
  const std::vector<std::string> fields = split(value, ',');
  if (fields.size() != 2 || fields[0].rfind("id:", 0) != 0 || fields[1].rfind("slots:", 0) != 0) {
    fail("is not an allocation");
  }
  if (fields[0].size() == 3) fail("has an empty id");
  const std::string slots = fields[1].substr(6);
  if (!all_digits(slots) || slots.size() > 9 || std::stoul(slots) == 0) {
    fail("has slots " + detail::quote(slots) + ", not a positive number");
  }
}

}  // namespace

std::string ctest_resource_spec(const std::vector<std::string>& device_keys, unsigned slots) {
  if (slots == 0) {
    throw error(
        "CTest resource spec: 0 slots per device; give at least 1 (tests run at once on "
        "one device)");
  }
  std::set<std::string> seen;
  detail::JsonWriter json;
  json.begin_object().key("version").begin_object();
  json.key("major").value(std::int64_t{1}).key("minor").value(std::int64_t{0}).end_object();
  json.key("local").begin_array().begin_object();
  for (const std::string& key : device_keys) {
    if (!is_resource_type_name(key)) {
      throw error("CTest resource spec: '" + key +
                  "' is not a valid resource type name (a lowercase letter, then [a-z0-9_])");
    }
    if (!seen.insert(key).second) {
      throw error("CTest resource spec: device key '" + key + "' is listed twice");
    }
    json.key(key).begin_array().begin_object();
    json.key("id").value("0").key("slots").value(static_cast<std::int64_t>(slots));
    json.end_object().end_array();
  }
  json.end_object().end_array().end_object();
  return json.text() + "\n";
}

std::optional<std::vector<std::string>> ctest_allocated_device_keys(
    const EnvironmentLookup& lookup) {
  const std::optional<std::string> count_text = lookup("CTEST_RESOURCE_GROUP_COUNT");
  if (!count_text) return std::nullopt;
  std::size_t count = 0;
  if (count_text->empty() || count_text->size() > 6 ||
      !std::all_of(count_text->begin(), count_text->end(),
                   [](unsigned char c) { return std::isdigit(c); })) {
    throw selection_error("CTEST_RESOURCE_GROUP_COUNT=" + detail::quote(*count_text) +
                          " is not a group count; CTest sets a number from 0 to 999999");
  }
  count = std::stoul(*count_text);
  // CTest sets a count of 0 in every test without RESOURCE_GROUPS once a spec is given (host tests,
  // and whatever they start): such a test was not limited to any device.
  if (count == 0) return std::nullopt;
  std::vector<std::string> keys;
  for (std::size_t group = 0; group < count; ++group) {
    const std::string group_variable = "CTEST_RESOURCE_GROUP_" + std::to_string(group);
    const std::optional<std::string> types = lookup(group_variable);
    if (!types || types->empty()) {
      throw selection_error(group_variable + " is not set, but CTEST_RESOURCE_GROUP_COUNT is " +
                            *count_text + "; run the test through ctest, or unset both");
    }
    for (const std::string& type : split(*types, ',')) {
      if (!is_resource_type_name(type)) {
        throw selection_error(group_variable + "=" + detail::quote(*types) + " names " +
                              detail::quote(type) +
                              ", which is no resource type; expected a ',' list of device keys "
                              "(a lowercase letter, then [a-z0-9_])");
      }
      const std::string allocation_variable = group_variable + "_" + upper(type);
      const std::optional<std::string> allocation = lookup(allocation_variable);
      if (!allocation) {
        throw selection_error(allocation_variable + " is not set, but " + group_variable +
                              " names resource type '" + type + "'");
      }
      check_allocation_value(allocation_variable, *allocation);
      if (std::find(keys.begin(), keys.end(), type) == keys.end()) keys.push_back(type);
    }
  }
  return keys;
}

std::optional<std::vector<std::string>> ctest_allocated_device_keys() {
  return ctest_allocated_device_keys(
      [](const std::string& name) { return detail::environment_variable(name.c_str()); });
}

}  // namespace polydev
