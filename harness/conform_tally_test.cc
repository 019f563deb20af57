#include "harness/conform_tally.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(ConformTallyTest, ACaseIsHandedOverOnlyWhenEveryVariantIsJudged) {
  ConformTally tally;
  tally.Expect("a", "ldmatrix", 3);
  tally.Add("a", {.index = 0, .kind = CaseClass::kPass, .ran = true, .words_compared = 32});
  tally.Add("a", {.index = 1, .kind = CaseClass::kPass, .ran = true, .words_compared = 32});
  EXPECT_TRUE(tally.TakeComplete().empty());
  tally.Add("a", {.index = 2, .kind = CaseClass::kKnownFault, .detail = "entry-id: not run"});
  const std::vector<TalliedCase> complete = tally.TakeComplete();
  ASSERT_EQ(complete.size(), 1u);
  const TalliedCase& tallied = complete[0];
  EXPECT_EQ(tallied.record.outcome, "known_fault");
  EXPECT_FALSE(tallied.record.finding);
  EXPECT_EQ(tallied.record.counts, (std::map<std::string, std::int64_t>{{"known_fault", 1}, {"pass", 2}}));
  EXPECT_EQ(tallied.record.detail, "entry-id: not run");
  EXPECT_EQ(tallied.executions, 2u);
  EXPECT_EQ(tallied.words_compared, 64u);
  EXPECT_EQ(tallied.family, "ldmatrix");
  EXPECT_TRUE(tally.TakeComplete().empty());  // handed over once
}

TEST(ConformTallyTest, TheMostSevereOutcomeAndTheFirstFailureNameTheCase) {
  ConformTally tally;
  tally.Expect("b", "wmma.load", 4);
  tally.Add("b", {.index = 0, .kind = CaseClass::kKnownFault, .detail = "known"});
  tally.Add("b", {.index = 3, .kind = CaseClass::kMismatch, .detail = "first", .bundle = "dir/001", .ran = true});
  tally.Add("b", {.index = 1, .kind = CaseClass::kUnexpectedFault, .detail = "second", .bundle = "dir/002"});
  tally.Add("b", {.index = 2, .kind = CaseClass::kPass, .ran = true});
  const std::vector<TalliedCase> complete = tally.TakeComplete();
  ASSERT_EQ(complete.size(), 1u);
  const CaseRecord& record = complete[0].record;
  EXPECT_EQ(record.outcome, "mismatch");
  EXPECT_TRUE(record.finding);
  EXPECT_EQ(record.first_failures, (std::vector<std::int64_t>{3, 1}));
  EXPECT_EQ(record.detail, "first");
  EXPECT_EQ(record.bundle, "dir/001");
  EXPECT_EQ(complete[0].findings, 2u);
  EXPECT_EQ(complete[0].bundle_cases, (std::map<std::string, size_t>{{"dir/001", 1}, {"dir/002", 1}}));
}

TEST(ConformTallyTest, ARegistryMissIsAFindingOfTheCase) {
  ConformTally tally;
  tally.Expect("c", "wmma.load", 1);
  tally.Add("c", {.index = 0, .kind = CaseClass::kPass, .ran = true, .registry_miss = "entry predicts a fault"});
  const std::vector<TalliedCase> complete = tally.TakeComplete();
  ASSERT_EQ(complete.size(), 1u);
  EXPECT_EQ(complete[0].record.outcome, "pass");
  EXPECT_TRUE(complete[0].record.finding);
  EXPECT_EQ(complete[0].findings, 1u);
}

TEST(ConformTallyTest, SeverityPutsFindingsFirst) {
  EXPECT_GT(Severity(CaseClass::kMismatch), Severity(CaseClass::kKnownFault));
  EXPECT_GT(Severity(CaseClass::kTimeout), Severity(CaseClass::kUndefinedFaulted));
  EXPECT_GT(Severity(CaseClass::kUndefinedRan), Severity(CaseClass::kPass));
}

}  // namespace
}  // namespace matload
