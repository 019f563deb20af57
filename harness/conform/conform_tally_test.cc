#include "harness/conform/conform_tally.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(ConformTallyTest, SingleVariantsAreCountedIntoTheirCase) {
  ConformTally tally;
  tally.Expect("a", "ldmatrix");
  tally.Add("a", {.index = 0, .kind = CaseClass::kPass, .ran = true, .words_compared = 32});
  tally.Add("a", {.index = 1, .kind = CaseClass::kPass, .ran = true, .words_compared = 32});
  tally.Add("a", {.index = 2, .kind = CaseClass::kKnownFault, .detail = "entry-id: not run"});
  const std::vector<TalliedCase> complete = tally.Take({"a"});
  ASSERT_EQ(complete.size(), 1u);
  const TalliedCase& tallied = complete[0];
  EXPECT_EQ(tallied.record.id, "a");
  EXPECT_EQ(tallied.record.outcome, CaseOutcome::kKnownFault);
  EXPECT_FALSE(tallied.record.finding);
  EXPECT_EQ(tallied.record.counts, (OutcomeCounts{{CaseOutcome::kKnownFault, 1}, {CaseOutcome::kPass, 2}}));
  EXPECT_EQ(tallied.record.detail, "entry-id: not run");
  EXPECT_EQ(tallied.executions, 2u);
  EXPECT_EQ(tallied.words_compared, 64u);
  EXPECT_EQ(tallied.family, "ldmatrix");
  EXPECT_TRUE(tally.Take({"a"}).empty());  // handed over once
}

