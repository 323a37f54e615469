// The process's inventory, enumerated once; apart from inventory.cpp so that the pure key code
// links without a backend's enumerate().
#include "polydev/cuda/inventory.hpp"

namespace polydev::cuda {

const Inventory& system_inventory() {
  static const Inventory inventory = enumerate();
  return inventory;
}

}  // namespace polydev::cuda
