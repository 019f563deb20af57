#include "harness/triage/case_history.h"

#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

// Night is a run of the case on `day` of November 2026 with `outcome`.
CaseNight Night(int day, CaseOutcome outcome) {
  RunRecord run{.id = absl::StrCat("conform-202611", day), .command = "conform", .gpu_name = "NVIDIA H100"};
  run.started = absl::FromCivil(absl::CivilSecond(2026, 11, day, 5, 0, 0), absl::UTCTimeZone());
  return {.run = run, .outcome = outcome, .finding = outcome == CaseOutcome::kMismatch};
}

TEST(CaseHistoryTest, SaysHowOftenAndWhenItLastPassed) {
  EXPECT_EQ(CaseHistorySummary(
                {Night(24, CaseOutcome::kPass), Night(25, CaseOutcome::kPass), Night(26, CaseOutcome::kMismatch)}),
            "Passed in 2 of 3 runs in the store, last in conform-20261125 (2026-11-25, NVIDIA H100); first a finding "
            "in conform-20261126 (2026-11-26, NVIDIA H100).");
  EXPECT_EQ(CaseHistorySummary({Night(26, CaseOutcome::kMismatch)}),
            "Passed in 0 of 1 runs in the store; first a finding in conform-20261126 (2026-11-26, NVIDIA H100).");
  EXPECT_EQ(CaseHistorySummary({}), "The store holds no run of this case.");
}

TEST(CaseHistoryTest, ReadsEveryRunOfTheCaseFromTheStore) {
  const std::string path = (std::filesystem::path(testing::TempDir()) / "case-history.sqlite").string();
  std::filesystem::remove(path);
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status();
  for (const CaseNight& night : {Night(24, CaseOutcome::kPass), Night(25, CaseOutcome::kMismatch)}) {
    ASSERT_TRUE(store->CreateRun(night.run).ok());
    ASSERT_TRUE(
        store
            ->AddCases(night.run.id, {CaseRecord{.id = "the.case", .outcome = night.outcome, .finding = night.finding},
                                      CaseRecord{.id = "another.case", .outcome = CaseOutcome::kPass}})
            .ok());
  }
  absl::StatusOr<std::vector<CaseNight>> nights = ReadCaseHistory(*store, "the.case");
  ASSERT_TRUE(nights.ok()) << nights.status();
  ASSERT_EQ(nights->size(), 2u);
  EXPECT_EQ((*nights)[0].outcome, CaseOutcome::kPass);
  EXPECT_EQ((*nights)[1].run.id, "conform-20261125");
  EXPECT_TRUE((*nights)[1].finding);
}

// A sharded night is its merged run once merged, and its shard until then:
// no night counts twice.
TEST(CaseHistoryTest, AMergedNightCountsOnce) {
  const std::string path = (std::filesystem::path(testing::TempDir()) / "case-history-shards.sqlite").string();
  std::filesystem::remove(path);
  ResultsStore store = *ResultsStore::Open(path);
  const auto add = [&](RunRecord run) {
    ASSERT_TRUE(store.CreateRun(run).ok());
    ASSERT_TRUE(store.AddCases(run.id, {CaseRecord{.id = "the.case", .outcome = CaseOutcome::kPass}}).ok());
  };
  add({.id = "shard-a0", .command = "conform", .parent = "a", .shard = "0/2"});
  add({.id = "shard-b0", .command = "conform", .parent = "b", .shard = "0/2"});
  add({.id = "merged-a", .command = "conform", .parent = "a"});
  absl::StatusOr<std::vector<CaseNight>> nights = ReadCaseHistory(store, "the.case");
  ASSERT_TRUE(nights.ok()) << nights.status();
  std::vector<std::string> runs;
  for (const CaseNight& night : *nights) runs.push_back(night.run.id);
  EXPECT_THAT(runs, ::testing::UnorderedElementsAre("shard-b0", "merged-a"));
}

}  // namespace
}  // namespace matload
