// `polydev characterize [DEVICE_KEY] [--json]`: every characterization value of the selected
// devices (or of the one named by its key), under the names of PyOpenCL's functions.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "io/json_writer.hpp"
#include "io/printable.hpp"
#include "polydev/cuda/device_data.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/characterize.hpp"
#include "polydev/overview.hpp"

#if defined(POLYDEV_WITH_OPENCL)
#include "polydev/opencl/system.hpp"
#endif

namespace polydev::tool {

namespace {

constexpr const char* kCharacterizeUsage =
    "usage: polydev characterize [DEVICE_KEY] [--json]\n"
    "  every value of pyopencl.characterize's functions for each device that PYOPENCL_TEST and\n"
    "  CUDA_DEVICE (or ~/.cuda_device) select, or for the one device named by its key (see\n"
    "  'polydev devices'); why_not_local_access_conflict_free is shown for 4-byte items in a\n"
    "  32x32 array. CUDA devices: PyCUDA's DeviceData attributes, read from the device.\n"
    "  --json: a list with one object per device, keyed by the function and attribute names.\n";

}  // namespace

// Any number of device keys is read, so that two of them get the message below.
const CommandSyntax kCharacterizeSyntax{
    kCharacterizeUsage, {{"--json"}}, static_cast<std::size_t>(-1)};

namespace {

// The array why_not_local_access_conflict_free is evaluated on: a 32x32 tile of 4-byte words,
// the case that shows whether a column walk conflicts on the device's banks.
constexpr std::size_t kConflictItemsize = 4;
const std::vector<std::size_t> kConflictShape = {32, 32};

// A value as both outputs need it: a small JSON-like tree.
struct Value {
  enum class Type { null, boolean, number, text, list, object };
  Type type = Type::null;
  bool flag = false;
  std::int64_t number = 0;
  std::string text;
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> members;
  // Defined below, where Value is complete: Clang 14 with libstdc++ 12 in C++20 rejects the
  // implicit one (it instantiates the members' destructors while std::pair<std::string, Value> is
  // incomplete).
  Value();
};

Value::Value() = default;

Value null_value() { return {}; }

Value boolean(bool flag) {
  Value value;
  value.type = Value::Type::boolean;
  value.flag = flag;
  return value;
}

Value number(std::uint64_t n) {
  Value value;
  value.type = Value::Type::number;
  value.number = static_cast<std::int64_t>(n);
  return value;
}

Value text(std::string s) {
  Value value;
  value.type = Value::Type::text;
  value.text = std::move(s);
  return value;
}

Value list(std::vector<Value> items) {
  Value value;
  value.type = Value::Type::list;
  value.items = std::move(items);
  return value;
}

Value object(std::vector<std::pair<std::string, Value>> members) {
  Value value;
  value.type = Value::Type::object;
  value.members = std::move(members);
  return value;
}

Value version(const std::optional<opencl::Version>& v) {
  if (!v) return null_value();
  return list(
      {number(static_cast<std::uint64_t>(v->major)), number(static_cast<std::uint64_t>(v->minor))});
}

Value optional_flag(const std::optional<bool>& flag) {
  return flag ? boolean(*flag) : null_value();
}

void write_json(detail::JsonWriter& json, const Value& value) {
  switch (value.type) {
    case Value::Type::null:
      json.null();
      break;
    case Value::Type::boolean:
      json.value(value.flag);
      break;
    case Value::Type::number:
      json.value(value.number);
      break;
    case Value::Type::text:
      json.value(value.text);
      break;
    case Value::Type::list:
      json.begin_array();
      for (const Value& item : value.items) write_json(json, item);
      json.end_array();
      break;
    case Value::Type::object:
      json.begin_object();
      for (const auto& [name, member] : value.members) {
        json.key(name);
        write_json(json, member);
      }
      json.end_object();
      break;
  }
}

std::string render(const Value& value) {
  switch (value.type) {
    case Value::Type::null:
      return "none";
    case Value::Type::boolean:
      return value.flag ? "true" : "false";
    case Value::Type::number:
      return std::to_string(value.number);
    case Value::Type::text:
      return detail::printable_text(value.text);
    case Value::Type::list: {
      std::string out = "[";
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        out += (i ? ", " : "") + render(value.items[i]);
      }
      return out + "]";
    }
    case Value::Type::object: {
      std::string out = "{";
      for (std::size_t i = 0; i < value.members.size(); ++i) {
        out += (i ? ", " : "") + value.members[i].first + ": " + render(value.members[i].second);
      }
      return out + "}";
    }
  }
  return {};
}

// What is printed for one device.
struct Report {
  std::string key;
  std::string name;
  std::string backend;
  std::vector<std::pair<std::string, Value>> values;        ///< function name -> value
  std::vector<std::string> notes;                           ///< PyOpenCL's warnings, as text
  std::vector<std::pair<std::string, std::string>> errors;  ///< function name -> what it raised
  std::string failure;  ///< the device could not be characterized at all
};

// Runs one rule; a rule that raises (as PyOpenCL's do for some devices) gives null and an error.
template <typename Rule>
void add(Report& report, const std::string& name, Rule&& rule) {
  try {
    report.values.emplace_back(name, rule());
  } catch (const polydev::error& failure) {
    report.values.emplace_back(name, null_value());
    report.errors.emplace_back(name, failure.what());
  }
}

// Notes once each: why_not_local_access_conflict_free repeats the guesses of the two rules
// before it.
void add_notes(Report& report, const std::vector<std::string>& notes) {
  for (const std::string& note : notes) {
    if (std::find(report.notes.begin(), report.notes.end(), note) == report.notes.end()) {
      report.notes.push_back(note);
    }
  }
}

Report characterize_opencl(const opencl::DeviceFacts& facts) {
  namespace ocl = polydev::opencl;
  Report report;
  report.key = facts.descriptor.device.key;
  report.name = facts.descriptor.device.name;
  report.backend = "opencl";
  add(report, "get_fast_inaccurate_build_options", [&] {
    std::vector<Value> options;
    for (std::string& option : ocl::get_fast_inaccurate_build_options(facts)) {
      options.push_back(text(std::move(option)));
    }
    return list(std::move(options));
  });
  add(report, "get_simd_group_size", [&] {
    const auto size = ocl::get_simd_group_size(facts);
    return size ? number(*size) : null_value();
  });
  add(report, "has_struct_arg_count_bug", [&] {
    const auto bug = ocl::has_struct_arg_count_bug(facts);
    return bug == ocl::StructArgCountBug::none ? boolean(false) : text(ocl::to_string(bug));
  });
  add(report, "nv_compute_capability", [&] { return version(ocl::nv_compute_capability(facts)); });
  add(report, "simultaneous_work_items_on_local_access", [&] {
    const auto answer = ocl::simultaneous_work_items_on_local_access(facts);
    add_notes(report, answer.notes);
    return number(answer.value);
  });
  add(report, "local_memory_bank_count", [&] {
    const auto answer = ocl::local_memory_bank_count(facts);
    add_notes(report, answer.notes);
    return number(answer.value);
  });
  add(report, "local_memory_access_granularity",
      [&] { return number(ocl::local_memory_access_granularity(facts)); });
  add(report, "usable_local_mem_size", [&] { return number(ocl::usable_local_mem_size(facts)); });
  add(report, "has_double_support", [&] { return boolean(ocl::has_double_support(facts)); });
  add(report, "has_amd_double_support",
      [&] { return boolean(ocl::has_amd_double_support(facts)); });
  add(report, "reasonable_work_group_size_multiple",
      [&] { return number(ocl::reasonable_work_group_size_multiple(facts)); });
  add(report, "why_not_local_access_conflict_free", [&] {
    const auto answer =
        ocl::why_not_local_access_conflict_free(facts, kConflictItemsize, kConflictShape);
    add_notes(report, answer.notes);
    std::vector<Value> shape;
    for (std::size_t extent : kConflictShape) shape.push_back(number(extent));
    return object({{"itemsize", number(kConflictItemsize)},
                   {"array_shape", list(std::move(shape))},
                   {"multiplicity", number(answer.multiplicity)},
                   {"explanation", answer.explanation ? text(*answer.explanation) : null_value()}});
  });
  add(report, "get_pocl_version", [&] {
    const auto answer = ocl::get_pocl_version(facts.descriptor.platform);
    add_notes(report, answer.notes);
    return version(answer.value);
  });
  add(report, "has_coarse_grain_buffer_svm",
      [&] { return boolean(ocl::has_coarse_grain_buffer_svm(facts)); });
  add(report, "has_fine_grain_buffer_svm",
      [&] { return boolean(ocl::has_fine_grain_buffer_svm(facts)); });
  add(report, "has_fine_grain_system_svm",
      [&] { return boolean(ocl::has_fine_grain_system_svm(facts)); });
  add(report, "has_fine_grain_buffer_svm_atomics",
      [&] { return boolean(ocl::has_fine_grain_buffer_svm_atomics(facts)); });
  add(report, "has_fine_grain_system_svm_atomics",
      [&] { return boolean(ocl::has_fine_grain_system_svm_atomics(facts)); });
  add(report, "has_src_build_cache",
      [&] { return optional_flag(ocl::has_src_build_cache(facts)); });
  return report;
}

// The facts of an enumerated device, with the kernel probes its rules need.
opencl::DeviceFacts live_facts(opencl::DevicePosition position) {
#if defined(POLYDEV_WITH_OPENCL)
  return opencl::query_device_facts_with_probes(opencl::System::get().device(position));
#else
  (void)position;
  throw error("polydev was built without the OpenCL backend");
#endif
}

Report characterize_opencl(const Overview& overview, opencl::DevicePosition position) {
  const opencl::DeviceInfo& info =
      overview.opencl.platforms.at(position.platform).devices.at(position.device);
  try {
    return characterize_opencl(live_facts(position));
  } catch (const std::exception& failure) {
    Report report;
    report.key = info.key;
    report.name = info.name;
    report.backend = "opencl";
    report.failure = failure.what();
    return report;
  }
}

// CUDA devices: PyCUDA's DeviceData attributes (and the limits CUDA's occupancy calculator adds),
// read from the device, under PyCUDA's names.
Report characterize_cuda(const cuda::DeviceInfo& device) {
  Report report;
  report.key = device.key;
  report.name = device.name;
  report.backend = "cuda";
  report.values.emplace_back(
      "compute_capability",
      version(opencl::Version{device.compute_capability_major, device.compute_capability_minor}));
  try {
    const cuda::DeviceData data = cuda::DeviceData::from_device(device.ordinal);
    const auto count = [](auto n) { return number(static_cast<std::uint64_t>(n)); };
    auto& values = report.values;
    values.emplace_back("max_threads", count(data.max_threads));
    values.emplace_back("warp_size", count(data.warp_size));
    values.emplace_back("warps_per_mp", count(data.warps_per_mp));
    values.emplace_back("thread_blocks_per_mp", count(data.thread_blocks_per_mp));
    values.emplace_back("registers", count(data.registers));
    values.emplace_back("shared_memory", count(data.shared_memory));
    values.emplace_back("smem_granularity", count(data.smem_granularity));
    values.emplace_back("smem_alloc_granularity", count(data.smem_alloc_granularity));
    values.emplace_back("register_allocation_unit", text(data.register_allocation_unit));
    // PyCUDA's alignment helpers for its word sizes, as {word size: value}.
    std::vector<std::pair<std::string, Value>> align_bytes;
    std::vector<std::pair<std::string, Value>> align_words;
    for (const int word_size : {4, 8, 16}) {
      align_bytes.emplace_back(std::to_string(word_size), count(data.align_bytes(word_size)));
      align_words.emplace_back(std::to_string(word_size), count(data.align_words(word_size)));
    }
    values.emplace_back("align_bytes", object(std::move(align_bytes)));
    values.emplace_back("align_words", object(std::move(align_words)));
    values.emplace_back("multiprocessors", count(data.multiprocessors));
    values.emplace_back("max_threads_per_mp", count(data.max_threads_per_mp));
    values.emplace_back("max_registers_per_block", count(data.max_registers_per_block));
    values.emplace_back("max_registers_per_thread", count(data.max_registers_per_thread));
    values.emplace_back("register_allocation_unit_size", count(data.register_allocation_unit_size));
    values.emplace_back("warp_allocation_granularity", count(data.warp_allocation_granularity));
    values.emplace_back("max_shared_memory_per_block", count(data.max_shared_memory_per_block));
    values.emplace_back("max_shared_memory_per_block_optin",
                        count(data.max_shared_memory_per_block_optin));
    values.emplace_back("reserved_shared_memory_per_block",
                        count(data.reserved_shared_memory_per_block));
    std::vector<Value> capacities;
    for (const std::size_t capacity : data.shared_memory_capacities) {
      capacities.push_back(count(capacity));
    }
    values.emplace_back("shared_memory_capacities", list(std::move(capacities)));
  } catch (const std::exception& failure) {
    report.failure = failure.what();
  }
  return report;
}

std::string format_json(const std::vector<Report>& reports) {
  detail::JsonWriter json;
  json.begin_array();
  for (const Report& report : reports) {
    json.begin_object()
        .key("key")
        .value(report.key)
        .key("name")
        .value(report.name)
        .key("backend")
        .value(report.backend);
    for (const auto& [name, value] : report.values) {
      json.key(name);
      write_json(json, value);
    }
    json.key("notes").begin_array();
    for (const std::string& note : report.notes) json.value(note);
    json.end_array().key("errors").begin_object();
    for (const auto& [name, message] : report.errors) json.key(name).value(message);
    json.end_object();
    if (!report.failure.empty()) json.key("failure").value(report.failure);
    json.end_object();
  }
  json.end_array();
  return json.text() + "\n";
}

std::string format_text(const std::vector<Report>& reports, const Overview& overview) {
  std::string out;
  for (const Report& report : reports) {
    // Names, values, notes and errors quote driver strings: shown with control characters
    // escaped.
    out += report.key + ": '" + detail::printable(report.name) + "' (" + report.backend + ")\n";
    if (!report.failure.empty()) {
      out += "  cannot characterize: " + detail::printable_text(report.failure) + "\n";
    }
    for (const auto& [name, value] : report.values) {
      std::string line = "  " + name;
      line.resize(std::max<std::size_t>(line.size() + 1, 42), ' ');
      const auto error =
          std::find_if(report.errors.begin(), report.errors.end(),
                       // (C++17 lambdas cannot capture a structured binding.)
                       [&key = name](const auto& entry) { return entry.first == key; });
      out += line +
             (error != report.errors.end() ? "error: " + detail::printable_text(error->second)
                                           : render(value)) +
             "\n";
    }
    for (const std::string& note : report.notes) {
      out += "  note: " + detail::printable_text(note) + "\n";
    }
  }
  if (reports.empty()) {
    out +=
        "no device selected (OpenCL: " +
        (overview.opencl.available ? "none selected"
                                   : detail::printable_text(overview.opencl.reason)) +
        "; CUDA: " +
        (overview.cuda.available ? "none selected" : detail::printable_text(overview.cuda.reason)) +
        ")\n";
  }
  return out;
}

std::string known_keys(const Overview& overview) {
  std::string keys;
  for (const auto& platform : overview.opencl.platforms) {
    for (const auto& device : platform.devices) keys += (keys.empty() ? "" : ", ") + device.key;
  }
  for (const auto& device : overview.cuda.devices) {
    keys += (keys.empty() ? "" : ", ") + device.key;
  }
  return keys.empty() ? "none (no OpenCL or CUDA device on this machine)" : keys;
}

}  // namespace

