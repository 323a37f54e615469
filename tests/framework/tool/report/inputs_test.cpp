// `polydev report`'s inputs: the .xml files below the folders given, at any depth and sorted, and
// the folders refused (no report in them, too many files).
#include "inputs.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "polydev/error.hpp"

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class ReportInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::path(::testing::TempDir()) /
              ("polydev_report_inputs_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::string touch(const std::string& relative) {
    const auto path = folder_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << "<testsuites/>";
    return path.string();
  }

  std::filesystem::path folder_;
};

// gtest_discover_tests' XML_OUTPUT_DIR writes DIR/<suite with prefix>.<test>/<instance>.xml.
TEST_F(ReportInputs, AFolderGivesItsXmlFilesAtAnyDepthSorted) {
  const std::string b = touch("OpenCL/Saxpy.Runs/opencl_b_0.xml");
  const std::string a = touch("OpenCL/Saxpy.Runs/opencl_a_0.xml");
  const std::string top = touch("ctest.xml");
  touch("notes.txt");
  const std::string inside = touch("odd.xml/inner.xml");  // a folder with a report's name
  const std::string named = "elsewhere/named.xml";
  EXPECT_THAT(polydev::report::report_files({named, folder_.string()}),
              ElementsAre(named, a, b, top, inside));
}

TEST_F(ReportInputs, AFolderWithoutReportsOrWithTooManyIsAnError) {
  touch("notes.txt");
  try {
    polydev::report::report_files({folder_.string()});
    ADD_FAILURE() << "a folder without reports was accepted";
  } catch (const polydev::error& error) {
    EXPECT_THAT(error.what(), HasSubstr("no .xml file in the folder '" + folder_.string() +
                                        "' or below it; expected GoogleTest XML reports"));
  }
  touch("a/1.xml");
  touch("a/2.xml");
  touch("b/3.xml");
  EXPECT_EQ(polydev::report::report_files({folder_.string()}, 3).size(), 3u);
  try {
    polydev::report::report_files({(folder_ / "a").string(), (folder_ / "b").string()}, 2);
    ADD_FAILURE() << "more files than the limit were accepted";
  } catch (const polydev::error& error) {
    EXPECT_THAT(error.what(), HasSubstr("more than 2 .xml files in '" + (folder_ / "b").string() +
                                        "' and the other folders given"));
  }
}

}  // namespace
