#include "harness/platform/seconds_since.h"

#include <chrono>

#include "gtest/gtest.h"

namespace matload {
namespace {

// An instant a minute ago is about sixty seconds back, and one in the
// future is a negative time.
TEST(SecondsSinceTest, CountsSecondsFromTheInstant) {
  const auto now = std::chrono::steady_clock::now();
  EXPECT_GE(SecondsSince(now - std::chrono::minutes(1)), 60.0);
  EXPECT_LT(SecondsSince(now - std::chrono::minutes(1)), 120.0);
  EXPECT_LT(SecondsSince(now + std::chrono::hours(1)), 0.0);
}

// A limit is up once that long has passed; without one, never.
TEST(SecondsSinceTest, HasElapsedOnlyPastALimit) {
  const auto a_minute_ago = std::chrono::steady_clock::now() - std::chrono::minutes(1);
  EXPECT_TRUE(HasElapsed(a_minute_ago, absl::Seconds(30)));
  EXPECT_FALSE(HasElapsed(a_minute_ago, absl::Hours(1)));
  EXPECT_FALSE(HasElapsed(a_minute_ago, std::nullopt));
}

}  // namespace
}  // namespace matload
