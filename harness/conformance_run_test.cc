#include "harness/conformance_run.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

ConformanceResult TwoFamilies() {
  ConformanceResult result;
  result.identity = "NVIDIA H100 80GB HBM3, GPU-0, driver JIT CUDA 13.0";
  result.target = Target{90};
  result.counts["ldmatrix"][CaseClass::kPass] = 32;
  result.counts["wmma.load"][CaseClass::kPass] = 30;
  result.counts["wmma.load"][CaseClass::kMismatch] = 2;
  result.executions = 64;
  result.launches = 6;
  result.device_seconds = 12.5;
  return result;
}

TEST(ConformanceRunTest, SummaryTabulatesEveryFamilyAndClass) {
  const std::string summary =
      ConformanceSummaryMarkdown({.seed = 7, .paths = {CompilePath::kDriverJit}}, TwoFamilies());
  EXPECT_THAT(summary, HasSubstr("# matload conform: sm_90"));
  EXPECT_THAT(summary, HasSubstr("seed 7, 16 variants per form, compile paths: driver-jit"));
  EXPECT_THAT(summary, HasSubstr("| family | pass | mismatch |"));
  EXPECT_THAT(summary, HasSubstr("| ldmatrix | 32 | 0 |"));
  EXPECT_THAT(summary, HasSubstr("| wmma.load | 30 | 2 |"));
  EXPECT_THAT(summary, HasSubstr("GPU phase: 12.5 s for 6 launches (JIT, launch, copy and judging included).\n"));
}

// Where the GPU phase's time went, phase by phase, so a slow run says why.
TEST(ConformanceRunTest, SummarySaysWhereTheGpuPhaseWent) {
  ConformanceResult result = TwoFamilies();
  result.phases = {{"forms", 6, 10.34}, {"registry confirmations", 2, 2.0}};
  EXPECT_THAT(ConformanceSummaryMarkdown({.paths = {CompilePath::kDriverJit}}, result),
              HasSubstr("GPU phase: 12.5 s for 6 launches (JIT, launch, copy and judging included): forms 10.3 s "
                        "(6 launches), registry confirmations 2.0 s (2 launches).\n"));
}

}  // namespace
}  // namespace matload
