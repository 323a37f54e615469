// `polydev occupancy --threads N [--regs R] [--smem S] [--device KEY | --cc X.Y] [--json]`.
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "io/json_writer.hpp"
#include "io/printable.hpp"
#include "polydev/cuda/device_data.hpp"
#include "polydev/cuda/inventory.hpp"
#include "polydev/cuda/occupancy.hpp"
#include "polydev/cuda/selection.hpp"
#include "polydev/error.hpp"

namespace polydev::tool {

namespace {

constexpr const char* kOccupancyUsage =
    "usage: polydev occupancy --threads N [--regs R] [--smem BYTES] [--device KEY | --cc X.Y]\n"
    "                         [--json]\n"
    "\n"
    "  Blocks of a kernel that fit on one SM, and what limits them, as CUDA's occupancy\n"
    "  calculator computes it (PyCUDA's OccupancyRecord fields).\n"
    "\n"
    "  --threads N     threads per block\n"
    "  --regs R        registers per thread (cudaFuncAttributes::numRegs); default 0, no limit\n"
    "  --smem BYTES    shared memory per block, static plus dynamic; default 0\n"
    "  --device KEY    the CUDA device with this key (see 'polydev devices')\n"
    "  --cc X.Y        an architecture from polydev's table, no device needed\n"
    "                  (default: the first device that CUDA_DEVICE or ~/.cuda_device selects)\n"
    "  --json          one JSON object with tb_per_mp, limited_by, warps_per_mp, occupancy\n";

}  // namespace

const CommandSyntax kOccupancySyntax{kOccupancyUsage,
                                     {{"--threads", "a value"},
                                      {"--regs", "a value"},
                                      {"--smem", "a value"},
                                      {"--device", "a device key"},
                                      {"--cc", "a compute capability X.Y"},
                                      {"--json"}}};

namespace {

struct Options {
  std::optional<int> threads;
  int registers = 0;
  std::size_t shared_mem = 0;
  std::optional<std::string> device_key;
  std::optional<std::string> compute_capability;
  bool json = false;
};

// A bad argument: exit status 2.
usage_failure bad_usage(const std::string& message) {
  return usage_failure(message, kOccupancyUsage);
}

std::string supported_architectures() {
  std::string list;
  for (const std::string& cc : cuda::DeviceData::supported_compute_capabilities()) {
    list += (list.empty() ? "" : ", ") + cc;
  }
  return list;
}

// Decimal digits only (no sign, no spaces), at most `max`.
unsigned long long parse_count(const std::string& option, std::string_view text,
                               unsigned long long max) {
  bool digits = !text.empty() && text.size() <= 20;
  for (char c : text) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  errno = 0;
  const unsigned long long value =
      digits ? std::strtoull(std::string(text).c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || value > max) {
    throw bad_usage(option + " needs a whole number 0.." + std::to_string(max) + ", got " +
                    detail::quote(text));
  }
  return value;
}

Options parse(const ParsedArguments& parsed) {
  Options options;
  constexpr unsigned long long kIntMax = std::numeric_limits<int>::max();
  if (const auto value = parsed.value("--threads")) {
    options.threads = static_cast<int>(parse_count("--threads", *value, kIntMax));
  }
  if (const auto value = parsed.value("--regs")) {
    options.registers = static_cast<int>(parse_count("--regs", *value, kIntMax));
  }
  if (const auto value = parsed.value("--smem")) {
    options.shared_mem = static_cast<std::size_t>(
        parse_count("--smem", *value, std::numeric_limits<std::size_t>::max()));
  }
  options.device_key = parsed.value("--device");
  options.compute_capability = parsed.value("--cc");
  options.json = parsed.has("--json");
  if (!options.threads) throw bad_usage("--threads is required");
  if (options.device_key && options.compute_capability) {
    throw bad_usage("give either --device or --cc, not both");
  }
  return options;
}

struct Target {
  cuda::DeviceData data;
  std::optional<std::string> key;
};

Target resolve(const Options& options) {
  if (options.compute_capability) {
    try {
      return {cuda::DeviceData::for_compute_capability(*options.compute_capability), {}};
    } catch (const error& failure) {
      throw bad_usage(std::string("--cc: ") + failure.what());
    }
  }
  const cuda::Inventory& inventory = cuda::system_inventory();
  if (!inventory.available) {
    throw bad_usage("no CUDA device (" + inventory.reason +
                    "); name an architecture with --cc instead, one of " +
                    supported_architectures());
  }
  int ordinal = -1;
  if (options.device_key) {
    std::string keys;
    for (const cuda::DeviceInfo& device : inventory.devices) {
      if (device.key == *options.device_key) ordinal = device.ordinal;
      keys += (keys.empty() ? "" : ", ") + device.key;
    }
    if (ordinal < 0) {
      throw bad_usage("--device: no CUDA device has the key " + detail::quote(*options.device_key) +
                      "; the CUDA devices are " + keys);
    }
  } else {
    try {
      ordinal = cuda::select_test_devices(cuda::read_device_sources(), inventory).ordinals.at(0);
    } catch (const selection_error& failure) {
      throw bad_usage(failure.what());
    }
  }
  return {cuda::DeviceData::from_device(ordinal), inventory.devices.at(ordinal).key};
}

std::string json_string(std::string_view text) {
  detail::JsonWriter json;
  json.value(text);
  return json.text();
}

// The shortest decimal text that reads back as the same double.
std::string number(double value) {
  for (int precision = 1; precision <= 17; ++precision) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) return text;
  }
  return std::to_string(value);
}

