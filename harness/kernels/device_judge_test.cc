#include "harness/kernels/device_judge.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/outcome.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// A plan of one word per lane: lane L's word is bytes 0..3 of line L.
LoadPlan OneWordPlan() {
  LoadPlan plan{.lines = PlanLines::kLaneAddresses, .words_per_lane = 1};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int byte = 0; byte < 4; ++byte)
      plan.bytes.push_back({static_cast<std::uint16_t>(lane), static_cast<std::uint16_t>(byte)});
  }
  return plan;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST(DeviceJudgeTest, TheTableHoldsEachBytesLineAndByteUnderTheKernelsName) {
  const std::string table = PlanTablePtx(OneWordPlan(), "matload_ldmatrix");
  EXPECT_THAT(table, HasSubstr(".global .align 4 .u32 matload_ldmatrix_plan[128] = {0, 1, 2, 3, 65536, 65537,"));
  EXPECT_THAT(table, HasSubstr(", 2031619};"));  // line 31, byte 3
}

TEST(DeviceJudgeTest, EveryWordIsComparedAndTheBlockVotesWritesAndSamples) {
  const std::string ptx = DeviceJudgePtx(OneWordPlan(), "k", 1, 32, "  LINE_OFFSET;\n", PlantedBug::kNone);
  EXPECT_EQ(Count(ptx, "  LINE_OFFSET;\n"), 4u);  // a line per byte of the one word
  EXPECT_THAT(ptx, HasSubstr("mov.b32 %judge_got, %v0;"));
  EXPECT_THAT(ptx, HasSubstr("vote.sync.any.pred %judge_warp_bad, %judge_lane_bad, 0xffffffff;"));
  EXPECT_THAT(ptx, HasSubstr("selp.u32 %judge_verdict, 2, 1, %judge_warp_bad;"));
  EXPECT_THAT(ptx, HasSubstr("rem.u32 %judge_sample, %block, 4096;"));
  EXPECT_THAT(ptx, HasSubstr("@!%judge_keep ret;"));
  // A 64-bit register is two words, each compared.
  LoadPlan wide = OneWordPlan();
  wide.words_per_lane = 2;
  wide.bytes.resize(2 * wide.bytes.size());
  const std::string ptx64 = DeviceJudgePtx(wide, "k", 1, 64, "", PlantedBug::kNone);
  EXPECT_THAT(ptx64, HasSubstr("mov.b64 {%judge_got, %judge_high}, %v0;"));
  EXPECT_EQ(Count(ptx64, "xor.b32 %judge_got, %judge_got, %judge_want;"), 2u);
}

// The planted checker fault changes the judge's expectation of the first
// word alone, and every other bug leaves the judge as it is.
TEST(DeviceJudgeTest, OnlyTheMisjudgingCheckerChangesTheJudge) {
  const std::string clean = DeviceJudgePtx(OneWordPlan(), "k", 2, 32, "", PlantedBug::kNone);
  const std::string planted = DeviceJudgePtx(OneWordPlan(), "k", 2, 32, "", PlantedBug::kMisjudgingChecker);
  EXPECT_EQ(Count(planted, "xor.b32 %judge_want, %judge_want, 1;"), 1u);
  EXPECT_EQ(Count(clean, "xor.b32 %judge_want, %judge_want, 1;"), 0u);
  for (PlantedBug bug : AllPlantedBugs()) {
    if (!PlantedInTheDeviceJudge(bug)) EXPECT_EQ(DeviceJudgePtx(OneWordPlan(), "k", 2, 32, "", bug), clean);
  }
}

// A verdict word carries the SM that ran the block above the verdict; the
// launch's poison, and any other word, is no verdict.
TEST(DeviceJudgeTest, AVerdictWordSaysTheVerdictAndTheSm) {
  const VerdictWord agree = ReadVerdictWord(131u << 8 | 1);
  ASSERT_TRUE(agree.verdict.has_value());
  EXPECT_EQ(*agree.verdict, DeviceVerdict::kAgree);
  EXPECT_EQ(agree.sm, 131u);
  EXPECT_EQ(ReadVerdictWord(2).verdict, DeviceVerdict::kDisagree);
  EXPECT_EQ(ReadVerdictWord(0xA5A5A5A5).verdict, std::nullopt);
  EXPECT_EQ(ReadVerdictWord(0).verdict, std::nullopt);
  EXPECT_EQ(ReadVerdictWord(3).verdict, std::nullopt);
  EXPECT_THAT(DeviceJudgePtx(OneWordPlan(), "k", 1, 32, "", PlantedBug::kNone), HasSubstr("mov.u32 %judge_sm, %smid;"));
}

TEST(DeviceJudgeTest, BlockZeroAndEveryFourThousandNinetySixthAreSampled) {
  EXPECT_TRUE(SampledBlock(0));
  EXPECT_FALSE(SampledBlock(1));
  EXPECT_TRUE(SampledBlock(4096));
  EXPECT_FALSE(SampledBlock(4095));
}

}  // namespace
}  // namespace matload
