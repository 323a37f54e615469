// why_not_local_access_conflict_free on synthetic devices. The expected explanations are what
// PyOpenCL's algorithm (pyopencl.characterize.why_not_local_access_conflict_free) prints for the
// same input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "polydev/error.hpp"
#include "polydev/opencl/characterize.hpp"
#include "support/synthetic_facts.hpp"

namespace {

using namespace polydev::opencl;
using namespace polydev_test;
using ::testing::HasSubstr;

// "w.item 0 -> [0, 0], w.item 1 -> [1, 0], ..." for work items walking down the rows.
std::string column_walk(int items) {
  std::string text;
  for (int i = 0; i < items; ++i) {
    text += (i ? ", " : "") + std::string("w.item ") + std::to_string(i) + " -> [" +
            std::to_string(i) + ", 0]";
  }
  return text;
}

TEST(LocalAccessConflicts, SquareTileOnANvidiaGpuConflictsThirtyTwoWays) {
  const auto conflicts = why_not_local_access_conflict_free(nvidia_gpu({9, 0}), 4, {32, 32});
  EXPECT_EQ(conflicts.multiplicity, 32u);
  EXPECT_EQ(conflicts.explanation,
            "32x conflict on axis 1 (from right, 0-based): " + column_walk(32) + " access bank 0");
  // Both guesses of compute capability 9.0 are reported, nothing else.
  EXPECT_EQ(conflicts.notes.size(), 2u);
}

TEST(LocalAccessConflicts, PaddingTheRowsRemovesTheConflict) {
  const auto conflicts =
      why_not_local_access_conflict_free(nvidia_gpu({9, 0}), 4, {32, 32}, {32, 33});
  EXPECT_EQ(conflicts.multiplicity, 1u);
  EXPECT_EQ(conflicts.explanation, std::nullopt);
}

TEST(LocalAccessConflicts, PreFermiHalfWarp) {
  const auto conflicts = why_not_local_access_conflict_free(nvidia_gpu({1, 3}), 4, {16, 16});
  EXPECT_EQ(conflicts.multiplicity, 16u);
  EXPECT_EQ(conflicts.explanation,
            "16x conflict on axis 1 (from right, 0-based): " + column_walk(16) + " access bank 0");
  EXPECT_TRUE(conflicts.notes.empty());
}

TEST(LocalAccessConflicts, TiesGoToTheGreatestExplanation) {
  // 8-byte items: work items i and i + 16 share a bank, 16 banks tie at 2x.
  const auto conflicts = why_not_local_access_conflict_free(nvidia_gpu({2, 0}), 8, {64});
  EXPECT_EQ(conflicts.multiplicity, 2u);
  EXPECT_EQ(conflicts.explanation,
            "2x conflict on axis 0 (from right, 0-based): w.item 9 -> [9], w.item 25 -> [25] "
            "access bank 18");
  ASSERT_EQ(conflicts.notes.size(), 1u);
  EXPECT_THAT(conflicts.notes[0], HasSubstr("itemsize 8"));
}

TEST(LocalAccessConflicts, StoredShapeWiderThanTheLogicalOne) {
  const auto three_d =
      why_not_local_access_conflict_free(nvidia_gpu({2, 0}), 4, {3, 5, 7}, {3, 6, 9});
  EXPECT_EQ(three_d.multiplicity, 2u);
  EXPECT_EQ(three_d.explanation,
            "2x conflict on axis 0 (from right, 0-based): w.item 6 -> [0, 0, 6], w.item 30 -> "
            "[0, 4, 2] access bank 6");
  const auto halves = why_not_local_access_conflict_free(nvidia_gpu({1, 3}), 2, {4, 8}, {5, 9});
  EXPECT_EQ(halves.multiplicity, 2u);
  EXPECT_EQ(halves.explanation,
            "2x conflict on axis 0 (from right, 0-based): w.item 9 -> [1, 1], w.item 10 -> [1, 2] "
            "access bank 5");
}

TEST(LocalAccessConflicts, OneWorkItemAtATimeNeverConflicts) {
  // PyOpenCL asks for the bank count first and fails on a cache-based CPU.
  const auto conflicts = why_not_local_access_conflict_free(pocl_cpu(), 4, {32, 32});
  EXPECT_EQ(conflicts.multiplicity, 1u);
  EXPECT_EQ(conflicts.explanation, std::nullopt);
  EXPECT_TRUE(conflicts.notes.empty());
}

TEST(LocalAccessConflicts, GuessesAreNotes) {
  const auto conflicts = why_not_local_access_conflict_free(arm_mali_gpu(), 4, {16, 16});
  EXPECT_EQ(conflicts.multiplicity, 16u);
  ASSERT_EQ(conflicts.notes.size(), 2u);
  EXPECT_THAT(conflicts.notes[0], HasSubstr("simultaneous_work_items_on_local_access"));
  EXPECT_THAT(conflicts.notes[1], HasSubstr("local_memory_bank_count"));
}

TEST(LocalAccessConflicts, RankZeroHasNoAxisToConflictOn) {
  const auto conflicts = why_not_local_access_conflict_free(nvidia_gpu({2, 0}), 4, {});
  EXPECT_EQ(conflicts.multiplicity, 1u);
}

struct BadShape {
  const char* name;
  std::size_t itemsize;
  std::vector<std::size_t> shape;
  std::vector<std::size_t> stored;
  const char* message;
};

class LocalAccessConflictsBadInput : public ::testing::TestWithParam<BadShape> {};

TEST_P(LocalAccessConflictsBadInput, IsAnErrorSayingWhatIsWrong) {
  const BadShape& bad = GetParam();
  try {
    why_not_local_access_conflict_free(nvidia_gpu({2, 0}), bad.itemsize, bad.shape, bad.stored);
    FAIL() << "no error";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr(bad.message));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LocalAccessConflictsBadInput,
    ::testing::Values(BadShape{"zero_itemsize", 0, {4}, {}, "itemsize is 0"},
                      BadShape{"ranks_differ",
                               4,
                               {4, 4},
                               {4},
                               "array_stored_shape (4) has rank 1 but "
                               "array_shape (4, 4) has rank 2"},
                      BadShape{"zero_extent", 4, {4, 0}, {}, "has extent 0 on axis 1"},
                      BadShape{"stored_smaller",
                               4,
                               {4, 8},
                               {4, 7},
                               "is smaller than array_shape (4, 8) on "
                               "axis 1"}),
    [](const ::testing::TestParamInfo<BadShape>& shape) { return std::string(shape.param.name); });

}  // namespace
