#include "reference/load_plan.h"

#include <array>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/outcome.h"

namespace matload {
namespace {

// A plan written by hand: each lane's one word is the four bytes of line
// `lane`, read back to front; lines are 16 bytes apart from offset 100.
TEST(LoadPlanTest, PlannedWordsFollowTheLinesAndBytes) {
  LoadPlan plan{.lines = PlanLines::kLaneAddresses, .words_per_lane = 1};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int byte = 0; byte < 4; ++byte) {
      plan.bytes.push_back({static_cast<std::uint16_t>(lane), static_cast<std::uint16_t>(3 - byte)});
    }
  }
  const std::vector<std::uint32_t> words = PlannedWords(
      plan, [](int line) { return 100 + 16 * static_cast<std::uint64_t>(line); },
      [](std::uint64_t offset) { return static_cast<std::uint8_t>(offset); });
  ASSERT_EQ(words.size(), 32u);
  EXPECT_EQ(words[0], 0x64656667u);   // bytes 103, 102, 101, 100
  EXPECT_EQ(words[31], 0x54555657u);  // line 31 starts at 596: bytes 599..596, modulo 256
}

// LanePlan is a one-word-per-lane plan whose lane L takes bytes `bytes` of
// line L, in order.
LoadPlan LanePlan(std::array<int, 4> bytes) {
  LoadPlan plan{.lines = PlanLines::kLaneAddresses, .words_per_lane = 1};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int byte : bytes) plan.bytes.push_back({static_cast<std::uint16_t>(lane), static_cast<std::uint16_t>(byte)});
  }
  return plan;
}

TEST(LoadPlanTest, ChunksAreTheWidestAlignedRunsTakenWhole) {
  EXPECT_EQ(PlanChunkBytes(LanePlan({4, 5, 6, 7})), 4);
  EXPECT_EQ(PlanChunkBytes(LanePlan({6, 7, 0, 1})), 2);  // two halves, each whole and aligned
  EXPECT_EQ(PlanChunkBytes(LanePlan({5, 6, 7, 8})), 1);  // in order, but from an odd byte
  EXPECT_EQ(PlanChunkBytes(LanePlan({3, 2, 1, 0})), 1);  // back to front
  LoadPlan two_lines = LanePlan({0, 1, 2, 3});
  two_lines.bytes[2].line = 7;  // lane 0's upper half from another line
  two_lines.bytes[3].line = 7;
  EXPECT_EQ(PlanChunkBytes(two_lines), 2);
}

// PairPlan is a one-word-per-lane plan in which lane L takes bytes
// `first + 4 (L % 2)` onwards of line L / 2: neighbouring lanes read one
// 8-byte run of a line, as ldmatrix's do.
LoadPlan PairPlan(int first) {
  LoadPlan plan{.lines = PlanLines::kLaneAddresses, .words_per_lane = 1};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int byte = 0; byte < 4; ++byte) {
      plan.bytes.push_back(
          {static_cast<std::uint16_t>(lane / 2), static_cast<std::uint16_t>(first + 4 * (lane % 2) + byte)});
    }
  }
  return plan;
}

TEST(LoadPlanTest, NeighbourLanesSplitPairsOnlyOfOneAlignedRunOfALine) {
  EXPECT_TRUE(PlanNeighbourLanesSplitPairs(PairPlan(0)));
  EXPECT_TRUE(PlanNeighbourLanesSplitPairs(PairPlan(8)));
  EXPECT_FALSE(PlanNeighbourLanesSplitPairs(PairPlan(4)));             // the run straddles two 64-bit words
  EXPECT_FALSE(PlanNeighbourLanesSplitPairs(PairPlan(2)));             // words not taken whole
  EXPECT_FALSE(PlanNeighbourLanesSplitPairs(LanePlan({0, 1, 2, 3})));  // each lane its own line
  LoadPlan swapped = PairPlan(0);
  std::swap(swapped.bytes[0], swapped.bytes[4]);  // lane 0 takes the upper half
  for (int byte = 1; byte < 4; ++byte) std::swap(swapped.bytes[byte], swapped.bytes[4 + byte]);
  EXPECT_FALSE(PlanNeighbourLanesSplitPairs(swapped));
}

}  // namespace
}  // namespace matload
