// Compiled instead of device_data_query.cpp when polydev is built without the CUDA backend: the
// table (DeviceData::for_compute_capability) still works.
#include <string>

#include "polydev/cuda/device_data.hpp"
#include "polydev/error.hpp"

namespace polydev::cuda {

DeviceData DeviceData::from_device(int ordinal) {
  throw error("cannot read DeviceData of CUDA device " + std::to_string(ordinal) +
              ": polydev was built without the CUDA backend; use "
              "DeviceData::for_compute_capability for an architecture instead");
}

DeviceData DeviceData::from_device() {
  throw error(
      "cannot read DeviceData of the current CUDA context's device: polydev was built without "
      "the CUDA backend; use DeviceData::for_compute_capability for an architecture instead");
}

}  // namespace polydev::cuda
