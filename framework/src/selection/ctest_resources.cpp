#include "polydev/ctest_resources.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "io/json_writer.hpp"
#include "polydev/environment.hpp"
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
    throw selection_error("CTEST_RESOURCE_GROUP_COUNT='" + *count_text +
                          "' is not a group count; CTest sets a non-negative number");
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
      const std::string allocation_variable = group_variable + "_" + upper(type);
      if (!lookup(allocation_variable)) {
        throw selection_error(allocation_variable + " is not set, but " + group_variable +
                              " names resource type '" + type + "'");
      }
      if (std::find(keys.begin(), keys.end(), type) == keys.end()) keys.push_back(type);
    }
  }
  return keys;
}

std::optional<std::vector<std::string>> ctest_allocated_device_keys() {
  return ctest_allocated_device_keys(
      [](const std::string& name) { return environment_variable(name.c_str()); });
}

}  // namespace polydev
