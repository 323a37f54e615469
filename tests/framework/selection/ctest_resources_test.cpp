// The CTest resource spec and the parsing of CTest's allocation variables (no driver needed).
#include "polydev/ctest_resources.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "polydev/error.hpp"

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

polydev::EnvironmentLookup environment(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    const auto it = variables.find(name);
    if (it == variables.end()) return std::nullopt;
    return it->second;
  };
}

TEST(CTestResourceSpec, OneResourceTypePerDevice) {
  const std::string expected =
      R"({"version": {"major": 1, "minor": 0}, "local": [{"opencl_pocl_cpu_0": [{"id": "0", )"
      R"("slots": 1}], "cuda_nvidia_h200_pci_00_06": [{"id": "0", "slots": 1}]}]})"
      "\n";
  EXPECT_EQ(polydev::ctest_resource_spec({"opencl_pocl_cpu_0", "cuda_nvidia_h200_pci_00_06"}),
            expected);
}

TEST(CTestResourceSpec, SlotsPerDevice) {
  EXPECT_THAT(polydev::ctest_resource_spec({"opencl_a_0"}, 4), HasSubstr(R"("slots": 4)"));
}

TEST(CTestResourceSpec, NoDevicesIsAnEmptyLocalSection) {
  const std::string expected = R"({"version": {"major": 1, "minor": 0}, "local": [{}]})"
                               "\n";
  EXPECT_EQ(polydev::ctest_resource_spec({}), expected);
}

TEST(CTestResourceSpec, RejectsWhatCTestWouldNotAccept) {
  EXPECT_THROW(polydev::ctest_resource_spec({"opencl_a_0"}, 0), polydev::error);
  for (const char* bad : {"", "Opencl_a", "0_device", "opencl-a", "cuda a"}) {
    try {
      polydev::ctest_resource_spec({bad});
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const polydev::error& failure) {
      EXPECT_THAT(failure.what(), HasSubstr("not a valid resource type name")) << bad;
    }
  }
  try {
    polydev::ctest_resource_spec({"cuda_x", "cuda_x"});
    FAIL() << "accepted a duplicate";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("'cuda_x' is listed twice"));
  }
}

TEST(CTestAllocation, NothingOutsideCTest) {
  EXPECT_FALSE(polydev::ctest_allocated_device_keys(environment({})).has_value());
}

TEST(CTestAllocation, ReadsTheTypesOfEveryGroup) {
  const auto keys = polydev::ctest_allocated_device_keys(environment({
      {"CTEST_RESOURCE_GROUP_COUNT", "2"},
      {"CTEST_RESOURCE_GROUP_0", "cuda_h200_pci_00_06"},
      {"CTEST_RESOURCE_GROUP_0_CUDA_H200_PCI_00_06", "id:0,slots:1"},
      {"CTEST_RESOURCE_GROUP_1", "opencl_pocl_cpu_0,cuda_h200_pci_00_06"},
      {"CTEST_RESOURCE_GROUP_1_OPENCL_POCL_CPU_0", "id:0,slots:1"},
      {"CTEST_RESOURCE_GROUP_1_CUDA_H200_PCI_00_06", "id:0,slots:1"},
  }));
  ASSERT_TRUE(keys.has_value());
  EXPECT_THAT(*keys, ElementsAre("cuda_h200_pci_00_06", "opencl_pocl_cpu_0"));
}

// CTest sets the count to 0 in tests that asked for no resource (host tests, and the programs
// they start): they are not limited to any device, as without a resource spec.
TEST(CTestAllocation, ZeroGroupsAreNoAllocation) {
  const auto keys =
      polydev::ctest_allocated_device_keys(environment({{"CTEST_RESOURCE_GROUP_COUNT", "0"}}));
  EXPECT_FALSE(keys.has_value());
}

