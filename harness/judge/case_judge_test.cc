#include "harness/judge/case_judge.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "gtest/gtest.h"

namespace matload {
namespace {

// AWarp is a warp of two words per lane, every word distinct: word i of the
// buffer (lane i/2, word i%2) holds 0x01010101 * (i + 1).
LaneValues AWarp() {
  LaneValues values = LaneValues::Zeroed(2);
  for (size_t i = 0; i < values.words.size(); ++i) values.words[i] = 0x01010101u * static_cast<std::uint32_t>(i + 1);
  return values;
}

TEST(CaseJudgeTest, EqualOutputPasses) {
  const LaneValues values = AWarp();
  const CaseVerdict verdict = JudgeOutput(values, ExpectedBytes(values));
  EXPECT_EQ(verdict.kind, CaseClass::kPass);
  EXPECT_TRUE(verdict.mismatches.empty());
}

TEST(CaseJudgeTest, EveryDifferingWordIsReportedWithBothValues) {
  const LaneValues values = AWarp();
  std::vector<std::uint8_t> output = ExpectedBytes(values);
  output[12] ^= 1;  // lane 1, word 1, low byte
  const CaseVerdict verdict = JudgeOutput(values, output);
  ASSERT_EQ(verdict.kind, CaseClass::kMismatch);
  ASSERT_EQ(verdict.mismatches.size(), 1u);
  EXPECT_EQ(verdict.mismatches[0].lane, 1);
  EXPECT_EQ(verdict.mismatches[0].word, 1);
  EXPECT_EQ(verdict.mismatches[0].expected, 0x04040404u);
  EXPECT_EQ(verdict.mismatches[0].actual, 0x04040405u);
  EXPECT_EQ(verdict.detail, "1 of 64 register words differ");
}

TEST(CaseJudgeTest, PatternsTellPoisonFromMovedValues) {
  const LaneValues values = AWarp();
  std::vector<std::uint8_t> skipped = ExpectedBytes(values);
  for (int b = 4; b < 8; ++b) skipped[b] = 0xA5;
  EXPECT_EQ(MismatchPattern(JudgeOutput(values, skipped), values).substr(0, 15), "poison-1-words-");
  // Lanes swapped: every wrong word is another slot's model value.
  LaneValues swapped = values;
  std::swap_ranges(swapped.lane(0).begin(), swapped.lane(0).end(), swapped.lane(1).begin());
  const std::string moved = MismatchPattern(JudgeOutput(values, ExpectedBytes(swapped)), values);
  EXPECT_EQ(moved.substr(0, 14), "moved-4-words-");
  // The same slots give the same signature; other slots another.
  EXPECT_EQ(moved, MismatchPattern(JudgeOutput(values, ExpectedBytes(swapped)), values));
  EXPECT_NE(MismatchPattern(JudgeOutput(values, skipped), values).substr(15), moved.substr(14));
}

TEST(CaseJudgeTest, UndefinedCasesAreRecordedNeverCompared) {
  const Outcome undefined = Undefined{RuntimeHazard::kMisalignedAddress, "p is not 32-byte aligned"};
  EXPECT_EQ(JudgeOutput(undefined, {}).kind, CaseClass::kUndefinedRan);
  EXPECT_EQ(JudgeFault(undefined, "CUDA_ERROR_MISALIGNED_ADDRESS", "").kind, CaseClass::kUndefinedFaulted);
  EXPECT_FALSE(IsFinding(CaseClass::kUndefinedRan));
  EXPECT_FALSE(IsFinding(CaseClass::kUndefinedFaulted));
}

TEST(CaseJudgeTest, FaultsAreJudgedAgainstTheModelAndTheRegistry) {
  const LaneValues values = AWarp();
  EXPECT_EQ(JudgeFault(values, "misaligned", "").kind, CaseClass::kUnexpectedFault);
  const CaseVerdict known = JudgeFault(values, "misaligned", "shared-wmma-load-ab-needs-16-byte-rows");
  EXPECT_EQ(known.kind, CaseClass::kKnownFault);
  EXPECT_EQ(known.detail, "shared-wmma-load-ab-needs-16-byte-rows: misaligned");
  EXPECT_EQ(JudgeFault(MustFault{"outside"}, "illegal address", "").kind, CaseClass::kExpectedFault);
  EXPECT_EQ(JudgeOutput(MustFault{"outside"}, {}).kind, CaseClass::kMissingFault);
  EXPECT_TRUE(IsFinding(CaseClass::kMissingFault));
  EXPECT_TRUE(IsFinding(CaseClass::kUnexpectedFault));
  EXPECT_FALSE(IsFinding(CaseClass::kKnownFault));
}

// A case record carries each class as the outcome of the same word, which
// the store and the exports keep.
TEST(CaseJudgeTest, EveryClassIsTheOutcomeOfItsWord) {
  const std::pair<CaseClass, absl::string_view> kWords[] = {
      {CaseClass::kPass, "pass"},
      {CaseClass::kMismatch, "mismatch"},
      {CaseClass::kExpectedFault, "expected_fault"},
      {CaseClass::kKnownFault, "known_fault"},
      {CaseClass::kUnexpectedFault, "unexpected_fault"},
      {CaseClass::kMissingFault, "missing_fault"},
      {CaseClass::kUndefinedRan, "undefined_ran"},
      {CaseClass::kUndefinedFaulted, "undefined_faulted"},
      {CaseClass::kLegalRejected, "legal_rejected"},
      {CaseClass::kIllegalRejected, "illegal_rejected"},
      {CaseClass::kIllegalAccepted, "illegal_accepted"},
      {CaseClass::kTimeout, "timeout"},
      {CaseClass::kUnsupported, "unsupported"},
  };
  static_assert(std::size(kWords) == static_cast<size_t>(CaseClass::kUnsupported) + 1);
  for (const auto& [kind, word] : kWords) EXPECT_EQ(CaseOutcomeWord(OutcomeOf(kind)), word) << CaseClassName(kind);
}

}  // namespace
}  // namespace matload
