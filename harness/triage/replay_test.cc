#include "harness/triage/replay.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(ReplayTest, AMismatchsKindDropsItsWordCountAndSlots) {
  EXPECT_EQ(FailureKind("mismatch/moved-128-words-87838a05"), "mismatch/moved");
  EXPECT_EQ(FailureKind("unexpected fault/cuCtxSynchronize: misaligned address (716)"),
            "unexpected fault/cuCtxSynchronize: misaligned address (716)");
  EXPECT_EQ(FailureKind("pass"), "pass");
}

TEST(ReplayTest, TheVerdictCountsRunsOfTheSameKind) {
  const ReplayTally tally{{{"mismatch/poison-64-words-1", 2}, {"mismatch/poison-32-words-2", 1}, {"pass", 1}}, 4};
  EXPECT_EQ(tally.Failures("mismatch/poison-64-words-1"), 2);
  EXPECT_EQ(tally.FailuresOfKind("mismatch/poison-9-words-3"), 3);
  EXPECT_EQ(tally.passes(), 1);
  EXPECT_EQ(tally.Verdict("mismatch/poison-64-words-1"), "flaky (3 of 4 runs fail so)");
  EXPECT_EQ(tally.Verdict("mismatch/moved-64-words-1"), "does not reproduce (0 of 4 runs fail so)");
  EXPECT_EQ((ReplayTally{{{"mismatch/moved-1-words-0", 3}}, 3}).Verdict("mismatch/moved-2-words-9"),
            "reproducible (3 of 3 runs fail so)");
}

}  // namespace
}  // namespace matload