TEST(CTestAllocation, InconsistentVariablesAreSelectionErrors) {
  struct Case {
    std::map<std::string, std::string> variables;
    const char* message;
  };
  const std::vector<Case> cases{
      {{{"CTEST_RESOURCE_GROUP_COUNT", "two"}}, "CTEST_RESOURCE_GROUP_COUNT='two' is not"},
      {{{"CTEST_RESOURCE_GROUP_COUNT", ""}}, "CTEST_RESOURCE_GROUP_COUNT='' is not"},
      {{{"CTEST_RESOURCE_GROUP_COUNT", "-1"}}, "is not a group count"},
      {{{"CTEST_RESOURCE_GROUP_COUNT", "1000000"}},
       "CTEST_RESOURCE_GROUP_COUNT='1000000' is not a group count; CTest sets a number from 0 to "
       "999999"},
      {{{"CTEST_RESOURCE_GROUP_COUNT", "1"}}, "CTEST_RESOURCE_GROUP_0 is not set"},
      {{{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", "cuda_x"}},
       "CTEST_RESOURCE_GROUP_0_CUDA_X is not set"},
  };
  for (const Case& c : cases) {
    try {
      polydev::ctest_allocated_device_keys(environment(c.variables));
      ADD_FAILURE() << "accepted " << c.message;
    } catch (const polydev::selection_error& failure) {
      EXPECT_THAT(failure.what(), HasSubstr(c.message));
    }
  }
}

// An allocation value CTest did not write (no slot count, several ids of one device type, a
// group naming no resource type, control bytes) is an error naming the variable, the value as it
// can be shown, and the form CTest writes: read as given, it would run a device CTest never handed
// out, or none.
TEST(CTestAllocation, MalformedAllocationValuesAreErrorsNamingVariableValueAndForm) {
  struct Case {
    std::string group;
    std::string value;
    const char* message;
  };
  const std::vector<Case> cases{
      {"opencl_a", "id:0,slots:x",
       "CTEST_RESOURCE_GROUP_0_OPENCL_A='id:0,slots:x' has slots 'x', not a positive number"},
      {"opencl_a", "id:0,slots:1;id:1,slots:1",
       "CTEST_RESOURCE_GROUP_0_OPENCL_A='id:0,slots:1;id:1,slots:1' allocates 2 ids"},
      {"opencl_a", "id:0,slots:0", "has slots '0', not a positive number"},
      {"opencl_a", "id:0,slots:", "has slots '', not a positive number"},
      {"opencl_a", "id:,slots:1", "has an empty id"},
      {"opencl_a", "", "CTEST_RESOURCE_GROUP_0_OPENCL_A='' is not an allocation"},
      {"opencl_a", "slots:1,id:0", "is not an allocation"},
      {"opencl_a", "id:0,slots:1,extra", "is not an allocation"},
      {"opencl_a", "id:0,slots:\x1b[2J", "has slots '\\x1b[2J', not a positive number"},
      {"opencl_a", "id:0,slots:1\x1b]0;T\x07", "='id:0,slots:1\\x1b]0;T\\x07' allocates 2 ids"},
      {"opencl_a", "id:0,slots:\xc2\x9b", "not a positive number"},
      {"opencl_a,", "id:0,slots:1", "CTEST_RESOURCE_GROUP_0='opencl_a,' names '', which is no"},
      {"\x1b[2J", "id:0,slots:1", "CTEST_RESOURCE_GROUP_0='\\x1b[2J' names"},
  };
  for (const Case& c : cases) {
    std::map<std::string, std::string> variables{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                                 {"CTEST_RESOURCE_GROUP_0", c.group},
                                                 {"CTEST_RESOURCE_GROUP_0_OPENCL_A", c.value}};
    try {
      polydev::ctest_allocated_device_keys(environment(variables));
      ADD_FAILURE() << "accepted " << c.group << " / " << c.value;
    } catch (const polydev::selection_error& failure) {
      const std::string message = failure.what();
      EXPECT_THAT(message, HasSubstr(c.message));
      EXPECT_EQ(message.find_first_of("\x1b\x07\n"), std::string::npos) << message;
      EXPECT_EQ(message.find("\xc2\x9b"), std::string::npos) << message;
      if (c.group == "opencl_a") {
        EXPECT_THAT(message, HasSubstr("expected 'id:<id>,slots:<n>'"));
      }
    }
  }
}

TEST(CTestAllocation, AcceptsWhatCTestWritesForOneDevice) {
  const auto keys = polydev::ctest_allocated_device_keys(
      environment({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                   {"CTEST_RESOURCE_GROUP_0", "opencl_a"},
                   {"CTEST_RESOURCE_GROUP_0_OPENCL_A", "id:0,slots:2"}}));
  ASSERT_TRUE(keys.has_value());
  EXPECT_EQ(*keys, std::vector<std::string>{"opencl_a"});
}

}  // namespace
