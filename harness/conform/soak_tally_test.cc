#include "harness/conform/soak_tally.h"

#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Case is a case record of one round: `passes` passing variants, and with
// `failing` one mismatch at variant 3 filed in bundle 001.
CaseRecord Case(const std::string& id, std::int64_t passes, bool failing) {
  CaseRecord record{.id = id, .outcome = failing ? CaseOutcome::kMismatch : CaseOutcome::kPass, .finding = failing};
  record.counts[CaseOutcome::kPass] = passes;
  if (failing) {
    record.counts[CaseOutcome::kMismatch] = 1;
    record.first_failures = {3};
    record.detail = "lane 0 word 1 differs";
    record.bundle = "bundles/001-mismatch";
  }
  record.seconds = 1.5;
  return record;
}

// Round is a round's result with `cases`, each of its passes an execution
// judged on the GPU of SM 7.
ConformanceResult Round(std::vector<CaseRecord> cases) {
  ConformanceResult result;
  for (const CaseRecord& record : cases) {
    for (const auto& [outcome, count] : record.counts) {
      result.executions += count;
      if (outcome == CaseOutcome::kPass) result.judged_on_device += count;
    }
    result.findings += record.finding ? 1 : 0;
  }
  result.per_sm[{0, 7}] = {.blocks = result.judged_on_device, .disagreed = 0};
  result.bundles = result.findings;
  result.cases = std::move(cases);
  return result;
}

TEST(SoakTallyTest, RoundsHaveSeedsOfTheirOwn) {
  std::set<std::uint64_t> seeds;
  for (std::uint64_t seed : {1, 2}) {
    for (int round = 0; round < 100; ++round) seeds.insert(SoakRoundSeed(seed, round));
  }
  EXPECT_EQ(seeds.size(), 200u);
  EXPECT_EQ(SoakRoundSeed(1, 0), SoakRoundSeed(1, 0));
  EXPECT_EQ(SoakRoundDirectory(3), "rounds/0003");
}

TEST(SoakTallyTest, ACaseCountsEveryRoundsVariants) {
  SoakTally tally;
  ASSERT_TRUE(tally.AddRound({.index = 0, .seed = 11}, Round({Case("a", 10, false), Case("b", 5, false)})).ok());
  ASSERT_TRUE(tally.AddRound({.index = 1, .seed = 12}, Round({Case("a", 10, false), Case("b", 5, false)})).ok());
  const std::vector<CaseRecord> cases = tally.Cases();
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "a");
  EXPECT_EQ(cases[0].counts.at(CaseOutcome::kPass), 20);
  EXPECT_EQ(cases[0].seconds, 3.0);
  EXPECT_EQ(cases[1].counts.at(CaseOutcome::kPass), 10);
  const ConformanceResult totals = tally.Totals();
  EXPECT_EQ(totals.executions, 30u);
  EXPECT_EQ(totals.judged_on_device, 30u);
  EXPECT_EQ(totals.per_sm.at({0, 7}).blocks, 30u);
  EXPECT_EQ(totals.findings, 0u);
  ASSERT_EQ(tally.rounds().size(), 2u);
  EXPECT_EQ(tally.rounds()[1].seed, 12u);
  EXPECT_EQ(tally.rounds()[1].executions, 15u);
}

TEST(SoakTallyTest, TheFirstRoundThatFailsSpeaksForTheCase) {
  SoakTally tally;
  ASSERT_TRUE(tally.AddRound({.index = 0, .seed = 11}, Round({Case("a", 10, false)})).ok());
  ASSERT_TRUE(tally.AddRound({.index = 1, .seed = 12}, Round({Case("a", 9, true)})).ok());
  ASSERT_TRUE(tally.AddRound({.index = 2, .seed = 13}, Round({Case("a", 9, true)})).ok());
  const std::vector<CaseRecord> cases = tally.Cases();
  ASSERT_EQ(cases.size(), 1u);
  const CaseRecord& a = cases[0];
  EXPECT_TRUE(a.finding);
  EXPECT_EQ(a.outcome, CaseOutcome::kMismatch);
  EXPECT_EQ(a.counts.at(CaseOutcome::kPass), 28);
  EXPECT_EQ(a.counts.at(CaseOutcome::kMismatch), 2);
  EXPECT_THAT(a.first_failures, ElementsAre(3));
  EXPECT_EQ(a.bundle, "rounds/0001/bundles/001-mismatch");
  EXPECT_THAT(a.detail, HasSubstr("round 1 (conform --seed 12): lane 0 word 1 differs"));
  // One case that failed in two rounds is one finding, as the store counts.
  EXPECT_EQ(tally.Totals().findings, 1u);
  EXPECT_EQ(tally.rounds()[1].findings, 1u);
  EXPECT_EQ(tally.Totals().bundles, 2u);
}

TEST(SoakTallyTest, ItKeepsWhatEveryRoundConfirmed) {
  SoakTally tally;
  ConformanceResult first = Round({Case("a", 1, false)});
  first.confirmed[{"a", "entry-1"}] = "entry-1: misaligned address";
  ConformanceResult second = Round({Case("b", 1, false)});
  second.confirmed[{"b", "entry-2"}] = "entry-2: misaligned address";
  ASSERT_TRUE(tally.AddRound({.index = 0, .seed = 1}, first).ok());
  ASSERT_TRUE(tally.AddRound({.index = 1, .seed = 2}, second).ok());
  EXPECT_EQ(tally.confirmed().size(), 2u);
  EXPECT_EQ(tally.confirmed().at({"a", "entry-1"}), "entry-1: misaligned address");
}

// A case that fails in round 0 and flakes in round 1 keeps round 0's
// record, and is still counted as a flake.
TEST(SoakTallyTest, AFlakeInALaterRoundIsCounted) {
  SoakTally tally;
  CaseRecord flake = Case("a", 9, true);
  flake.outcome = CaseOutcome::kFlake;
  ASSERT_TRUE(tally.AddRound({.index = 0, .seed = 1}, Round({Case("a", 9, true)})).ok());
  ASSERT_TRUE(tally.AddRound({.index = 1, .seed = 2}, Round({flake})).ok());
  EXPECT_EQ(tally.Cases()[0].outcome, CaseOutcome::kMismatch);
  EXPECT_EQ(tally.Totals().flakes, 1u);
  EXPECT_EQ(tally.Totals().findings, 1u);
}

TEST(SoakTallyTest, TotalsThatDoNotAddUpAreDataLoss) {
  SoakTally tally;
  ConformanceResult sm_90 = Round({Case("a", 1, false)});
  sm_90.target = *ParseTarget("sm_90");
  ConformanceResult sm_80 = Round({Case("a", 1, false)});
  sm_80.target = *ParseTarget("sm_80");
  ASSERT_TRUE(tally.AddRound({.index = 0, .seed = 1}, sm_90).ok());
  EXPECT_EQ(tally.AddRound({.index = 1, .seed = 2}, sm_80).code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace matload