TEST(ConformTallyTest, TheMostSevereOutcomeAndTheLowestFailureNameTheCase) {
  ConformTally tally;
  tally.Expect("b", "wmma.load");
  tally.Add("b", {.index = 0, .kind = CaseClass::kKnownFault, .detail = "known"});
  tally.Add("b", {.index = 3, .kind = CaseClass::kMismatch, .detail = "later", .bundle = "dir/001", .ran = true});
  tally.Add("b", {.index = 1, .kind = CaseClass::kUnexpectedFault, .detail = "first", .bundle = "dir/002"});
  tally.Add("b", {.index = 2, .kind = CaseClass::kPass, .ran = true});
  const std::vector<TalliedCase> complete = tally.Take({"b"});
  ASSERT_EQ(complete.size(), 1u);
  const CaseRecord& record = complete[0].record;
  EXPECT_EQ(record.outcome, CaseOutcome::kMismatch);
  EXPECT_TRUE(record.finding);
  EXPECT_EQ(record.first_failures, (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(record.detail, "first");
  EXPECT_EQ(record.bundle, "dir/002");
  EXPECT_EQ(complete[0].failing_variants, 2u);
  EXPECT_EQ(complete[0].bundle_cases, (std::map<std::string, size_t>{{"dir/001", 1}, {"dir/002", 1}}));
}

// A worker's summary counts every variant it judged, and each sample's
// bundle counts every variant of its signature; the case's time is its
// workers' time on it.
TEST(ConformTallyTest, ASummaryCountsEveryVariantAndEverySignature) {
  CaseSummary summary;
  for (std::int64_t index = 0; index < 100; ++index) {
    const bool fails = index % 10 == 7;
    summary.Add(index, {.kind = fails ? CaseClass::kMismatch : CaseClass::kPass, .detail = fails ? "moved\nmore" : ""},
                true, 32, fails ? (index < 50 ? "low" : "high") : "", {}, 0, 4);
  }
  ConformTally tally(4);
  tally.Expect("c", "ldmatrix");
  summary.seconds.items = 1.5;
  tally.AddSummary("c", summary, {{"low", "bundles/001"}, {"high", "bundles/002"}});
  CaseSummary more;
  more.Add(300, {.kind = CaseClass::kPass}, true, 32, "", {}, 0, 4);
  more.seconds.items = 0.25;
  tally.AddSummary("c", more, {});
  tally.Add("c", {.index = 200, .kind = CaseClass::kPass, .ran = true, .words_compared = 32});
  const std::vector<TalliedCase> complete = tally.Take({"c"});
  ASSERT_EQ(complete.size(), 1u);
  const TalliedCase& tallied = complete[0];
  EXPECT_EQ(tallied.record.counts, (OutcomeCounts{{CaseOutcome::kMismatch, 10}, {CaseOutcome::kPass, 92}}));
  EXPECT_EQ(tallied.record.first_failures, (std::vector<std::int64_t>{7, 17, 27, 37}));
  EXPECT_DOUBLE_EQ(tallied.record.seconds, 1.75);  // the workers' time on the case's items
  EXPECT_EQ(tallied.record.detail, "moved");
  EXPECT_EQ(tallied.record.bundle, "bundles/001");
  EXPECT_EQ(tallied.bundle_cases, (std::map<std::string, size_t>{{"bundles/001", 5}, {"bundles/002", 5}}));
  EXPECT_EQ(tallied.failing_variants, 10u);
  EXPECT_EQ(tallied.executions, 102u);
  EXPECT_EQ(tallied.words_compared, 102u * 32);
}

TEST(ConformTallyTest, ARegistryMissIsAFindingOfTheCase) {
  ConformTally tally;
  tally.Expect("c", "wmma.load");
  tally.Add("c", {.index = 0, .kind = CaseClass::kPass, .ran = true});
  tally.NoteRegistryMiss("c", "entry predicts a fault");
  const std::vector<TalliedCase> complete = tally.Take({"c"});
  ASSERT_EQ(complete.size(), 1u);
  EXPECT_EQ(complete[0].record.outcome, CaseOutcome::kPass);
  EXPECT_TRUE(complete[0].record.finding);
  EXPECT_EQ(complete[0].failing_variants, 1u);
}

// A hang that did not happen again when its launch ran in halves makes the
// case a flake whose attempts say what happened first and then.
TEST(ConformTallyTest, AnUnreproducedHangMakesAFlake) {
  ConformTally tally;
  tally.Expect("d", "ldmatrix");
  tally.Add("d", {.index = 0, .kind = CaseClass::kPass, .ran = true});
  tally.NoteUnreproduced("d", CaseClass::kTimeout, "a hang of 40 variants from 0 on did not happen again");
  const std::vector<TalliedCase> complete = tally.Take({"d"});
  ASSERT_EQ(complete.size(), 1u);
  EXPECT_EQ(complete[0].record.outcome, CaseOutcome::kFlake);
  EXPECT_EQ(complete[0].record.attempts, (std::vector<CaseOutcome>{CaseOutcome::kTimeout, CaseOutcome::kPass}));
  EXPECT_TRUE(complete[0].record.finding);
  EXPECT_EQ(complete[0].record.detail, "a hang of 40 variants from 0 on did not happen again");
}

TEST(ConformTallyTest, ACaseThatJudgedNothingIsNotRecorded) {
  ConformTally tally;
  tally.Expect("undefined-case", "ldmatrix");
  EXPECT_TRUE(tally.Take({"undefined-case"}).empty());
}

// Take hands over only the cases it is given: the others stay in flight,
// to be handed over when their work is done.
TEST(ConformTallyTest, TakeHandsOverOnlyTheCasesAskedFor) {
  ConformTally tally;
  for (const char* id : {"e", "f", "g"}) {
    tally.Expect(id, "ldmatrix");
    tally.Add(id, {.index = 0, .kind = CaseClass::kPass, .ran = true});
  }
  const std::vector<TalliedCase> done = tally.Take({"g", "e", "unknown"});
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].record.id, "e");
  EXPECT_EQ(done[1].record.id, "g");
  tally.Add("f", {.index = 1, .kind = CaseClass::kPass, .ran = true});
  const std::vector<TalliedCase> later = tally.Take({"e", "f", "g"});
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].record.counts, (OutcomeCounts{{CaseOutcome::kPass, 2}}));
}

TEST(ConformTallyTest, SeverityPutsFindingsFirst) {
  EXPECT_GT(Severity(CaseClass::kMismatch), Severity(CaseClass::kKnownFault));
  EXPECT_GT(Severity(CaseClass::kTimeout), Severity(CaseClass::kUndefinedFaulted));
  EXPECT_GT(Severity(CaseClass::kUndefinedRan), Severity(CaseClass::kPass));
}

}  // namespace
}  // namespace matload
