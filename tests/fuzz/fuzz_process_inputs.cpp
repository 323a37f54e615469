// The process's selection inputs that no selector parser reads: POLYDEV_CTEST_ENTRY
// (testing::parse_ctest_entry), POLYDEV_SHARD_BY with GoogleTest's shard variables
// (testing::parse_device_sharding), POLYDEV_REQUIRE_DEVICES (parse_required_backends), and
// read_selection_inputs, which reads them all, with the test layer's extension and without one.
//
// Input: two flags bytes, then the fields POLYDEV_CTEST_ENTRY, POLYDEV_SHARD_BY,
// GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX, POLYDEV_REQUIRE_DEVICES, POLYDEV_PROFILE and a profile's
// default for POLYDEV_REQUIRE_DEVICES, separated by NUL bytes. First flags: 1, 2, 4, 8 set the
// first four variables; second flags: 1 sets POLYDEV_REQUIRE_DEVICES, 2 POLYDEV_PROFILE, 4 reads
// without the test layer, 8 gives the layer a profile that sets POLYDEV_REQUIRE_DEVICES.
//
// Checked: each parser agrees with an independent statement of the forms it accepts, or throws
// its documented error naming the variable; read_selection_inputs holds what the parsers give,
// the first malformed variable's message as the process's error, the profile's default only where
// the environment leaves the variable unset; without the layer, a profile or a device shard is an
// error and the CTest entry is not read. No message holds a raw control byte or grows with the
// value (a variable may be 128 KiB).

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_support.hpp"
#include "polydev/placeholders.hpp"
#include "polydev/selection.hpp"
#include "polydev/testing/test_inputs.hpp"

namespace {

using polydev::CTestEntry;
using polydev::DeviceShard;
using polydev::RequiredBackends;
using polydev::SelectionInputs;
using polydev_fuzz::require;

// A message quotes at most a few dozen bytes of each value it names.
constexpr std::size_t kLongestMessage = 1024;

void check_message(const std::string& message, const std::string& starts_with, const char* parser) {
  require(message.rfind(starts_with, 0) == 0,
          std::string(parser) + "'s message does not start with " + starts_with + ": " + message);
  require(message.size() <= kLongestMessage,
          std::string(parser) + "'s message is " + std::to_string(message.size()) + " bytes long");
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    require(byte >= 0x20 && byte != 0x7f,
            std::string(parser) + "'s message holds a raw control byte: " + message);
  }
}

