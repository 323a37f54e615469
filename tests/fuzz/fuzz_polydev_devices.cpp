// POLYDEV_DEVICES (parse_devices_selector, evaluate, select_devices) against synthetic machines.
//
// Input: one byte picks the candidates (0 the mixed OpenCL and CUDA machine of
// synthetic_inventory.hpp, 1 the fake machine of synthetic_opencl_inventory() with two H200s, 2 no
// device, 3 PoCL with three devices, 4 two identical NVIDIA platforms and eight CUDA boards), the
// rest is the selector.
//
// Checked: a selector or a selection_error naming POLYDEV_DEVICES; a blank text has no clause and
// takes everything; each clause and term is found at its position as written; a negated term holds
// exactly when the plain one does not; a device is taken exactly when one of its clauses takes it;
// a clause takes at most its max; select_devices gives the taken devices in order, or, when a
// selector with clauses takes none, an error; the verdicts can be put in words; the term that an
// unknown attribute's "did you mean" suggests has a known attribute.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "polydev/devices_selector.hpp"

namespace {

using polydev::Device;
using polydev_fuzz::require;

std::vector<Device> candidates_of(const polydev::opencl::Inventory& opencl,
                                  const polydev::cuda::Inventory& cuda) {
  std::vector<Device> out;
  for (const auto& platform : opencl.platforms) {
    for (const auto& device : platform.devices) out.push_back(polydev::device_of(platform, device));
  }
  for (const auto& device : cuda.devices) out.push_back(polydev::device_of(device));
  return out;
}

const std::vector<Device>& candidates(polydev_fuzz::Input& input) {
  static const std::vector<std::vector<Device>> machines{
      candidates_of(polydev_test::mixed_opencl_inventory(), polydev_test::mixed_cuda_inventory()),
      candidates_of(polydev_test::synthetic_opencl_inventory(),
                    polydev_test::synthetic_cuda_inventory()),
      {},
      candidates_of(polydev_fuzz::pocl_three_devices(), polydev::cuda::Inventory{}),
      candidates_of(polydev_fuzz::identical_platforms(), polydev_fuzz::cuda_boards(8))};
  return machines[input.choice(machines.size())];
}

bool blank(const std::string& text) {
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') return false;
  }
  return true;
}

// `piece` is written at 1-based `position` of `text`.
bool found_at(const std::string& text, std::size_t position, const std::string& piece) {
  return position >= 1 && position - 1 <= text.size() &&
         text.compare(position - 1, piece.size(), piece) == 0;
}

void check_selector(const polydev::DevicesSelector& selector, const std::string& text,
                    const std::vector<Device>& devices) {
  require(selector.clauses.empty() == blank(text), "a blank text must give no clause, and only it");
  for (const auto& clause : selector.clauses) {
    require(
        found_at(text, clause.position, clause.text),
        "clause '" + clause.text + "' is not at its position " + std::to_string(clause.position));
    for (const auto& term : clause.terms) {
      require(found_at(text, term.position, term.text),
              "term '" + term.text + "' is not at its position " + std::to_string(term.position));
      polydev::SelectorTerm flipped = term;
      flipped.negated = !term.negated;
      for (const auto& device : devices) {
        const bool holds = polydev::term_holds(term, device);
        require(polydev::term_holds(flipped, device) == !holds,
                "'!' does not negate term '" + term.text + "'");
        if (!holds) {
          require(!polydev::why_term_fails(term, device).empty(), "a failing term says nothing");
        }
      }
    }
  }

  const auto verdicts = polydev::evaluate(selector, devices);
  require(verdicts.size() == devices.size(), "evaluate must give one verdict per device");
  std::vector<std::size_t> taken;
  std::vector<std::size_t> taken_by_clause(selector.clauses.size(), 0);
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const auto& verdict = verdicts[d];
    require(verdict.clauses.size() == selector.clauses.size(), "one clause verdict per clause");
    bool any = selector.clauses.empty();
    for (std::size_t c = 0; c < selector.clauses.size(); ++c) {
      if (verdict.clauses[c].takes()) {
        any = true;
        ++taken_by_clause[c];
      }
    }
    require(verdict.taken == any, "a device is taken exactly when one of its clauses takes it");
    if (verdict.taken) taken.push_back(d);
    require(!polydev::describe_verdict(selector, verdict, devices[d]).empty(),
            "a verdict in words is empty");
  }
  for (std::size_t c = 0; c < selector.clauses.size(); ++c) {
    const auto& max = selector.clauses[c].max;
    require(!max || taken_by_clause[c] <= *max,
            "clause '" + selector.clauses[c].text + "' takes more devices than its max");
  }

  std::string message;
  const auto selected = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] { return polydev::select_devices(text, devices); }, "select_devices", &message);
  if (taken.empty() && !selector.clauses.empty()) {
    require(!selected && message.rfind("POLYDEV_DEVICES", 0) == 0,
            "a selector that takes no device must be an error naming POLYDEV_DEVICES");
    require(!polydev::nothing_taken_message(selector, devices, verdicts).empty(),
            "the nothing-taken message is empty");
  } else {
    require(selected && *selected == taken,
            "select_devices does not give the taken devices in order");
  }
}

std::size_t occurrences(const std::string& text, const std::string& piece) {
  std::size_t count = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) {
    ++count;
  }
  return count;
}

// An unknown attribute's "did you mean" stands inside that message. Checked where the message is
// unambiguous (the selector's own text does not repeat the pieces of the hint).
void check_suggestion(const std::string& message) {
  const std::string opening = "(did you mean '";
  const std::string closing = "'?); accepted terms";
  if (occurrences(message, opening) != 1 || occurrences(message, closing) != 1 ||
      occurrences(message, "unknown attribute '") != 1) {
    return;
  }
  const std::size_t from = message.find(opening) + opening.size();
  const std::size_t close = message.find(closing);
  // (Whether the suggested term parses is the unit tests' to check: its value is the user's, and
  // the words of the parser's messages may be in it.)
  require(message.find("unknown attribute '") < from && close > from,
          "a suggestion outside an unknown attribute's message: " + message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  polydev_fuzz::Input input(data, size);
  const std::vector<Device>& devices = candidates(input);
  const std::string text = input.rest();

  std::string message;
  const auto selector = polydev_fuzz::result_or_rejection<polydev::selection_error>(
      [&] { return polydev::parse_devices_selector(text); }, "parse_devices_selector", &message);
  require(selector || message.rfind("POLYDEV_DEVICES", 0) == 0,
          "a POLYDEV_DEVICES error does not start by naming POLYDEV_DEVICES: " + message);
  if (selector) check_selector(*selector, text, devices);
  if (!selector) check_suggestion(message);
  return 0;
}
