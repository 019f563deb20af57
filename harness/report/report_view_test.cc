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

// A double is written whole where it is an int64, and as %g writes it
// elsewhere: casting 1e300 to an integer was undefined.
TEST(ThousandsTest, WholeThousandsWritesEveryDouble) {
  EXPECT_EQ(WholeThousands(8694.9), "8,694");
  EXPECT_EQ(WholeThousands(-0.5), "0");
  EXPECT_EQ(WholeThousands(1e300), "1e+300");
  EXPECT_EQ(WholeThousands(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(WholeThousands(std::numeric_limits<double>::quiet_NaN()), "nan");
}

}  // namespace
}  // namespace matload
