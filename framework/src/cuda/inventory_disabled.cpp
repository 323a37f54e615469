// Compiled instead of inventory_query.cpp when polydev is built without the CUDA backend.
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