int characterize_command(const ParsedArguments& parsed) {
  const bool json = parsed.has("--json");
  if (parsed.positionals.size() > 1) {
    return usage_error("characterize",
                       "one device key at most, got " + detail::quote(parsed.positionals[0]) +
                           " and " + detail::quote(parsed.positionals[1]),
                       kCharacterizeUsage);
  }
  std::optional<std::string> key;
  if (!parsed.positionals.empty()) key = parsed.positionals[0];

  const Overview& overview = system_overview();
  std::vector<Report> reports;
  if (key) {
    // A key names its device whatever the selectors say.
    for (const auto& platform : overview.opencl.platforms) {
      for (const auto& device : platform.devices) {
        if (device.key == *key) {
          reports.push_back(characterize_opencl(overview, {platform.index, device.index}));
        }
      }
    }
    for (const auto& device : overview.cuda.devices) {
      if (device.key == *key) reports.push_back(characterize_cuda(device));
    }
    if (reports.empty()) {
      std::cerr << "polydev characterize: no device has the key '" << detail::printable(*key)
                << "'; known keys: " << known_keys(overview) << '\n';
      return 2;
    }
  } else {
    if (!report_selection_problems()) return 2;
    if (overview.opencl_selection) {
      for (const auto& position : overview.opencl_selection->devices) {
        reports.push_back(characterize_opencl(overview, position));
      }
    }
    if (overview.cuda_selection && overview.cuda.available) {
      for (int ordinal : overview.cuda_selection->ordinals) {
        for (const auto& device : overview.cuda.devices) {
          if (device.ordinal == ordinal) reports.push_back(characterize_cuda(device));
        }
      }
    }
  }
  std::cout << (json ? format_json(reports) : format_text(reports, overview));
  for (const Report& report : reports) {
    if (!report.failure.empty()) return 1;
  }
  return 0;
}

}  // namespace polydev::tool
