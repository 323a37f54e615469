// Compiled instead of context_primary.cpp when polydev is built without the CUDA backend.
#include "polydev/cuda/context.hpp"
#include "polydev/error.hpp"

namespace polydev::cuda {

void activate_primary_context(int ordinal) {
  throw error("cannot make a CUDA context on device " + std::to_string(ordinal) +
              ": polydev was built without the CUDA backend");
}

const ContextChoice& autoinit() {
  throw error("polydev.autoinit: polydev was built without the CUDA backend");
}

unsigned long long current_context_id() {
  throw error(
      "current_context_id: no CUDA context can be current: polydev was built without the "
      "CUDA backend");
}

int current_context_device() {
  throw error(
      "current_context_device: no CUDA context can be current: polydev was built without "
      "the CUDA backend");
}

}  // namespace polydev::cuda
