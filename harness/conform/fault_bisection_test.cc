#include "harness/conform/fault_bisection.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

const LaunchOutcome kFault{.kind = LaunchOutcome::Kind::kKernelFault, .detail = "misaligned address (716)"};
const LaunchOutcome kHang{.kind = LaunchOutcome::Kind::kKernelHang, .detail = "no answer in 12 s"};

CaseWork Range(std::int64_t begin, std::int64_t end, VariantRole take = VariantRole::kDefined) {
  return {.take = take, .begin = begin, .end = end};
}

TEST(FaultBisectionTest, OneVariantTakesItsFault) {
  EXPECT_EQ(Bisect(Range(7, 8), kFault, 0, 0, {}).kind, BisectionStep::Kind::kAttributeOne);
  CaseWork listed = Range(0, 0);
  listed.listed = {42};
  EXPECT_EQ(Bisect(listed, kHang, 100, 0, {}).kind, BisectionStep::Kind::kAttributeOne);
}

TEST(FaultBisectionTest, UndefinedVariantsFaultTogether) {
  const BisectionStep fault = Bisect(Range(0, 100, VariantRole::kUndefined), kFault, 0, 25, {});
  ASSERT_EQ(fault.kind, BisectionStep::Kind::kJudgeWhole);
  ASSERT_TRUE(fault.whole.verdict.has_value());
  EXPECT_EQ(fault.whole.verdict->kind, CaseClass::kUndefinedFaulted);
  EXPECT_EQ(fault.whole.verdict->detail, "misaligned address (716) (in a launch of 25 undefined cases)");
  EXPECT_EQ(Bisect(Range(0, 100, VariantRole::kUndefined), kHang, 0, 25, {}).whole.verdict->kind, CaseClass::kTimeout);
}

TEST(FaultBisectionTest, PastTheFirstFailuresALaunchTakesItsFaultWhole) {
  const BisectionStep step = Bisect(Range(64, 128), kFault, 16, 0, {.first_failures = 16});
  ASSERT_EQ(step.kind, BisectionStep::Kind::kJudgeWhole);
  EXPECT_EQ(step.whole.verdict->kind, CaseClass::kUnexpectedFault);
  EXPECT_EQ(step.whole.verdict->detail,
            "misaligned address (716) (64 variants from 64 on ran in one launch; the case's first 16 faults were "
            "attributed one by one)");
  EXPECT_EQ(step.whole.begin, 64);
  // Unless every predicted fault is to be confirmed.
  EXPECT_EQ(Bisect(Range(64, 128, VariantRole::kPredicted), kFault, 16, 0,
                   {.first_failures = 16, .confirm_all_faults = true})
                .kind,
            BisectionStep::Kind::kSplit);
  EXPECT_EQ(Bisect(Range(64, 128), kFault, 16, 0, {.first_failures = 16, .confirm_all_faults = true}).kind,
            BisectionStep::Kind::kJudgeWhole);
}

TEST(FaultBisectionTest, OtherwiseTheItemRunsAgainInTwoHalves) {
  const BisectionStep step = Bisect(Range(10, 15), kHang, 0, 0, {});
  ASSERT_EQ(step.kind, BisectionStep::Kind::kSplit);
  EXPECT_EQ(step.halves.first.begin, 10);
  EXPECT_EQ(step.halves.first.end, 12);
  EXPECT_EQ(step.halves.second.begin, 12);
  EXPECT_EQ(step.halves.second.end, 15);
  EXPECT_EQ(step.unreproduced_kind, CaseClass::kTimeout);
  EXPECT_EQ(step.unreproduced, "a hang of 5 variants from 10 on (no answer in 12 s) did not happen again when they "
                               "ran in two halves");
  CaseWork listed = Range(0, 0);
  listed.listed = {3, 9, 27, 81};
  const std::pair<CaseWork, CaseWork> halves = SplitInTwo(listed);
  EXPECT_EQ(halves.first.listed, (std::vector<std::int64_t>{3, 9}));
  EXPECT_EQ(halves.second.listed, (std::vector<std::int64_t>{27, 81}));
}

}  // namespace
}  // namespace matload
