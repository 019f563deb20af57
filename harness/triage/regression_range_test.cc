#include "harness/triage/regression_range.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

constexpr ReleaseState P = ReleaseState::kPasses;
constexpr ReleaseState F = ReleaseState::kFails;
constexpr ReleaseState X = ReleaseState::kFlaky;
constexpr ReleaseState N = ReleaseState::kNotBuilt;

// Bisect runs the search over releases r0, r1, ... whose probes say `states`.
RegressionRange Bisect(const std::vector<ReleaseState>& states, std::vector<int>* probed = nullptr) {
  std::vector<std::string> names;
  for (size_t i = 0; i < states.size(); ++i) names.push_back("r" + std::to_string(i));
  absl::StatusOr<RegressionRange> range = FindRegressionRange(names, [&](int index) -> absl::StatusOr<ProbeResult> {
    if (probed != nullptr) probed->push_back(index);
    return ProbeResult{states[index], ""};
  });
  EXPECT_TRUE(range.ok()) << range.status();
  return *range;
}

TEST(RegressionRangeTest, FindsTheLastGoodAndTheFirstBadAfterCheckingTheEndpoints) {
  std::vector<int> probed;
  const RegressionRange range = Bisect({P, P, P, P, P, F, F, F}, &probed);
  ASSERT_TRUE(range.before.has_value() && range.after.has_value());
  EXPECT_EQ(*range.before, 4);
  EXPECT_EQ(*range.after, 5);
  EXPECT_TRUE(range.regression);
  EXPECT_EQ(range.verdict, "regressed between r4 (last good) and r5 (first bad)");
  ASSERT_GE(probed.size(), 2u);
  EXPECT_EQ(probed[0], 7) << "the bad end first";
  EXPECT_EQ(probed[1], 0) << "then the good end";
  EXPECT_LE(probed.size(), 5u) << "a bisection, not a sweep";
}

TEST(RegressionRangeTest, AFixIsTheLastBadAndTheFirstGood) {
  const RegressionRange range = Bisect({F, F, P});
  EXPECT_FALSE(range.regression);
  EXPECT_EQ(range.verdict, "fixed between r1 (last bad) and r2 (first good)");
}

TEST(RegressionRangeTest, ReleasesThatCannotBuildTheCaseAreSteppedOver) {
  const RegressionRange range = Bisect({N, P, N, N, F, N});
  EXPECT_EQ(*range.before, 1);
  EXPECT_EQ(*range.after, 4);
  EXPECT_THAT(range.verdict, HasSubstr("the releases between them cannot build the case"));
}

TEST(RegressionRangeTest, AFlakyStepStopsTheRangeInsteadOfMovingIt) {
  const RegressionRange range = Bisect({P, P, X, F, F});
  EXPECT_FALSE(range.before.has_value());
  EXPECT_THAT(range.verdict, HasSubstr("flaky on r2"));
}

TEST(RegressionRangeTest, AFlakyEndpointGivesNoRange) {
  const RegressionRange range = Bisect({X, P, F});
  EXPECT_FALSE(range.before.has_value());
  EXPECT_THAT(range.verdict, HasSubstr("flaky on r0, an endpoint"));
}

TEST(RegressionRangeTest, EndsThatAgreeAreNotBisected) {
  std::vector<int> probed;
  const RegressionRange range = Bisect({F, F, F, F}, &probed);
  EXPECT_FALSE(range.before.has_value());
  EXPECT_EQ(range.verdict, "fails on both ends, r0 and r3: no transition to bisect among the releases given");
  EXPECT_EQ(probed.size(), 2u);
}

TEST(RegressionRangeTest, NoReleaseThatBuildsItIsSaid) {
  EXPECT_EQ(Bisect({N, N}).verdict, "no release could build the case");
}

TEST(RegressionRangeTest, AProbesFailureEndsTheSearchWithIt) {
  const absl::StatusOr<RegressionRange> range = FindRegressionRange(
      {"r0", "r1"}, [](int) -> absl::StatusOr<ProbeResult> { return absl::UnavailableError("GPU lost"); });
  EXPECT_EQ(range.status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace matload
