#include "harness/conform/conform_report.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

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

TEST(ConformReportTest, SummaryTabulatesEveryFamilyAndClass) {
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
TEST(ConformReportTest, SummarySaysWhereTheGpuPhaseWent) {
  ConformanceResult result = TwoFamilies();
  result.phases = {{"forms", 6, 10.34}, {"registry confirmations", 2, 2.0}};
  EXPECT_THAT(ConformanceSummaryMarkdown({.paths = {CompilePath::kDriverJit}}, result),
              HasSubstr("GPU phase: 12.5 s for 6 launches (JIT, launch, copy and judging included): forms 10.3 s "
                        "(6 launches), registry confirmations 2.0 s (2 launches).\n"));
}

// Where the workers' time went: the run says whether they waited on
// their launches or on their host threads.
TEST(ConformReportTest, SummarySaysWhereTheWorkersTimeWent) {
  ConformanceResult result = TwoFamilies();
  EXPECT_THAT(ConformanceSummaryMarkdown({}, result), Not(HasSubstr("The workers' items")));
  result.worker_seconds = {.items = 80,
                           .pipeline = 72.5,
                           .launching = 60.25,
                           .judging = 12,
                           .generating = 30,
                           .starting = 4,
                           .loading = 9.5};
  EXPECT_THAT(ConformanceSummaryMarkdown({}, result),
              HasSubstr("The workers' items took 80.0 s, summed over workers; 4.0 s of it starting workers (the "
                        "driver and a GPU context each) and 72.5 s in the launch pipeline, whose launches took 60.2 s "
                        "(9.5 s of it loading modules) while its host threads spent 12.0 s judging and 30.0 s making "
                        "variants (the mean of a pipeline's threads).\n"));
}

TEST(ConformReportTest, CaseTableHasOneLinePerCaseOnOneLineEach) {
  const std::vector<CaseRecord> cases = {{.id = "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64.driver_jit",
                                          .outcome = CaseOutcome::kMismatch,
                                          .counts = {{CaseOutcome::kMismatch, 2}, {CaseOutcome::kPass, 14}},
                                          .first_failures = {3, 9},
                                          .detail = "2 of 32 register words differ\tlane 7",
                                          .bundle = "bundles/001-ldmatrix-mismatch"},
                                         {.id = "wmma_load.a.sync.aligned.row.m16n16k16.f16.addr64.ptxas_cubin",
                                          .outcome = CaseOutcome::kPass,
                                          .counts = {{CaseOutcome::kPass, 16}}}};
  EXPECT_EQ(CaseTable("GPU", cases),
            "# GPU\n# case\toutcome\tvariants by outcome\tfirst failing variants\tdetail\tbundle\n"
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64.driver_jit\tmismatch\tmismatch=2,pass=14\t3,9\t"
            "2 of 32 register words differ lane 7\tbundles/001-ldmatrix-mismatch\n"
            "wmma_load.a.sync.aligned.row.m16n16k16.f16.addr64.ptxas_cubin\tpass\tpass=16\t\t\t\n");
}

TEST(ConformReportTest, PhasesOfTheSameNameAddUp) {
  std::vector<ConformancePhase> phases;
  AddPhase({"forms", 10, 1.5}, phases);
  AddPhase({"registry confirmations", 2, 4.0}, phases);
  AddPhase({"forms", 5, 0.5}, phases);
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].launches, 15u);
  EXPECT_DOUBLE_EQ(phases[0].seconds, 2.0);
}

TEST(ConformReportTest, TotalsReadBackAsTheyWere) {
  ConformanceResult result = TwoFamilies();
  result.phases = {{"forms", 6, 10.5}};
  result.registry_misses = {"an entry that over-predicts"};
  result.not_run = {"tcgen05.ld: sm_100a and up"};
  result.words_compared = 2048;
  result.failing_variants = 5;
  result.findings = 2;
  result.flakes = 1;
  result.worker_seconds = {
      .items = 8, .pipeline = 7, .launching = 6, .judging = 2, .generating = 3, .starting = 1, .loading = 0.5};
  ConformanceResult restored{.identity = result.identity};
  ASSERT_TRUE(AddTotals(TotalsJson(result), restored).ok());
  EXPECT_EQ(restored.target, Target{90});
  EXPECT_EQ(restored.counts, result.counts);
  EXPECT_EQ(restored.registry_misses, result.registry_misses);
  EXPECT_EQ(restored.not_run, result.not_run);
  EXPECT_EQ(restored.words_compared, 2048u);
  EXPECT_EQ(restored.failing_variants, 5u);
  EXPECT_EQ(restored.findings, 2u);
  EXPECT_EQ(restored.flakes, 1u);
  EXPECT_EQ(restored.executions, result.executions);
  EXPECT_EQ(restored.worker_seconds.items, 8);
  EXPECT_EQ(restored.worker_seconds.generating, 3);
  EXPECT_EQ(restored.worker_seconds.starting, 1);
  EXPECT_EQ(restored.worker_seconds.loading, 0.5);
  EXPECT_EQ(ConformanceSummaryMarkdown({}, restored), ConformanceSummaryMarkdown({}, result));
  EXPECT_EQ(AddTotals(nlohmann::json::array(), restored).code(), absl::StatusCode::kDataLoss);
}

// Two shards' totals add up to what one run over both would have counted;
// what each shard could not run, which each planned whole, is said once.
TEST(ConformReportTest, TwoShardsTotalsAddUp) {
  ConformanceResult shard = TwoFamilies();
  shard.counts["tcgen05.ld"][CaseClass::kUnsupported] = 558;
  shard.phases = {{"forms", 6, 10.5}};
  shard.not_run = {"tcgen05.ld: sm_100a and up"};
  ConformanceResult merged;
  ASSERT_TRUE(AddTotals(TotalsJson(shard), merged).ok());
  ASSERT_TRUE(AddTotals(TotalsJson(shard), merged).ok());
  EXPECT_EQ(merged.counts["wmma.load"][CaseClass::kMismatch], 4u);
  EXPECT_EQ(merged.counts["ldmatrix"][CaseClass::kPass], 64u);
  EXPECT_EQ(merged.counts["tcgen05.ld"][CaseClass::kUnsupported], 558u);
  EXPECT_EQ(merged.executions, 128u);
  EXPECT_EQ(merged.launches, 12u);
  ASSERT_EQ(merged.phases.size(), 1u);
  EXPECT_EQ(merged.phases[0].launches, 12u);
  EXPECT_EQ(merged.not_run, shard.not_run);
}

// Totals recorded before the workers' seconds were kept read back as none.
TEST(ConformReportTest, TotalsWithoutWorkerSecondsReadBack) {
  nlohmann::json totals = TotalsJson(TwoFamilies());
  totals.erase("worker");
  ConformanceResult restored;
  ASSERT_TRUE(AddTotals(totals, restored).ok());
  EXPECT_EQ(restored.worker_seconds.items, 0);
  EXPECT_EQ(restored.executions, 64u);
}

// Totals of two targets are not one run's: a store that says so is damaged.
TEST(ConformReportTest, TotalsOfAnotherTargetAreDataLoss) {
  ConformanceResult sm80 = TwoFamilies();
  sm80.target = Target{80};
  ConformanceResult merged;
  ASSERT_TRUE(AddTotals(TotalsJson(TwoFamilies()), merged).ok());
  EXPECT_EQ(AddTotals(TotalsJson(sm80), merged).code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace matload
