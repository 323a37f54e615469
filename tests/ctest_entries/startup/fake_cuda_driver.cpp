// A stand-in for the CUDA driver library (built as libcuda.so.1 in a folder of its own): the CUDA
// runtime opens libcuda.so.1 when it initializes, so with that folder first in LD_LIBRARY_PATH a
// process that initializes CUDA loads this library instead, which appends "CUDA driver loaded" to
// the file POLYDEV_CUDA_DRIVER_LOG names. It exports no driver function, so the runtime then
// reports that it has no usable driver.
#include <cstdlib>
#include <fstream>

namespace {

struct RecordLoad {
  RecordLoad() {
    if (const char* log = std::getenv("POLYDEV_CUDA_DRIVER_LOG")) {
      std::ofstream(log, std::ios::app) << "CUDA driver loaded\n";
    }
  }
};

const RecordLoad record_load;

}  // namespace
