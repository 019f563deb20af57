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

}  // namespace
}  // namespace matload
