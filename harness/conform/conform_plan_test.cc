#include "harness/conform/conform_plan.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// sm_90 has 18 legal ldmatrix programs and 528 wmma.load programs (the
// forms naming .shared or .shared::cta run with 32- and 64-bit addresses):
// 546, as the H100 run in reports/nightly/h100-2026-11-24 ran (1,092 cases
// on two compile paths).
TEST(ConformPlanTest, EverySm90FormIsPlanned) {
  const absl::StatusOr<ConformPlan> plan = PlanConformance({.variants = 4}, Target{90});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->programs.size(), 546u);
  EXPECT_EQ(plan->missing_hardware_forms, (std::map<std::string, size_t>{{"tcgen05.ld", 558}}));
  ASSERT_EQ(plan->not_run.size(), 1u);
  EXPECT_EQ(plan->not_run[0],
            "tcgen05.ld: 558 legal forms on sm_100a/sm_103a/sm_110a need Tensor Memory, which sm_90 lacks; their "
            "kernels are compile-checked (family_kernels_test)");
}

// sm_100a has Tensor Memory: nothing is left to other GPUs.
TEST(ConformPlanTest, ATargetWithTensorMemoryLeavesNoFormsToOthers) {
  const absl::StatusOr<ConformPlan> plan = PlanConformance({.variants = 1}, *ParseTarget("sm_100a"));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(plan->missing_hardware_forms.empty());
}

TEST(ConformPlanTest, TheFormsRegexChoosesProgramsByLabel) {
  const absl::StatusOr<ConformPlan> plan =
      PlanConformance({.variants = 2, .forms = R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.)"}, Target{90});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->programs.size(), 6u);
  EXPECT_EQ(PlanConformance({.forms = "^nothing"}, Target{90}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