// Whether every byte of `text` is of the class `in_class` (a predicate on an unsigned char).
template <typename Class>
bool all_of_class(const std::string& text, Class in_class) {
  for (const char c : text) {
    if (!in_class(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool is_key_character(unsigned char c) {
  return std::islower(c) != 0 || std::isdigit(c) != 0 || c == '_';
}
bool is_digit(unsigned char c) { return std::isdigit(c) != 0; }
bool is_blank(unsigned char c) { return std::isspace(c) != 0; }

// Pieces of `text` between occurrences of `separator`, written here again on purpose.
std::vector<std::string> split(const std::string& text, const std::string& separator) {
  std::vector<std::string> pieces;
  std::string rest = text;
  for (std::size_t at; (at = rest.find(separator)) != std::string::npos;) {
    pieces.push_back(rest.substr(0, at));
    rest.erase(0, at + separator.size());
  }
  pieces.push_back(rest);
  return pieces;
}

// POLYDEV_CTEST_ENTRY: "host", a placeholder, or device keys joined by the set separator.
std::optional<CTestEntry> check_ctest_entry(const std::string& value, std::string& message) {
  const auto entry = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] { return polydev::testing::parse_ctest_entry(value); }, "parse_ctest_entry", &message);
  const bool host = value == "host";
  const bool placeholder = polydev::is_placeholder(value);
  const std::vector<std::string> pieces = split(value, std::string(polydev::kDeviceSetSeparator));
  bool keys = !host && !placeholder;
  bool distinct = true;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const std::string& key = pieces[i];
    keys = keys &&
           ((key.rfind("opencl_", 0) == 0 && key.size() > 7) ||
            (key.rfind("cuda_", 0) == 0 && key.size() > 5)) &&
           all_of_class(key, is_key_character);
    for (std::size_t j = 0; j < i; ++j) distinct = distinct && pieces[j] != key;
  }
  if (!entry) {
    require(!host && !placeholder && (!keys || !distinct),
            "parse_ctest_entry refused a well-formed entry: " + message);
    check_message(message, std::string(polydev::kCTestEntryVariable) + "=", "parse_ctest_entry");
    // (The parser reports the first bad piece: a malformed key or one named twice.)
    const bool names_forms =
        message.find("expected 'host', a placeholder's name or device keys") != std::string::npos;
    const bool names_twice = message.find(" twice; expected distinct devices") != std::string::npos;
    require(names_forms || (!distinct && names_twice),
            "parse_ctest_entry's message does not say what is accepted: " + message);
    return entry;
  }
  require(distinct, "parse_ctest_entry accepted a device named twice");
  require(entry->name == value, "parse_ctest_entry changed the entry's name");
  if (host) {
    require(entry->kind == CTestEntry::Kind::host && entry->keys.empty(),
            "'host' is no host entry");
  } else if (placeholder) {
    require(entry->kind == CTestEntry::Kind::placeholder && entry->keys.empty(),
            "a placeholder's name is no placeholder entry");
  } else {
    require(keys, "parse_ctest_entry took malformed keys: " + value);
    require(entry->kind == CTestEntry::Kind::devices && entry->keys == pieces,
            "parse_ctest_entry's keys are not the value's pieces: " + value);
  }
  return entry;
}

std::optional<int> count(const std::string& text) {
  if (text.empty() || text.size() > 6 || !all_of_class(text, is_digit)) return std::nullopt;
  return std::stoi(text);
}

// POLYDEV_SHARD_BY and GoogleTest's shard variables.
std::optional<DeviceShard> check_sharding(const polydev::EnvironmentLookup& environment,
                                          std::string& message, bool& refused) {
  const auto parsed = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] {
        return polydev::testing::parse_device_sharding(
            [&](const char* name) { return environment(name); });
      },
      "parse_device_sharding", &message);
  const auto by = environment("POLYDEV_SHARD_BY");
  const auto total = environment("GTEST_TOTAL_SHARDS");
  const auto index = environment("GTEST_SHARD_INDEX");
  std::string expected_start;  // of the message, when the variables are malformed
  std::optional<DeviceShard> expected;
  if (!by || by->empty() || *by == "test") {
  } else if (*by != "device") {
    expected_start = "POLYDEV_SHARD_BY=";
  } else if (!total && !index) {
  } else if (!total || !index) {
    expected_start = "POLYDEV_SHARD_BY=device needs both";
  } else if (!count(*total) || *count(*total) < 1) {
    expected_start = "GTEST_TOTAL_SHARDS=";
  } else if (!count(*index) || *count(*index) >= *count(*total)) {
    expected_start = "GTEST_SHARD_INDEX=";
  } else {
    expected = DeviceShard{*count(*index), *count(*total)};
  }
  refused = !parsed.has_value();
  if (refused) {
    require(!expected_start.empty(), "parse_device_sharding refused well-formed variables");
    check_message(message, expected_start, "parse_device_sharding");
    return std::nullopt;
  }
  require(expected_start.empty(), "parse_device_sharding took malformed variables");
  const std::optional<DeviceShard>& shard = *parsed;
  require(shard.has_value() == expected.has_value() &&
              (!shard || (shard->index == expected->index && shard->total == expected->total)),
          "parse_device_sharding's shard is not the variables'");
  return shard;
}

