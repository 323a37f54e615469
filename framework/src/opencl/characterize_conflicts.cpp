// why_not_local_access_conflict_free: which local memory banks the work items that access local
// memory together hit, for each axis they could walk along. Pure.
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "polydev/error.hpp"
#include "polydev/opencl/characterize.hpp"

namespace polydev::opencl {

namespace {

constexpr const char* kName = "why_not_local_access_conflict_free";

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + ")";
}

void check_arguments(std::size_t itemsize, const std::vector<std::size_t>& shape,
                     const std::vector<std::size_t>& stored) {
  if (itemsize == 0) {
    throw error(std::string(kName) + ": itemsize is 0; it is the size in bytes of one element");
  }
  if (stored.size() != shape.size()) {
    throw error(std::string(kName) + ": array_stored_shape " + shape_text(stored) + " has rank " +
                std::to_string(stored.size()) + " but array_shape " + shape_text(shape) +
                " has rank " + std::to_string(shape.size()) + "; they must have the same rank");
  }
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] == 0) {
      throw error(std::string(kName) + ": array_shape " + shape_text(shape) + " has extent 0 on " +
                  "axis " + std::to_string(axis) + "; every extent must be at least 1");
    }
    if (stored[axis] < shape[axis]) {
      throw error(std::string(kName) + ": array_stored_shape " + shape_text(stored) +
                  " is smaller than array_shape " + shape_text(shape) + " on axis " +
                  std::to_string(axis) + "; each stored extent must be at least the logical one");
    }
  }
}

// An index as Python prints a list: "[1, 0, 3]".
std::string python_list(const std::vector<std::size_t>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(values[i]);
  }
  return text + "]";
}

}  // namespace

LocalAccessConflicts why_not_local_access_conflict_free(
    const DeviceFacts& facts, std::size_t itemsize, const std::vector<std::size_t>& array_shape,
    const std::vector<std::size_t>& array_stored_shape) {
  const std::vector<std::size_t>& stored_shape =
      array_stored_shape.empty() ? array_shape : array_stored_shape;
  check_arguments(itemsize, array_shape, stored_shape);

  LocalAccessConflicts result;
  const std::size_t granularity = local_memory_access_granularity(facts);
  if (itemsize != granularity) {
    result.notes.push_back(std::string(kName) + ": itemsize " + std::to_string(itemsize) +
                           " differs from the bank width of " + std::to_string(granularity) +
                           " bytes; the answer may be inaccurate");
  }
  Noted<unsigned> simultaneous = simultaneous_work_items_on_local_access(facts);
  result.notes.insert(result.notes.end(), simultaneous.notes.begin(), simultaneous.notes.end());
  // One work item at a time cannot conflict with another, whatever the banks are.
  if (simultaneous.value <= 1) return result;
  Noted<unsigned> banks = local_memory_bank_count(facts);
  result.notes.insert(result.notes.end(), banks.notes.begin(), banks.notes.end());

  // Axis 0 is the fastest from here on (the shapes are C-ordered).
  const std::size_t rank = array_shape.size();
  std::vector<std::size_t> extent(rank);
  std::vector<std::size_t> stored(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    extent[k] = array_shape[rank - 1 - k];
    stored[k] = stored_shape[rank - 1 - k];
  }
  // Only the address modulo (bank width x banks) decides the bank; computing modulo it keeps
  // arbitrarily large stored shapes exact.
  const std::size_t modulus = granularity * banks.value;

  std::optional<std::pair<std::size_t, std::string>> worst;
  for (std::size_t axis = 0; axis < rank; ++axis) {
    std::map<std::size_t, std::vector<std::string>> accesses_by_bank;
    for (std::size_t item = 0; item < simultaneous.value; ++item) {
      std::size_t address = 0;
      std::size_t stride = itemsize % modulus;
      std::size_t left_over = item;
      std::vector<std::size_t> index(rank, 0);
      for (std::size_t k = 0; k < rank; ++k) {
        if (k >= axis) {
          index[k] = left_over % extent[k];
          left_over /= extent[k];
          address = (address + stride * index[k]) % modulus;
        }
        stride = stride * (stored[k] % modulus) % modulus;
      }
      if (left_over != 0) continue;  // past the end of the array: that item does not access it
      const std::vector<std::size_t> c_order(index.rbegin(), index.rend());
      accesses_by_bank[address / granularity].push_back("w.item " + std::to_string(item) + " -> " +
                                                        python_list(c_order));
    }
    std::size_t multiplicity = 0;
    for (const auto& [bank, accesses] : accesses_by_bank) {
      multiplicity = std::max(multiplicity, accesses.size());
    }
    if (multiplicity <= 1) continue;
    for (const auto& [bank, accesses] : accesses_by_bank) {
      if (accesses.size() != multiplicity) continue;
      std::string explanation = std::to_string(multiplicity) + "x conflict on axis " +
                                std::to_string(axis) + " (from right, 0-based): ";
      for (std::size_t i = 0; i < accesses.size(); ++i) {
        explanation += (i ? ", " : "") + accesses[i];
      }
      explanation += " access bank " + std::to_string(bank);
      std::pair<std::size_t, std::string> candidate{multiplicity, std::move(explanation)};
      if (!worst || *worst < candidate) worst = std::move(candidate);
    }
  }
  if (worst) {
    result.multiplicity = worst->first;
    result.explanation = std::move(worst->second);
  }
  return result;
}

}  // namespace polydev::opencl
