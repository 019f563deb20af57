#include "harness/triage/case_history.h"

#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

// Night is a run of the case on `day` of November 2026 with `outcome`.
CaseNight Night(int day, const char* outcome) {
  RunRecord run{.id = absl::StrCat("conform-202611", day), .command = "conform", .gpu_name = "NVIDIA H100"};
  run.started = absl::FromCivil(absl::CivilSecond(2026, 11, day, 5, 0, 0), absl::UTCTimeZone());
  return {.run = run, .outcome = outcome, .finding = std::string(outcome) == "mismatch"};
}

TEST(CaseHistoryTest, SaysHowOftenAndWhenItLastPassed) {
  EXPECT_EQ(CaseHistorySummary({Night(24, "pass"), Night(25, "pass"), Night(26, "mismatch")}),
            "Passed in 2 of 3 runs in the store, last in conform-20261125 (2026-11-25, NVIDIA H100); first a finding "
            "in conform-20261126 (2026-11-26, NVIDIA H100).");
  EXPECT_EQ(CaseHistorySummary({Night(26, "mismatch")}),
            "Passed in 0 of 1 runs in the store; first a finding in conform-20261126 (2026-11-26, NVIDIA H100).");
  EXPECT_EQ(CaseHistorySummary({}), "The store holds no run of this case.");
}

TEST(CaseHistoryTest, ReadsEveryRunOfTheCaseFromTheStore) {
  const std::string path = (std::filesystem::path(testing::TempDir()) / "case-history.sqlite").string();
  std::filesystem::remove(path);
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status();
  for (const CaseNight& night : {Night(24, "pass"), Night(25, "mismatch")}) {
    ASSERT_TRUE(store->CreateRun(night.run).ok());
    ASSERT_TRUE(
        store
            ->AddCases(night.run.id, {CaseRecord{.id = "the.case", .outcome = night.outcome, .finding = night.finding},
                                      CaseRecord{.id = "another.case", .outcome = "pass"}})
            .ok());
  }
  absl::StatusOr<std::vector<CaseNight>> nights = ReadCaseHistory(*store, "the.case");
  ASSERT_TRUE(nights.ok()) << nights.status();
  ASSERT_EQ(nights->size(), 2u);
  EXPECT_EQ((*nights)[0].outcome, "pass");
  EXPECT_EQ((*nights)[1].run.id, "conform-20261125");
  EXPECT_TRUE((*nights)[1].finding);
}

}  // namespace
}  // namespace matload
