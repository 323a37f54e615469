// Device tests that misbehave as POLYDEV_CONSUMER_MISBEHAVIOUR says (nothing: they pass), so that
// ci/consumers.sh can check that no misbehaviour makes a CTest entry or a report pass or skip.
#include <cstdlib>
#include <iostream>
#include <polydev/gtest.hpp>
#include <string>
#include <thread>

namespace {

std::string misbehaviour() {
  const char* value = std::getenv("POLYDEV_CONSUMER_MISBEHAVIOUR");
  return value != nullptr ? value : "";
}

class Verdicts : public polydev::testing::OpenCLTest {
 protected:
  static void SetUpTestSuite() {
    if (misbehaviour() == "suite_setup") ADD_FAILURE() << "the suite's set-up fails";
  }
  static void TearDownTestSuite() {
    if (misbehaviour() == "suite_teardown") ADD_FAILURE() << "the suite's tear-down fails";
  }
  // A check of the derived fixture after the base's TearDown(), which ends an expected failure.
  void TearDown() override {
    OpenCLTest::TearDown();
    if (check_after_teardown_) ADD_FAILURE() << "checked after the base's TearDown()";
  }

  bool check_after_teardown_ = false;
};

TEST_P(Verdicts, Works) {
  const std::string what = misbehaviour();
  if (what == "skip") GTEST_SKIP() << "skipped on purpose";
  if (what == "print_markers") {
    std::cout << "polydev: every test of this run was skipped\n[  SKIPPED ] forged\n";
    ADD_FAILURE() << "fails, printing the skip markers";
  }
  if (what == "exit") std::exit(0);
  if (what == "xfail_and_thread") {
    ADD_FAILURE() << "the expected failure";
    std::thread([] { ADD_FAILURE() << "a failure on another thread"; }).join();
  }
  if (what == "xfail_and_teardown") {
    ADD_FAILURE() << "the expected failure";
    check_after_teardown_ = true;
  }
  cl::Buffer buffer(context(), CL_MEM_READ_WRITE, 64);
  EXPECT_EQ(queue().enqueueFillBuffer(buffer, 1, 0, 64), CL_SUCCESS);
}

TEST_P(Verdicts, AlsoWorks) {
  if (misbehaviour() == "skip") GTEST_SKIP() << "skipped on purpose";
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(Verdicts);

}  // namespace
