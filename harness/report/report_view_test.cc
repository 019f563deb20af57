#include "harness/report/report_view.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(ThousandsTest, SeparatesEveryThreeDigits) {
  EXPECT_EQ(Thousands(0), "0");
  EXPECT_EQ(Thousands(999), "999");
  EXPECT_EQ(Thousands(18761), "18,761");
  EXPECT_EQ(Thousands(-1000), "-1,000");
  EXPECT_EQ(Thousands(-999), "-999");
}

// The most negative count has no positive counterpart: negating it was
// undefined behaviour, and wrote "--9,223,...".
TEST(ThousandsTest, WritesEveryInt64) {
  EXPECT_EQ(Thousands(std::numeric_limits<std::int64_t>::max()), "9,223,372,036,854,775,807");
  EXPECT_EQ(Thousands(std::numeric_limits<std::int64_t>::min()), "-9,223,372,036,854,775,808");
}

}  // namespace
}  // namespace matload
