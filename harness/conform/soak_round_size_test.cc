#include "harness/conform/soak_round_size.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

constexpr RoundSizing kSizing{.first = 1'000'000, .target = absl::Seconds(60), .most = 2'147'483'647};

// A round of 10^7 variants that took 30 s is followed by one of 2x10^7,
// which should take about the 60 s asked for.
TEST(SoakRoundSizeTest, ARoundIsScaledToTheTarget) {
  EXPECT_EQ(NextRoundVariants(kSizing, 10'000'000, absl::Seconds(30), absl::Hours(1)), 20'000'000);
  EXPECT_EQ(NextRoundVariants(kSizing, 10'000'000, absl::Seconds(120), absl::Hours(1)), 5'000'000);
}

// The first rounds are mostly fixed costs, so their time says little of
// the next: a round grows at most kMostRoundGrowth times.
TEST(SoakRoundSizeTest, ARoundGrowsAtMostTenfold) {
  EXPECT_EQ(NextRoundVariants(kSizing, 1'000'000, absl::Seconds(4), absl::Hours(1)), 10'000'000);
}

// A round never runs fewer than --round_variants, nor more than conform takes.
TEST(SoakRoundSizeTest, ARoundStaysWithinItsBounds) {
  EXPECT_EQ(NextRoundVariants(kSizing, 1'000'000, absl::Seconds(600), absl::Hours(1)), 1'000'000);
  EXPECT_EQ(NextRoundVariants(kSizing, 1'000'000'000, absl::Seconds(1), absl::Hours(1)), 2'147'483'647);
}

// Near the soak's end a round is sized to the time left, so that the soak
// ends close to its --minutes.
TEST(SoakRoundSizeTest, TheLastRoundsFitTheTimeLeft) {
  EXPECT_EQ(NextRoundVariants(kSizing, 20'000'000, absl::Seconds(60), absl::Seconds(15)), 5'000'000);
  EXPECT_EQ(NextRoundVariants(kSizing, 20'000'000, absl::Seconds(60), absl::ZeroDuration()), 1'000'000);
}

// --round_seconds 0 keeps every round at --round_variants.
TEST(SoakRoundSizeTest, NoTargetKeepsTheFirstSize) {
  RoundSizing fixed = kSizing;
  fixed.target = absl::ZeroDuration();
  EXPECT_EQ(NextRoundVariants(fixed, 1'000'000, absl::Seconds(1), absl::Hours(1)), 1'000'000);
}

}  // namespace
}  // namespace matload
