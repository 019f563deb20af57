#include "harness/platform/split_mix64.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

// The first outputs for seed 1234567, as published with the reference
// implementation (prng.di.unimi.it/splitmix64.c) and quoted widely since.
TEST(SplitMix64Test, MatchesTheReferenceSequence) {
  SplitMix64 random(1234567);
  EXPECT_EQ(random.Next(), 6457827717110365317u);
  EXPECT_EQ(random.Next(), 3203168211198807973u);
  EXPECT_EQ(random.Next(), 9817491932198370423u);
}

// Output k of a generator seeded with s is the finaliser at s + (k+1) * gamma,
// which is how DataWord reads word k of a stream without a generator.
TEST(SplitMix64Test, OutputKIsTheFinaliserAtTheKthState) {
  SplitMix64 random(42);
  for (std::uint64_t k = 0; k < 5; ++k) EXPECT_EQ(random.Next(), SplitMix64Output(42 + (k + 1) * kSplitMix64Gamma));
}

TEST(SplitMix64Test, BelowStaysBelowTheBoundAndReachesEveryValue) {
  SplitMix64 random(7);
  bool seen[5] = {};
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t value = random.Below(5);
    ASSERT_LT(value, 5u);
    seen[value] = true;
  }
  for (bool value_seen : seen) EXPECT_TRUE(value_seen);
}

}  // namespace
}  // namespace matload
