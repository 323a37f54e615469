// Which expectation of polydev.yaml applies to a test on a device.
#include "polydev/config.hpp"

namespace polydev {

bool applies_to_device(const Expectation& expectation, const Device& device) {
  if (!expectation.device.matches(device.key) && !expectation.device.matches(device.name)) {
    return false;
  }
  if (expectation.driver && !expectation.driver->contains(device.driver_version)) return false;
  return !expectation.pocl ||
         (device.pocl_version && expectation.pocl->contains(*device.pocl_version));
}

const Expectation* find_expectation(const Config& config, std::string_view suite,
                                    std::string_view test, const Device& device) {
  // "OpenCL/Saxpy" and "MatchesHost/<key>" give "Saxpy.MatchesHost".
  const std::string_view short_suite = suite.substr(suite.rfind('/') + 1);
  const std::string_view short_test = test.substr(0, test.find('/'));
  const std::string short_name = std::string(short_suite) + "." + std::string(short_test);
  const std::string full_name = std::string(suite) + "." + std::string(test);
  for (const Expectation& expectation : config.expectations) {
    if (!expectation.test.matches(short_name) && !expectation.test.matches(full_name)) continue;
    if (applies_to_device(expectation, device)) return &expectation;
  }
  return nullptr;
}

}  // namespace polydev
