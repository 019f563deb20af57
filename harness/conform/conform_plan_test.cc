#include "harness/conform/conform_plan.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// OnTheJit is a run on the driver JIT of CUDA 13.0, which speaks PTX 9.0.
const std::vector<PathDialect> kOnTheJit = {{CompilePath::kDriverJit, {9, 0}, "the driver JIT (CUDA 13.0)"}};

// sm_90 has 18 legal ldmatrix programs and 528 wmma.load programs (the
// forms naming .shared or .shared::cta run with 32- and 64-bit addresses):
// 546, as the H100 run in reports/nightly/h100-2026-11-24 ran (1,092 cases
// on two compile paths). At PTX 9.0 sm_90a adds none.
TEST(ConformPlanTest, EverySm90FormIsPlanned) {
  const absl::StatusOr<ConformPlan> plan = PlanConformance({.variants = 4}, Target{90}, kOnTheJit);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->programs.size(), 546u);
  for (const PlannedProgram& planned : plan->programs) EXPECT_THAT(planned.paths, ElementsAre(CompilePath::kDriverJit));
  // 558 on sm_100a, sm_103a and sm_110a, and on sm_107a (PTX 9.4) sm_103a's 242 and its own 72 .spcompress forms.
  EXPECT_EQ(plan->missing_hardware_forms, (std::map<std::string, size_t>{{"tcgen05.ld", 872}}));
  ASSERT_EQ(plan->not_run.size(), 2u);
  EXPECT_THAT(plan->not_run[0], HasSubstr("need a PTX ISA version after 9.0, the newest the driver JIT (CUDA 13.0) "
                                          "speaks, so driver-jit does not run them"));
  EXPECT_EQ(plan->not_run[1],
            "tcgen05.ld: 872 legal forms on sm_100a/sm_103a/sm_107a/sm_110a need Tensor Memory, which sm_90 lacks; "
            "their kernels are compile-checked (family_kernels_test)");
}

// With a ptxas of PTX 9.5 beside the JIT, the cubin path runs every form
// again at 9.5, and the 9 forms of sm_90a that PTX 9.4 added (ldmatrix
// .m8n16 .s8.s4: three .num by three state spaces) run on it alone.
TEST(ConformPlanTest, APathOfALaterVersionRunsTheFormsItAdds) {
  const std::vector<PathDialect> dialects = {kOnTheJit[0], {CompilePath::kPtxasCubin, {9, 5}, "ptxas 13.5.37"}};
  const absl::StatusOr<ConformPlan> plan = PlanConformance({.variants = 4}, Target{90}, dialects);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->programs.size(), 546u + 546u + 9u);
  size_t s4 = 0;
  for (const PlannedProgram& planned : plan->programs) {
    const bool only_cubin = planned.paths == std::vector<CompilePath>{CompilePath::kPtxasCubin};
    if (planned.program->instruction().target() == *ParseTarget("sm_90a")) {
      ++s4;
      EXPECT_THAT(planned.program->Label(), HasSubstr(".s8.s4"));
      EXPECT_TRUE(only_cubin);
      EXPECT_EQ(planned.program->instruction().ptx(), (PtxVersion{9, 5}));
    }
  }
  EXPECT_EQ(s4, 9u);
}

TEST(ConformPlanTest, ConformTargetsAreTheBaselineAndItsArchSpecificTarget) {
  EXPECT_THAT(ConformTargets(Target{90}), ElementsAre(Target{90}, *ParseTarget("sm_90a")));
  EXPECT_THAT(ConformTargets(Target{89}), ElementsAre(Target{89}));
}

// sm_100a has Tensor Memory: nothing is left to other GPUs.
TEST(ConformPlanTest, ATargetWithTensorMemoryLeavesNoFormsToOthers) {
  const absl::StatusOr<ConformPlan> plan =
      PlanConformance({.variants = 1}, *ParseTarget("sm_100a"), {{CompilePath::kDriverJit, {9, 5}, "a JIT"}});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(plan->missing_hardware_forms.empty());
}

TEST(ConformPlanTest, TheFormsRegexChoosesProgramsByLabel) {
  const absl::StatusOr<ConformPlan> plan =
      PlanConformance({.variants = 2, .forms = R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.)"}, Target{90}, kOnTheJit);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->programs.size(), 6u);
  EXPECT_EQ(PlanConformance({.forms = "^nothing"}, Target{90}, kOnTheJit).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