// POLYDEV_REQUIRE_DEVICES: backends separated by ',' or blanks, in any case.
RequiredBackends check_required(const std::optional<std::string>& text) {
  const RequiredBackends required = polydev::parse_required_backends(text);
  RequiredBackends expected;
  bool malformed = false;
  if (text && !all_of_class(*text, is_blank)) {
    for (const std::string& item : split(*text, ",")) {
      bool has_word = false;
      std::string word;
      for (std::size_t at = 0; at <= item.size(); ++at) {
        if (at < item.size() && !is_blank(static_cast<unsigned char>(item[at]))) {
          word += static_cast<char>(std::tolower(static_cast<unsigned char>(item[at])));
          continue;
        }
        if (word.empty()) continue;
        has_word = true;
        expected.opencl = expected.opencl || word == "opencl";
        expected.cuda = expected.cuda || word == "cuda";
        malformed = malformed || (word != "opencl" && word != "cuda");
        word.clear();
      }
      malformed = malformed || !has_word;
    }
  }
  if (malformed) {
    require(!required.error.empty(), "parse_required_backends took a malformed list");
    check_message(required.error, "POLYDEV_REQUIRE_DEVICES=", "parse_required_backends");
    return required;
  }
  require(required.error.empty(), "parse_required_backends refused a list: " + required.error);
  require(required.opencl == expected.opencl && required.cuda == expected.cuda,
          "parse_required_backends required other backends than the list names");
  return required;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  polydev_fuzz::Input input(data, size);
  const unsigned set = input.flags();
  const unsigned more = input.flags();
  const char* const names[] = {"POLYDEV_CTEST_ENTRY",     "POLYDEV_SHARD_BY",
                               "GTEST_TOTAL_SHARDS",      "GTEST_SHARD_INDEX",
                               "POLYDEV_REQUIRE_DEVICES", "POLYDEV_PROFILE"};
  std::vector<std::pair<std::string, std::string>> variables;
  for (std::size_t i = 0; i < 6; ++i) {
    std::string value = input.field();
    const bool is_set = i < 4 ? (set >> i) & 1u : (more >> (i - 4)) & 1u;
    if (is_set) variables.emplace_back(names[i], std::move(value));
  }
  const std::string profile_default = input.field();
  const bool without_layer = (more & 4u) != 0;
  const polydev::EnvironmentLookup environment =
      [&](const std::string& name) -> std::optional<std::string> {
    for (const auto& [variable, value] : variables) {
      if (variable == name) return value;
    }
    return std::nullopt;
  };

  std::string entry_message;
  std::optional<CTestEntry> entry;
  const auto entry_value = environment("POLYDEV_CTEST_ENTRY");
  if (entry_value) entry = check_ctest_entry(*entry_value, entry_message);
  std::string shard_message;
  bool shard_refused = false;
  const std::optional<DeviceShard> shard =
      check_sharding(environment, shard_message, shard_refused);

  polydev::ProcessConfig config;
  if ((more & 8u) != 0) config.profile_variables = {{"POLYDEV_REQUIRE_DEVICES", profile_default}};
  std::optional<polydev::ProcessInputsExtension> extension;
  if (!without_layer) extension = polydev::testing::test_inputs_extension(config);
  const SelectionInputs inputs = polydev::read_selection_inputs(environment, extension, {});

  std::optional<std::string> required_text = environment("POLYDEV_REQUIRE_DEVICES");
  if (!required_text && extension && !config.profile_variables.empty()) {
    required_text = profile_default;
  }
  require(inputs.require_devices == required_text,
          "POLYDEV_REQUIRE_DEVICES is not the environment's, or the profile's where unset");
  check_required(inputs.require_devices);

  const auto by = environment("POLYDEV_SHARD_BY");
  const auto profile = environment("POLYDEV_PROFILE");
  if (without_layer) {
    require(!inputs.ctest_entry && !inputs.shard, "read a layer's variable without the layer");
    if (by && !by->empty() && *by != "test") {
      check_message(inputs.process_error, "POLYDEV_SHARD_BY=", "read_selection_inputs");
    } else {
      require(inputs.process_error.empty(), "a process error without a malformed variable");
    }
    if (profile && !profile->empty()) {
      check_message(inputs.defaults_error, "POLYDEV_PROFILE=", "read_selection_inputs");
    } else {
      require(inputs.defaults_error.empty(), "a defaults error without a profile");
    }
    return 0;
  }
  require(inputs.defaults_error.empty(), "the layer's configuration has no error here");
  // The entry is read before the shard: the first malformed one is the process's error.
  if (entry_value && !entry) {
    require(inputs.process_error == entry_message && !inputs.ctest_entry,
            "the process's error is not the CTest entry's");
    return 0;
  }
  require(inputs.ctest_entry.has_value() == entry.has_value() &&
              (!entry || (inputs.ctest_entry->name == entry->name &&
                          inputs.ctest_entry->keys == entry->keys)),
          "the inputs' CTest entry is not the parser's");
  if (shard_refused) {
    require(inputs.process_error == shard_message && !inputs.shard,
            "the process's error is not the shard's");
    return 0;
  }
  require(inputs.process_error.empty(), "a process error without a malformed variable");
  require(
      inputs.shard.has_value() == shard.has_value() &&
          (!shard || (inputs.shard->index == shard->index && inputs.shard->total == shard->total)),
      "the inputs' shard is not the parser's");
  return 0;
}
