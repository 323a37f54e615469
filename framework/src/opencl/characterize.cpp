// The characterization rules of pyopencl.characterize as pure functions of DeviceFacts.
#include "polydev/opencl/characterize.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "polydev/error.hpp"

namespace polydev::opencl {

namespace {

constexpr const char* kPocl = "Portable Computing Language";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool contains(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

bool is_word_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// `word` occurs in `text` with no letter or digit right before or after it: "ATI Technologies"
// has the word "ati", "Intel(R) Corporation" does not (PyOpenCL's substring test says it does).
bool contains_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_word_character(text[at - 1]);
    const std::size_t end = at + word.size();
    const bool ends = end == text.size() || !is_word_character(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool is_gpu(const DeviceFacts& facts) { return facts.descriptor.device.type == "gpu"; }
bool is_cpu(const DeviceFacts& facts) { return facts.descriptor.device.type == "cpu"; }
bool is_pocl(const DeviceFacts& facts) { return facts.descriptor.platform.name == kPocl; }

std::string device_label(const DeviceFacts& facts) {
  return "device '" + facts.descriptor.device.name + "'";
}

bool is_amd(const DeviceFacts& facts) {
  for (const std::string& vendor :
       {lower(facts.descriptor.platform.vendor), lower(facts.descriptor.device.vendor)}) {
    if (contains(vendor, "advanced micro") || contains_word(vendor, "ati")) return true;
  }
  return false;
}

bool is_nvidia(const DeviceFacts& facts) {
  return contains(lower(facts.descriptor.platform.vendor), "nvidia") ||
         contains(lower(facts.descriptor.device.vendor), "nvidia");
}

// The rule of simultaneous_work_items_on_local_access and local_memory_bank_count on NVIDIA's
// driver: 16 before Fermi, 32 from it; the table stops at 2.x, so later devices are a guess.
Noted<unsigned> nvidia_rule(const char* function, Version cc, const DeviceFacts& facts) {
  if (cc < Version{2, 0}) return {16, {}};
  Noted<unsigned> answer{32, {}};
  if (cc >= Version{3, 0}) {
    answer.notes.push_back(std::string(function) + ": 32 for " + device_label(facts) +
                           " (compute capability " + to_string(cc) +
                           ") is a guess; the rule is known up to compute capability 2.x");
  }
  return answer;
}

Noted<unsigned> guessed_16(const char* function, const DeviceFacts& facts) {
  // The rules know NVIDIA's compute capabilities and CPUs; anything else gets the pre-Fermi value.
  const std::string what =
      is_gpu(facts)
          ? "GPU '" + facts.descriptor.device.name + "', which reports no NVIDIA compute capability"
          : device_label(facts) + " of type '" + facts.descriptor.device.type + "'";
  return {16, {std::string(function) + ": 16 is a guess for " + what}};
}

bool svm_bit(const DeviceFacts& facts, std::uint64_t bit) {
  return (facts.descriptor.device.svm_capabilities & bit) != 0;
}

}  // namespace

bool has_double_support(const DeviceFacts& facts) {
  return has_extension(facts.descriptor.device.extensions, "cl_khr_fp64");
}

bool has_amd_double_support(const DeviceFacts& facts) {
  return has_extension(facts.descriptor.device.extensions, "cl_amd_fp64");
}

std::optional<Version> nv_compute_capability(const DeviceFacts& facts) {
  return facts.compute_capability_nv;
}

std::size_t reasonable_work_group_size_multiple(const DeviceFacts& facts) {
  if (facts.warp_size_nv) return *facts.warp_size_nv;
  if (facts.kernel_work_group_size_multiple) return *facts.kernel_work_group_size_multiple;
  throw error("reasonable_work_group_size_multiple: " + device_label(facts) +
              " reports no CL_DEVICE_WARP_SIZE_NV and its facts lack the kernel probe "
              "(DeviceFacts::kernel_work_group_size_multiple); read the facts with "
              "query_device_facts_with_probes()");
}

std::uint64_t usable_local_mem_size(const DeviceFacts& facts, std::optional<std::uint64_t> nargs) {
  const std::uint64_t size = facts.descriptor.device.local_memory_bytes;
  const auto cc = facts.compute_capability_nv;
  // Pre-Fermi GPUs pass kernel arguments through local memory.
  if (!cc || *cc >= Version{2, 0}) return size;
  if (nargs && *nargs > size / 4) {
    throw error("usable_local_mem_size: " + std::to_string(*nargs) + " arguments take " +
                std::to_string(*nargs) + " x 4 bytes of local memory on " + device_label(facts) +
                " (compute capability " + to_string(*cc) + "), which has only " +
                std::to_string(size) + " bytes; nargs counts 32-bit kernel arguments");
  }
  const std::uint64_t reserved = nargs ? 4 * *nargs : 256;
  if (reserved > size) {
    throw error("usable_local_mem_size: " + device_label(facts) + " has " + std::to_string(size) +
                " bytes of local memory, less than the 256 bytes that arguments may take on "
                "compute capability " +
                to_string(*cc) + "; pass nargs");
  }
  return size - reserved;
}

Noted<unsigned> simultaneous_work_items_on_local_access(const DeviceFacts& facts) {
  constexpr const char* kName = "simultaneous_work_items_on_local_access";
  if (facts.compute_capability_nv) return nvidia_rule(kName, *facts.compute_capability_nv, facts);
  if (is_gpu(facts)) return guessed_16(kName, facts);
  if (is_cpu(facts)) return {1, {}};
  return guessed_16(kName, facts);
}

unsigned local_memory_access_granularity(const DeviceFacts& /*facts*/) { return 4; }

Noted<unsigned> local_memory_bank_count(const DeviceFacts& facts) {
  constexpr const char* kName = "local_memory_bank_count";
  if (facts.compute_capability_nv) return nvidia_rule(kName, *facts.compute_capability_nv, facts);
  if (is_gpu(facts)) return guessed_16(kName, facts);
  if (is_cpu(facts) && facts.local_memory_type == LocalMemoryType::global) {
    throw error("local_memory_bank_count: meaningless for CPU '" + facts.descriptor.device.name +
                "': its local memory is cache-based (CL_DEVICE_LOCAL_MEM_TYPE is CL_GLOBAL), so it "
                "has no banks");
  }
  return guessed_16(kName, facts);
}

std::vector<std::string> get_fast_inaccurate_build_options(const DeviceFacts& facts) {
  std::vector<std::string> options = {"-cl-mad-enable", "-cl-fast-relaxed-math",
                                      "-cl-no-signed-zeros"};
  const std::string& vendor = facts.descriptor.device.vendor;
  if (starts_with(vendor, "Advanced Micro") || starts_with(vendor, "NVIDIA")) {
    options.emplace_back("-cl-strict-aliasing");
  }
  return options;
}

std::optional<std::size_t> get_simd_group_size(const DeviceFacts& facts) {
  if (facts.warp_size_nv) return *facts.warp_size_nv;
  if (is_nvidia(facts)) return 32;
  if (is_amd(facts)) {
    // A wavefront is 64, 32 or 16 wide depending on the board: the compiler's preferred multiple
    // is the best guess.
    if (is_gpu(facts)) return reasonable_work_group_size_multiple(facts);
    if (is_cpu(facts)) return 1;
    throw error("get_simd_group_size: AMD " + device_label(facts) + " is of type '" +
                facts.descriptor.device.type + "'; the rule knows AMD GPUs and CPUs only");
  }
  // A CPU implementation is assumed to vectorize across work items itself.
  if (is_cpu(facts)) return 1;
  return std::nullopt;
}

std::string to_string(StructArgCountBug bug) {
  switch (bug) {
    case StructArgCountBug::apple:
      return "apple";
    case StructArgCountBug::pocl:
      return "pocl";
    case StructArgCountBug::none:
      break;
  }
  return "";
}

bool needs_struct_arg_count_probe(const DeviceFacts& facts) {
  if (!is_pocl(facts)) return false;
  const Version version = *get_pocl_version(facts.descriptor.platform, Version{0, 14}).value;
  return version > Version{0, 13} && version <= Version{0, 14};
}

StructArgCountBug has_struct_arg_count_bug(const DeviceFacts& facts) {
  if (facts.descriptor.platform.name == "Apple" && is_cpu(facts)) return StructArgCountBug::apple;
  if (!is_pocl(facts)) return StructArgCountBug::none;
  const Version version = *get_pocl_version(facts.descriptor.platform, Version{0, 14}).value;
  if (version <= Version{0, 13}) return StructArgCountBug::pocl;
  if (!needs_struct_arg_count_probe(facts)) return StructArgCountBug::none;
  if (!facts.struct_arg_count_probe) {
    throw error("has_struct_arg_count_bug: PoCL " + to_string(version) + " on " +
                device_label(facts) +
                " needs the kernel probe (DeviceFacts::struct_arg_count_probe); read the facts "
                "with query_device_facts_with_probes()");
  }
  return *facts.struct_arg_count_probe ? StructArgCountBug::pocl : StructArgCountBug::none;
}

bool may_have_svm(const DeviceFacts& facts) {
  if (is_pocl(facts)) {
    // PyOpenCL compares an unparsable PoCL version with (1, 0) and fails; the platform's OpenCL
    // version below is as good an answer.
    if (const auto pocl = get_pocl_version(facts.descriptor.platform).value) {
      return *pocl >= Version{1, 0};
    }
  }
  const auto version = parse_opencl_version(facts.descriptor.platform.version);
  return version && *version >= Version{2, 0};
}

bool has_coarse_grain_buffer_svm(const DeviceFacts& facts) {
  return may_have_svm(facts) && svm_bit(facts, svm_coarse_grain_buffer);
}

bool has_fine_grain_buffer_svm(const DeviceFacts& facts) {
  return may_have_svm(facts) && svm_bit(facts, svm_fine_grain_buffer);
}

bool has_fine_grain_system_svm(const DeviceFacts& facts) {
  return may_have_svm(facts) && svm_bit(facts, svm_fine_grain_system);
}

bool has_fine_grain_buffer_svm_atomics(const DeviceFacts& facts) {
  return has_fine_grain_buffer_svm(facts) && svm_bit(facts, svm_atomics);
}

bool has_fine_grain_system_svm_atomics(const DeviceFacts& facts) {
  return has_fine_grain_system_svm(facts) && svm_bit(facts, svm_atomics);
}

std::optional<bool> has_src_build_cache(const DeviceFacts& facts) {
  if (is_pocl(facts)) return true;
  if (facts.compute_capability_nv) return true;
  if (facts.descriptor.platform.name == "AMD Accelerated Parallel Processing") return false;
  return std::nullopt;
}

}  // namespace polydev::opencl
