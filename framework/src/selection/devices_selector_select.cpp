// POLYDEV_DEVICES applied to devices: attributes from the inventories, term by term verdicts,
// clause limits, and the words that explain each verdict.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "io/printable.hpp"
#include "polydev/devices_selector.hpp"
#include "polydev/error.hpp"
#include "selection/warning_summary.hpp"

namespace polydev {

namespace {

using Attribute = SelectorTerm::Attribute;
using Operator = SelectorTerm::Operator;

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string version_text(DeviceVersion version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor);
}

std::string size_text(std::uint64_t bytes) {
  std::array<char, 64> text{};
  if (bytes >= (1ull << 30)) {
    std::snprintf(text.data(), text.size(), "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  } else {
    std::snprintf(text.data(), text.size(), "%llu MiB",
                  static_cast<unsigned long long>(bytes >> 20));
  }
  return text.data();
}

template <typename Value>
bool compare(Operator op, const Value& left, const Value& right) {
  switch (op) {
    case Operator::less:
      return left < right;
    case Operator::less_equal:
      return !(right < left);
    case Operator::greater:
      return right < left;
    case Operator::greater_equal:
      return !(left < right);
    case Operator::equal:
      return left == right;
    case Operator::none:
    case Operator::contains:
      break;
  }
  return false;
}

// Whether a text attribute fits one of the term's values ('~': contains it, '=': is it).
bool text_matches(const SelectorTerm& term, const std::string& attribute) {
  const std::string haystack = lower(attribute);
  return std::any_of(term.values.begin(), term.values.end(), [&](const std::string& value) {
    const std::string needle = lower(value);
    return term.op == Operator::contains ? haystack.find(needle) != std::string::npos
                                         : haystack == needle;
  });
}

bool predicate_holds(const SelectorTerm& term, const Device& device) {
  switch (term.attribute) {
    case Attribute::backend:
      return std::find(term.values.begin(), term.values.end(),
                       std::string(backend_name(device.backend))) != term.values.end();
    case Attribute::type:
      return std::find(term.values.begin(), term.values.end(), device.type) != term.values.end();
    case Attribute::name:
      return text_matches(term, device.name);
    case Attribute::vendor:
      return text_matches(term, device.vendor);
    case Attribute::platform:
      return (device.platform && text_matches(term, *device.platform)) ||
             (device.platform_vendor && text_matches(term, *device.platform_vendor));
    case Attribute::key:
      return text_matches(term, device.key);
    case Attribute::ext:
      return std::any_of(term.values.begin(), term.values.end(), [&](const std::string& value) {
        return std::any_of(
            device.extensions.begin(), device.extensions.end(),
            [&](const std::string& extension) { return lower(extension) == lower(value); });
      });
    case Attribute::fp64:
      return device.fp64;
    case Attribute::opencl:
      return device.opencl_version && compare(term.op, *device.opencl_version, term.version);
    case Attribute::cc:
      return device.compute_capability &&
             compare(term.op, *device.compute_capability, term.version);
    case Attribute::mem:
      return compare(term.op, device.memory_bytes, term.bytes);
  }
  return false;
}

// The device's fact that a term tested, in words.
std::string fact(const SelectorTerm& term, const Device& device) {
  switch (term.attribute) {
    case Attribute::backend:
      return "backend " + std::string(backend_name(device.backend));
    case Attribute::type:
      return "type " + device.type;
    case Attribute::name:
      return "name " + detail::quote(device.name);
    case Attribute::vendor:
      return "vendor " + detail::quote(device.vendor);
    case Attribute::platform:
      if (!device.platform)
        return "no platform: a " + std::string(backend_name(device.backend)) + " device";
      return "platform " + detail::quote(*device.platform) + " of " +
             detail::quote(device.platform_vendor.value_or(""));
    case Attribute::key:
      return "key " + device.key;
    case Attribute::ext: {
      if (device.backend != Backend::opencl)
        return "no OpenCL extensions: a " + std::string(backend_name(device.backend)) + " device";
      std::string present;
      for (const std::string& value : term.values) {
        const bool has = std::any_of(
            device.extensions.begin(), device.extensions.end(),
            [&](const std::string& extension) { return lower(extension) == lower(value); });
        if (has) present += (present.empty() ? "" : ", ") + value;
      }
      return present.empty()
                 ? "without " + (term.values.size() == 1 ? term.values[0] : "any of them")
                 : "with " + present;
    }
    case Attribute::fp64:
      return device.fp64 ? "fp64 supported" : "no fp64";
    case Attribute::opencl:
      if (device.opencl_version) return "OpenCL " + version_text(*device.opencl_version);
      return device.backend == Backend::opencl
                 ? "OpenCL version not in the standard form"
                 : "no OpenCL version: a " + std::string(backend_name(device.backend)) + " device";
    case Attribute::cc:
      return device.compute_capability
                 ? "compute capability " + version_text(*device.compute_capability)
                 : "no compute capability: not an NVIDIA device";
    case Attribute::mem:
      return "memory " + size_text(device.memory_bytes);
  }
  return {};
}

std::string clause_label(const DevicesSelector& selector, std::size_t index) {
  return "clause " + std::to_string(index + 1) + " " + detail::quote(selector.clauses[index].text);
}

}  // namespace

bool term_holds(const SelectorTerm& term, const Device& device) {
  return predicate_holds(term, device) != term.negated;
}

std::string why_term_fails(const SelectorTerm& term, const Device& device) {
  return detail::quote(term.text) + " does not hold (" + fact(term, device) + ")";
}

ClauseVerdict check_clause(const SelectorClause& clause, const Device& device) {
  ClauseVerdict verdict;
  for (std::size_t t = 0; t < clause.terms.size(); ++t) {
    if (!term_holds(clause.terms[t], device)) {
      verdict.failed_term = t;
      break;
    }
  }
  return verdict;
}

std::vector<DeviceVerdict> evaluate(const DevicesSelector& selector,
                                    const std::vector<Device>& candidates) {
  std::vector<std::size_t> taken_by_clause(selector.clauses.size(), 0);
  std::vector<DeviceVerdict> verdicts;
  for (const Device& device : candidates) {
    DeviceVerdict verdict;
    verdict.taken = selector.clauses.empty();
    for (std::size_t c = 0; c < selector.clauses.size(); ++c) {
      const SelectorClause& clause = selector.clauses[c];
      ClauseVerdict clause_verdict = check_clause(clause, device);
      if (!clause_verdict.failed_term) {
        if (clause.max && taken_by_clause[c] >= *clause.max) {
          clause_verdict.over_limit = true;
        } else {
          ++taken_by_clause[c];
          verdict.taken = true;
        }
      }
      verdict.clauses.push_back(clause_verdict);
    }
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

std::string describe_verdict(const DevicesSelector& selector, const DeviceVerdict& verdict,
                             const Device& device, std::size_t max_clauses) {
  if (selector.clauses.empty()) return "taken: the selector has no clause";
  std::string takers;
  std::string reasons;
  std::size_t taking = 0;
  std::size_t leaving = 0;
  for (std::size_t c = 0; c < verdict.clauses.size() && c < selector.clauses.size(); ++c) {
    const ClauseVerdict& clause = verdict.clauses[c];
    if (clause.takes()) {
      if (taking++ < max_clauses) {
        takers += (takers.empty() ? "" : " and ") + clause_label(selector, c);
      }
      continue;
    }
    if (leaving++ >= max_clauses) continue;
    reasons += (reasons.empty() ? "" : "; ") + clause_label(selector, c) + ": ";
    if (clause.failed_term) {
      reasons += why_term_fails(selector.clauses[c].terms[*clause.failed_term], device);
    } else {
      reasons += "over its limit (max=" + std::to_string(*selector.clauses[c].max) +
                 " devices, taken before this one)";
    }
  }
  // A selector of thousands of clauses would otherwise make each message, and each test's
  // reason, as long as the selector times the devices.
  if (taking > max_clauses) {
    takers += " and " + std::to_string(taking - max_clauses) + " more clauses";
  }
  if (leaving > max_clauses) {
    reasons += "; and " + std::to_string(leaving - max_clauses) + " more clauses leave it out";
  }
  return verdict.taken ? "taken by " + takers : "left out: " + reasons;
}

std::string nothing_taken_message(const DevicesSelector& selector,
                                  const std::vector<Device>& candidates,
                                  const std::vector<DeviceVerdict>& verdicts) {
  // One line, as every selector error: it is also a test instance's parameter, printed in
  // GoogleTest's one-line results.
  std::string message = "POLYDEV_DEVICES=" + detail::quote(selector.text) + " takes no device";
  if (candidates.empty()) return message + ": there is no device to choose from";
  message += " of the " + std::to_string(candidates.size()) + ": ";
  for (std::size_t i = 0; i < candidates.size() && i < verdicts.size(); ++i) {
    std::string verdict =
        describe_verdict(selector, verdicts[i], candidates[i], kClausesInAMessage);
    const std::string prefix = "left out: ";
    if (verdict.compare(0, prefix.size(), prefix) == 0) verdict.erase(0, prefix.size());
    message += (i == 0 ? "" : ", ") + candidates[i].key + " (" + detail::quote(candidates[i].name) +
               ") [" + verdict + "]";
  }
  return message + "; 'polydev devices --explain' shows every device and clause";
}

std::vector<std::size_t> select_devices(const std::string& text,
                                        const std::vector<Device>& candidates) {
  const DevicesSelector selector = parse_devices_selector(text);
  const std::vector<DeviceVerdict> verdicts = evaluate(selector, candidates);
  std::vector<std::size_t> taken;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    if (verdicts[i].taken) taken.push_back(i);
  }
  if (taken.empty() && !selector.clauses.empty()) {
    throw selection_error(nothing_taken_message(selector, candidates, verdicts));
  }
  return taken;
}

}  // namespace polydev
