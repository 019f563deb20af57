#include "reference/linear_layout.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// The sm_75/sm_80 m16n16k16 accumulator layout, copied by hand from
// docs/spec-decisions.md wmma.layout.* (2nd source: wmma_extension): row = g + 8*((x>>1)&1),
// col = 2t + (x&1) + 8*((x>>2)&1), with g = lane>>2 and t = lane&3.
MatrixCoord AccumulatorFormula(int lane, int x) {
  const int g = lane >> 2;
  const int t = lane & 3;
  return {g + 8 * ((x >> 1) & 1), 2 * t + (x & 1) + 8 * ((x >> 2) & 1)};
}

TEST(LinearLayoutTest, FitsTheAccumulatorFormula) {
  absl::StatusOr<LinearLayout> layout = LinearLayout::Fit(8, AccumulatorFormula);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(layout->ToString(), "element (0,1) (8,0) (0,8); lane (0,2) (0,4) (1,0) (2,0) (4,0)");
  EXPECT_EQ(layout->elements(), 8);
  EXPECT_EQ(layout->At(31, 7), (MatrixCoord{15, 15}));
  EXPECT_EQ(layout->At(5, 2), (MatrixCoord{9, 2}));
}

TEST(LinearLayoutTest, ZeroBasisVectorsHoldDuplicates) {
  // docs/spec-decisions.md wmma.layout.*: the sm_80 f16 A fragment repeats elements 0..7 as 8..15.
  const LinearLayout layout({{0, 1}, {8, 0}, {0, 8}, {0, 0}}, {{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}});
  for (int lane = 0; lane < 32; ++lane) {
    for (int x = 0; x < 8; ++x) EXPECT_EQ(layout.At(lane, x), layout.At(lane, x + 8));
  }
}

TEST(LinearLayoutTest, RejectsANonLinearMap) {
  absl::StatusOr<LinearLayout> layout =
      LinearLayout::Fit(2, [](int lane, int x) { return MatrixCoord{lane == 3 ? 7 : lane, x}; });
  ASSERT_FALSE(layout.ok());
  EXPECT_EQ(layout.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(layout.status().message(), HasSubstr("lane 3 element 0 holds (7,0), the basis gives (3,0)"));
}

TEST(LinearLayoutTest, RejectsAnOffsetOrigin) {
  absl::StatusOr<LinearLayout> layout = LinearLayout::Fit(1, [](int lane, int) { return MatrixCoord{lane + 1, 0}; });
  ASSERT_FALSE(layout.ok());
  EXPECT_THAT(layout.status().message(), HasSubstr("lane 0 element 0 holds (1,0)"));
}

TEST(LinearLayoutTest, RejectsAnElementCountThatIsNotAPowerOfTwo) {
  absl::StatusOr<LinearLayout> layout = LinearLayout::Fit(6, AccumulatorFormula);
  EXPECT_EQ(layout.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
