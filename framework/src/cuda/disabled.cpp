// Compiled instead of enumerate.cpp when polydev is built without the CUDA backend.
#include "polydev/cuda/inventory.hpp"

namespace polydev::cuda {

Inventory enumerate() {
  Inventory inventory;
  inventory.reason =
      "polydev was built without the CUDA backend (POLYDEV_WITH_CUDA=OFF, or no CUDA toolkit at "
      "configure time)";
  return inventory;
}

}  // namespace polydev::cuda

#include "polydev/cuda/context.hpp"
#include "polydev/cuda/memoize.hpp"
#include "polydev/error.hpp"

namespace polydev::cuda {

void activate_primary_context(int ordinal) {
  throw error("cannot make a CUDA context on device " + std::to_string(ordinal) +
              ": polydev was built without the CUDA backend");
}

const ContextChoice& autoinit() {
  throw error("polydev.autoinit: polydev was built without the CUDA backend");
}

int current_context_key() noexcept { return -1; }

}  // namespace polydev::cuda
