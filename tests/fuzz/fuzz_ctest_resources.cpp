// CTest's resource allocation variables (ctest_allocated_device_keys) and the resource spec
// (ctest_resource_spec).
//
// Input: one byte for the slot count (0 to 3), then NAME=VALUE records separated by NUL bytes: the
// environment the allocation is read from (the first record of a name wins), and the NAMEs, in
// order, are the device keys given to ctest_resource_spec.
//
// Checked: no variables or a count of 0, no allocation; otherwise keys or a selection_error naming
// a CTEST_ variable; each key once, each listed by a group below the count and allocated to it by
// a value of the form 'id:<id>,slots:<n>' (one id, n positive); an error holds no raw control
// byte. The
// spec is a result or a polydev::error, and names every key.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "polydev/ctest_resources.hpp"

namespace {

using polydev_fuzz::require;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::string upper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

void check_allocation(const std::vector<std::string>& keys,
                      const std::map<std::string, std::string>& environment) {
  const auto lookup = [&](const std::string& name) -> std::optional<std::string> {
    const auto found = environment.find(name);
    if (found == environment.end()) return std::nullopt;
    return found->second;
  };
  const std::size_t count = std::stoul(*lookup("CTEST_RESOURCE_GROUP_COUNT"));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    require(std::find(keys.begin(), keys.begin() + i, keys[i]) == keys.begin() + i,
            "resource type '" + keys[i] + "' is reported twice");
    bool allocated = false;
    for (std::size_t group = 0; group < count && !allocated; ++group) {
      const std::string variable = "CTEST_RESOURCE_GROUP_" + std::to_string(group);
      const auto types = split(lookup(variable).value_or(""), ',');
      allocated = std::find(types.begin(), types.end(), keys[i]) != types.end() &&
                  lookup(variable + "_" + upper(keys[i])).has_value();
    }
    require(allocated, "resource type '" + keys[i] + "' is not allocated by any group");
  }
  // Every accepted allocation value has the one form CTest writes for a device: one id, a
  // positive slot count.
  for (std::size_t group = 0; group < count; ++group) {
    const std::string variable = "CTEST_RESOURCE_GROUP_" + std::to_string(group);
    for (const std::string& type : split(lookup(variable).value_or(""), ',')) {
      const std::string value = lookup(variable + "_" + upper(type)).value_or("");
      const auto fields = split(value, ',');
      const bool well_formed = value.find(';') == std::string::npos && fields.size() == 2 &&
                               fields[0].rfind("id:", 0) == 0 && fields[0].size() > 3 &&
                               fields[1].rfind("slots:", 0) == 0 && fields[1].size() > 6 &&
                               fields[1].find_first_not_of("0123456789", 6) == std::string::npos &&
                               fields[1].find_first_not_of('0', 6) != std::string::npos;
      require(well_formed, variable + "_" + upper(type) + "='" + value +
                               "' was accepted, but is not 'id:<id>,slots:<n>'");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  polydev_fuzz::Input input(data, size);
  const auto slots = static_cast<unsigned>(input.choice(4));
  std::map<std::string, std::string> environment;
  std::vector<std::string> names;
  while (!input.empty()) {
    const std::string record = input.field();
    const std::size_t equals = record.find('=');
    const std::string name = record.substr(0, equals);
    names.push_back(name);
    environment.emplace(name, equals == std::string::npos ? "" : record.substr(equals + 1));
  }
  const polydev::EnvironmentLookup lookup = [&](const std::string& name) {
    const auto found = environment.find(name);
    return found == environment.end() ? std::nullopt : std::optional<std::string>(found->second);
  };

  std::string message;
  const auto keys = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] { return polydev::ctest_allocated_device_keys(lookup); }, "ctest_allocated_device_keys",
      &message);
  require(keys || message.rfind("CTEST_RESOURCE_GROUP_", 0) == 0,
          "an allocation error does not start by naming a CTest variable: " + message);
  require(std::none_of(message.begin(), message.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }),
          "an allocation error holds a raw control byte");
  if (keys) {
    // A count of 0 is what CTest gives a test that asked for no resource: no allocation.
    const auto count = environment.find("CTEST_RESOURCE_GROUP_COUNT");
    require(keys->has_value() == (count != environment.end() && std::stoul(count->second) != 0),
            "an allocation must be read exactly when CTEST_RESOURCE_GROUP_COUNT is set above 0");
    if (*keys) check_allocation(**keys, environment);
  }

  const auto spec = polydev_fuzz::result_or_rejection<polydev::error>(
      [&] { return polydev::ctest_resource_spec(names, slots); }, "ctest_resource_spec");
  if (spec) {
    for (const std::string& name : names) {
      require(spec->find("\"" + name + "\":") != std::string::npos,
              "the resource spec does not name '" + name + "'");
    }
  }
  return 0;
}
