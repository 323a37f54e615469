// The live OpenCL inventory on this machine's drivers (PoCL in CI, with several devices).
#include "polydev/opencl/inventory.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "polydev/detail/environment.hpp"
#include "polydev/opencl/system.hpp"

namespace {

using polydev::opencl::Inventory;

std::vector<std::string> keys_of(const Inventory& inventory) {
  std::vector<std::string> keys;
  for (const auto& platform : inventory.platforms) {
    for (const auto& device : platform.devices) keys.push_back(device.key);
  }
  return keys;
}

TEST(OpenCLInventory, KeysAreUniqueAndMadeOfLowercaseLettersDigitsAndUnderscores) {
  const Inventory& inventory = polydev::opencl::system_inventory();
  if (!inventory.available) GTEST_SKIP() << inventory.reason;
  const auto keys = keys_of(inventory);
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size());
  const std::regex allowed("[a-z0-9_]+");
  for (const auto& key : keys) EXPECT_TRUE(std::regex_match(key, allowed)) << key;
}

TEST(OpenCLInventory, KeysAreTheSameInEveryEnumeration) {
  const Inventory first = polydev::opencl::enumerate();
  if (!first.available) GTEST_SKIP() << first.reason;
  EXPECT_EQ(keys_of(first), keys_of(polydev::opencl::enumerate()));
}

TEST(OpenCLInventory, IdenticalPoclDevicesGetDistinctKeys) {
  const auto pocl_devices = polydev::detail::environment_variable("POCL_DEVICES");
  if (!pocl_devices || pocl_devices->find(' ') == std::string::npos) {
    GTEST_SKIP() << "needs POCL_DEVICES with a repeated driver, e.g. 'pthread pthread basic'";
  }
  const Inventory& inventory = polydev::opencl::system_inventory();
  std::map<std::string, std::set<std::string>> keys_by_name;
  std::size_t repeated = 0;
  for (const auto& platform : inventory.platforms) {
    for (const auto& device : platform.devices) {
      auto& keys = keys_by_name[platform.name + "/" + device.name];
      repeated += keys.empty() ? 0 : 1;
      EXPECT_TRUE(keys.insert(device.key).second) << "duplicate key " << device.key;
    }
  }
  EXPECT_GT(repeated, 0u) << "POCL_DEVICES repeats a driver, so some device name should repeat";
}

TEST(OpenCLInventory, DescribesEveryDevice) {
  const Inventory& inventory = polydev::opencl::system_inventory();
  if (!inventory.available) GTEST_SKIP() << inventory.reason;
  for (const auto& platform : inventory.platforms) {
    EXPECT_FALSE(platform.name.empty());
    EXPECT_EQ(platform.version.rfind("OpenCL ", 0), 0u) << platform.version;
    for (const auto& device : platform.devices) {
      EXPECT_FALSE(device.name.empty());
      EXPECT_TRUE(device.type == "cpu" || device.type == "gpu" || device.type == "accelerator" ||
                  device.type == "custom" || device.type == "default")
          << device.type;
      EXPECT_EQ(device.version.rfind("OpenCL ", 0), 0u) << device.version;
      EXPECT_FALSE(device.driver_version.empty());
      EXPECT_GT(device.compute_units, 0u);
      EXPECT_GT(device.global_memory_bytes, 0u);
      EXPECT_GT(device.local_memory_bytes, 0u);
      EXPECT_GT(device.max_work_group_size, 0u);
      const auto handle = polydev::opencl::System::get().device({platform.index, device.index});
      EXPECT_EQ(handle.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>(), device.compute_units);
    }
  }
}

}  // namespace
