// Compiled instead of system.cpp when polydev is built without the OpenCL backend.
#include "polydev/opencl/inventory.hpp"

namespace polydev::opencl {

Inventory enumerate() {
  Inventory inventory;
  inventory.reason =
      "no OpenCL platform: polydev was built without the OpenCL backend (POLYDEV_WITH_OPENCL=OFF, "
      "or no OpenCL ICD loader and C++ bindings at configure time)";
  return inventory;
}

const Inventory& system_inventory() {
  static const Inventory inventory = enumerate();
  return inventory;
}

}  // namespace polydev::opencl
