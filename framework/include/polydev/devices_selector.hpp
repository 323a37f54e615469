#pragma once

/// @file
/// `POLYDEV_DEVICES`: one selector grammar for OpenCL and CUDA devices, applied on top of the
/// backend selectors. A device runs when its backend's selector (`PYOPENCL_TEST`, `CUDA_DEVICE`,
/// `~/.cuda_device`) selects it *and* `POLYDEV_DEVICES` takes it; unset or blank, it takes every
/// device. docs/selectors.md is the reference, with examples and every error. The grammar:
///
///     POLYDEV_DEVICES = clause { ";" clause }   a device is taken when any clause takes it
///     clause          = term { "," term }        every term of the clause must hold
///     term            = [ "!" ] predicate        "!" negates the predicate
///                     | "max=" N                 the clause takes at most its first N devices
///     predicate       = "backend=" values        opencl, cuda
///                     | "type=" values           gpu, cpu, accelerator, custom
///                     | ("name" | "vendor" | "platform" | "key") ("~" | "=") values
///                                                "~" substring, "=" whole text; no case;
///                                                platform: its name or its vendor
///                     | "ext=" values            an OpenCL extension the device has
///                     | "fp64"                   double precision
///                     | ("opencl" | "cc") op version    OpenCL version, compute capability
///                     | "mem" op size            global memory: 16G, 512M, 1.5T, 80GiB, bytes
///     values          = value { "|" value }      any one of them
///     op              = ">=" | ">" | "<=" | "<" | "="
///
/// Every name, vendor, platform, key and extension matches *all* devices it fits (unlike
/// `PYOPENCL_TEST`, where a name picks the first match). Blanks around terms, operators and
/// values are ignored; attribute names and the values of `backend` and `type` ignore case.
///
/// Everything here is a pure function of the selector text and device attributes, so that it is
/// unit-tested and fuzzed without drivers.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "polydev/device.hpp"

namespace polydev {

/// One term of a clause, parsed.
struct SelectorTerm {
  enum class Attribute { backend, type, name, vendor, platform, key, ext, fp64, opencl, cc, mem };
  enum class Operator { none, equal, contains, less, less_equal, greater, greater_equal };

  std::string text;          ///< as written, without surrounding blanks
  std::size_t position = 0;  ///< 1-based character of the term in the selector text
  bool negated = false;
  Attribute attribute = Attribute::fp64;
  Operator op = Operator::none;
  std::vector<std::string> values;  ///< the `|` alternatives of a text attribute, as written
  DeviceVersion version;            ///< for `opencl` and `cc`
  std::uint64_t bytes = 0;          ///< for `mem`
};

/// One `,`-separated clause, parsed: its predicates and its limit.
struct SelectorClause {
  std::string text;          ///< as written, without surrounding blanks
  std::size_t position = 0;  ///< 1-based character of the clause in the selector text
  std::vector<SelectorTerm> terms;
  std::optional<std::size_t> max;  ///< `max=N`
};

/// A parsed `POLYDEV_DEVICES` value. No clause (a blank text) takes every device.
struct DevicesSelector {
  std::string text;
  std::vector<SelectorClause> clauses;
};

/// Parses a `POLYDEV_DEVICES` value; a blank text gives a selector without clauses.
/// @throws polydev::selection_error naming the clause or term, its position, what is wrong and
/// the accepted forms.
DevicesSelector parse_devices_selector(const std::string& text);

/// Whether `term` holds for `device` (its negation applied).
bool term_holds(const SelectorTerm& term, const Device& device);

/// Why `term` does not hold for `device`: the term and the device's fact it tested, e.g.
/// "'name~h200' does not hold (name 'NVIDIA A100')".
std::string why_term_fails(const SelectorTerm& term, const Device& device);

/// What one clause decided about one device.
struct ClauseVerdict {
  std::optional<std::size_t> failed_term;  ///< index of the first term that does not hold
  bool over_limit = false;  ///< every term holds, but the clause already took its `max`
  bool takes() const { return !failed_term && !over_limit; }
};

/// What the whole selector decided about one device.
struct DeviceVerdict {
  bool taken = false;
  std::vector<ClauseVerdict> clauses;  ///< one per clause of the selector
};

/// The verdict of each clause on `device`, limits not counted.
ClauseVerdict check_clause(const SelectorClause& clause, const Device& device);

/// The verdict on each of `candidates`, which are in run order: a clause's `max=N` takes the first
/// N devices whose terms hold. Without clauses every device is taken.
std::vector<DeviceVerdict> evaluate(const DevicesSelector& selector,
                                    const std::vector<Device>& candidates);

/// How many clauses a message names for one device; the rest are counted ("and 12 more
/// clauses leave it out"). `polydev devices --explain` names every one.
inline constexpr std::size_t kClausesInAMessage = 3;

/// The verdict in words: "taken by clause 2 'type=cpu'", or "left out: clause 1
/// 'backend=opencl,name~basic': 'name~basic' does not hold (name 'pthread-...')", one part per
/// clause joined by "; ", at most `max_clauses` of them, the others counted.
std::string describe_verdict(const DevicesSelector& selector, const DeviceVerdict& verdict,
                             const Device& device,
                             std::size_t max_clauses = std::numeric_limits<std::size_t>::max());

/// The error for a selector that takes none of `candidates`, on one line: the selector and, per
/// device, why the first `kClausesInAMessage` clauses left it out.
std::string nothing_taken_message(const DevicesSelector& selector,
                                  const std::vector<Device>& candidates,
                                  const std::vector<DeviceVerdict>& verdicts);

/// Parses `text` and applies it to `candidates` (in run order): the indices of the devices it
/// takes, in order. A blank text takes every candidate.
/// @throws polydev::selection_error for a malformed text, or one with clauses that takes no
/// device (`nothing_taken_message`).
std::vector<std::size_t> select_devices(const std::string& text,
                                        const std::vector<Device>& candidates);

}  // namespace polydev
