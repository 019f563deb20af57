#include "harness/conform/suspect_retries.h"

#include <vector>

#include "gtest/gtest.h"

namespace matload {
namespace {

const LaunchOutcome kRan{.kind = LaunchOutcome::Kind::kRan};
const LaunchOutcome kFault{.kind = LaunchOutcome::Kind::kKernelFault, .detail = "misaligned address (716)"};
const LaunchOutcome kHang{.kind = LaunchOutcome::Kind::kKernelHang, .detail = "no answer in 12 s"};

// Listed is an attempt at the variants `indices`.
CaseWork Listed(std::vector<std::int64_t> indices) {
  CaseWork work{.take = VariantRole::kAny};
  work.listed = std::move(indices);
  return work;
}

// Suspect is a held case whose first outcome was `outcome` and whose
// re-runs came out as `attempts`.
TalliedCase Suspect(CaseOutcome outcome, std::vector<CaseOutcome> attempts) {
  TalliedCase suspect;
  suspect.record.id = "sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64";
  suspect.record.outcome = outcome;
  suspect.record.finding = true;
  suspect.record.attempts = std::move(attempts);
  return suspect;
}

TEST(SuspectRetriesTest, OnlyWhatAGpuMightNotDoAgainIsRetried) {
  for (const CaseOutcome outcome :
       {CaseOutcome::kMismatch, CaseOutcome::kUnexpectedFault, CaseOutcome::kMissingFault, CaseOutcome::kTimeout}) {
    EXPECT_TRUE(Retryable(outcome)) << CaseOutcomeWord(outcome);
  }
  for (const CaseOutcome outcome : {CaseOutcome::kPass, CaseOutcome::kKnownFault, CaseOutcome::kExpectedFault,
                                    CaseOutcome::kLegalRejected, CaseOutcome::kIllegalAccepted, CaseOutcome::kFlake}) {
    EXPECT_FALSE(Retryable(outcome)) << CaseOutcomeWord(outcome);
  }
}

TEST(SuspectRetriesTest, AnAttemptRerunsTheFirstFailingVariants) {
  CaseRecord suspect;
  suspect.first_failures = {4, 17, 90};
  const CaseWork work = Rerun(CaseWork{.seed = 7, .take = VariantRole::kAny}, suspect);
  EXPECT_EQ(work.listed, suspect.first_failures);
  EXPECT_EQ(work.seed, 7u);
  EXPECT_EQ(work.size(), 3u);
}

TEST(SuspectRetriesTest, AnAttemptThatRanIsItsSummarysWorst) {
  CaseSummary summary;
  summary.classes = {{CaseClass::kPass, 2}, {CaseClass::kMismatch, 1}, {CaseClass::kKnownFault, 1}};
  const auto never = [](std::int64_t) -> CaseClass {
    ADD_FAILURE() << "an attempt that ran judges no fault";
    return CaseClass::kPass;
  };
  const absl::StatusOr<CaseClass> worst = AttemptClass(Listed({1, 2, 3, 4}), {.output = summary.Encode()}, kRan, never);
  ASSERT_TRUE(worst.ok()) << worst.status();
  EXPECT_EQ(*worst, CaseClass::kMismatch);

  const absl::StatusOr<CaseClass> garbled = AttemptClass(Listed({1}), {.output = "not a summary"}, kRan, never);
  EXPECT_EQ(garbled.status().code(), absl::StatusCode::kDataLoss);
}

TEST(SuspectRetriesTest, AnAttemptThatHungIsATimeout) {
  const auto never = [](std::int64_t) -> CaseClass {
    ADD_FAILURE() << "a hang judges no fault";
    return CaseClass::kPass;
  };
  EXPECT_EQ(AttemptClass(Listed({1, 2}), {}, kHang, never).value(), CaseClass::kTimeout);
}

TEST(SuspectRetriesTest, AnAttemptThatFaultedIsItsMostSevereVariant) {
  std::vector<std::int64_t> judged;
  const auto fault_class = [&](std::int64_t index) {
    judged.push_back(index);
    return index == 17 ? CaseClass::kUnexpectedFault : CaseClass::kKnownFault;
  };
  EXPECT_EQ(AttemptClass(Listed({4, 17, 90}), {}, kFault, fault_class).value(), CaseClass::kUnexpectedFault);
  EXPECT_EQ(judged, (std::vector<std::int64_t>{4, 17, 90}));
  EXPECT_EQ(AttemptClass(Listed({4, 90}), {}, kFault, fault_class).value(), CaseClass::kKnownFault);
}

TEST(SuspectRetriesTest, AttemptsThatDisagreeMakeAFlake) {
  const TalliedCase flake = Settled(Suspect(CaseOutcome::kMismatch, {CaseOutcome::kMismatch, CaseOutcome::kPass}));
  EXPECT_EQ(flake.record.outcome, CaseOutcome::kFlake);
  EXPECT_TRUE(flake.record.finding);
  EXPECT_EQ(flake.record.attempts,
            (std::vector<CaseOutcome>{CaseOutcome::kMismatch, CaseOutcome::kMismatch, CaseOutcome::kPass}));
}

TEST(SuspectRetriesTest, AttemptsThatAgreeKeepTheOutcome) {
  const TalliedCase again = Settled(Suspect(CaseOutcome::kTimeout, {CaseOutcome::kTimeout, CaseOutcome::kTimeout}));
  EXPECT_EQ(again.record.outcome, CaseOutcome::kTimeout);
  EXPECT_EQ(again.record.attempts,
            (std::vector<CaseOutcome>{CaseOutcome::kTimeout, CaseOutcome::kTimeout, CaseOutcome::kTimeout}));
  // A case that was never re-run keeps no attempts.
  const TalliedCase unretried = Settled(Suspect(CaseOutcome::kMismatch, {}));
  EXPECT_EQ(unretried.record.outcome, CaseOutcome::kMismatch);
  EXPECT_TRUE(unretried.record.attempts.empty());
}

}  // namespace
}  // namespace matload