void print_json(const Options& options, const Target& target, const cuda::OccupancyRecord& record) {
  const cuda::DeviceData& data = target.data;
  std::string limiting;
  for (const std::string& label : record.limiting) {
    limiting += (limiting.empty() ? "" : ", ") + json_string(label);
  }
  std::string limits;
  for (const auto& [blocks, label] : record.tb_per_mp_limits) {
    limits += (limits.empty() ? "" : ", ") + json_string(label) + ": " + std::to_string(blocks);
  }
  std::cout << "{\"tb_per_mp\": " << record.tb_per_mp
            << ", \"limited_by\": " << json_string(record.limited_by)
            << ", \"warps_per_mp\": " << record.warps_per_mp
            << ", \"occupancy\": " << number(record.occupancy) << ", \"limiting\": [" << limiting
            << "], \"tb_per_mp_limits\": {" << limits << "}, \"threads\": " << *options.threads
            << ", \"registers\": " << options.registers
            << ", \"shared_mem\": " << options.shared_mem
            << ", \"needs_smem_opt_in\": " << (record.needs_smem_opt_in ? "true" : "false")
            << ", \"compute_capability\": "
            << json_string(std::to_string(data.compute_capability_major) + "." +
                           std::to_string(data.compute_capability_minor))
            << ", \"device\": " << (target.key ? json_string(*target.key) : std::string("null"))
            << ", \"source\": " << json_string(data.name) << "}\n";
}

void print_text(const Options& options, const Target& target, const cuda::OccupancyRecord& record) {
  std::cout << *options.threads << " threads, " << options.registers << " registers, "
            << options.shared_mem << " bytes of shared memory per block on "
            << detail::printable(target.data.name)
            << (target.key ? " [" + *target.key + "]" : std::string()) << '\n';
  std::cout << "  tb_per_mp     " << record.tb_per_mp << '\n'
            << "  limited_by    " << record.limited_by << '\n'
            << "  warps_per_mp  " << record.warps_per_mp << " of " << target.data.warps_per_mp
            << '\n'
            << "  occupancy     " << number(record.occupancy) << '\n';
  std::string limits;
  for (const auto& [blocks, label] : record.tb_per_mp_limits) {
    limits += (limits.empty() ? "" : ", ") + label + " " + std::to_string(blocks);
  }
  std::cout << "  blocks per SM each limit allows: " << limits << '\n';
  if (record.needs_smem_opt_in) {
    std::cout
        << "  the kernel must opt in (cudaFuncAttributeMaxDynamicSharedMemorySize) to use more "
           "than "
        << target.data.max_shared_memory_per_block << " bytes per block\n";
  }
}

}  // namespace

int occupancy_command(const ParsedArguments& parsed) {
  const Options options = parse(parsed);
  const Target target = resolve(options);
  std::optional<cuda::OccupancyRecord> record;
  try {
    record.emplace(target.data, *options.threads, options.shared_mem, options.registers);
  } catch (const error& failure) {
    // Out of range for this device: the user's numbers are wrong, not the tool.
    throw bad_usage(failure.what());
  }
  if (options.json) {
    print_json(options, target, *record);
  } else {
    print_text(options, target, *record);
  }
  return 0;
}

}  // namespace polydev::tool
