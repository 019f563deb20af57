#include "harness/runs/case_outcome.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

// The words are the results store's and the exports': pinned by hand, so
// that no store written before reads back otherwise.
TEST(CaseOutcomeTest, EachOutcomeKeepsItsWord) {
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kUnjudged), "unjudged");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kPass), "pass");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kMismatch), "mismatch");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kExpectedFault), "expected_fault");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kKnownFault), "known_fault");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kUnexpectedFault), "unexpected_fault");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kMissingFault), "missing_fault");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kUndefinedRan), "undefined_ran");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kUndefinedFaulted), "undefined_faulted");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kLegalRejected), "legal_rejected");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kIllegalRejected), "illegal_rejected");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kIllegalAccepted), "illegal_accepted");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kTimeout), "timeout");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kUnsupported), "unsupported");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kFlake), "flake");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kNotCompiled), "not_compiled");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kFinding), "finding");
  EXPECT_EQ(CaseOutcomeWord(CaseOutcome::kCrash), "crash");
}

TEST(CaseOutcomeTest, EveryWordReadsBackAsItsOutcome) {
  for (int i = static_cast<int>(CaseOutcome::kPass); i <= static_cast<int>(CaseOutcome::kCrash); ++i) {
    const auto outcome = static_cast<CaseOutcome>(i);
    const absl::StatusOr<CaseOutcome> parsed = ParseCaseOutcome(CaseOutcomeWord(outcome));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, outcome) << CaseOutcomeWord(outcome);
  }
}

// A word no matload writes (a byte flipped, or the word of no outcome) is
// data lost.
TEST(CaseOutcomeTest, AFlippedByteIsDataLost) {
  for (const char* word : {"pxss", "Pass", "pass ", "", "mismatcH", "flakes", "unjudged"}) {
    const absl::StatusOr<CaseOutcome> parsed = ParseCaseOutcome(word);
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kDataLoss) << word;
  }
}

}  // namespace
}  // namespace matload
