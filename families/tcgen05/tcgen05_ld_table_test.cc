// Hand-copied checks of the tcgen05.ld table against PTX 9.0 9.7.16.8.3.
#include "families/tcgen05/tcgen05_ld_table.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/test_support.h"

namespace matload {
namespace {

using ::matload::testing::Codes;
using ::matload::testing::JudgeAt;
using ::matload::testing::RegisterCount;
using ::testing::Contains;
using ::testing::ElementsAre;

// Table 49, copied cell by cell; 0 stands for "NA".
TEST(Tcgen05LdTableTest, Table49FromTheSpec) {
  const char* kNums[] = {"x1", "x2", "x4", "x8", "x16", "x32", "x64", "x128"};
  const int kTable49[8][3] = {{1, 2, 4},    {2, 4, 8},    {4, 8, 16},  {8, 16, 32},
                              {16, 32, 64}, {32, 64, 128}, {64, 128, 0}, {128, 0, 0}};
  for (int row = 0; row < 8; ++row) {
    for (const char* shape : {"16x32bx2", "16x64b", "32x32b"}) {
      EXPECT_EQ(RegisterCount(absl::StrCat("tcgen05.ld.sync.aligned.", shape, ".", kNums[row], ".b32 {r}, [t];")),
                kTable49[row][0])
          << shape << " " << kNums[row];
    }
    const int expected_128b = kTable49[row][1] == 0 ? -1 : kTable49[row][1];
    const int expected_256b = kTable49[row][2] == 0 ? -1 : kTable49[row][2];
    EXPECT_EQ(RegisterCount(absl::StrCat("tcgen05.ld.sync.aligned.16x128b.", kNums[row], ".b32 {r}, [t];")),
              expected_128b)
        << kNums[row];
    EXPECT_EQ(RegisterCount(absl::StrCat("tcgen05.ld.sync.aligned.16x256b.", kNums[row], ".b32 {r}, [t];")),
              expected_256b)
        << kNums[row];
  }
}

TEST(Tcgen05LdTableTest, ExamplesFromTheSpecAreLegal) {
  EXPECT_TRUE(JudgeAt("tcgen05.ld.sync.aligned.32x32b.x2.b32 {r0, r1}, [taddr1];", "sm_100a").legal());
  EXPECT_TRUE(JudgeAt("tcgen05.ld.sync.aligned.16x128b.x4.b32 {r0, r1, r2, r3, r4, r5, r6, r7}, [taddr2];", "sm_100a")
                  .legal());
  EXPECT_TRUE(JudgeAt("tcgen05.ld.red.sync.aligned.16x32bx2.x8.u32.max {r0, r1, r2, r3, r4, r5, r6, r7}, redVal, "
                      "[taddr3], 16;",
                      "sm_103a")
                  .legal());
}

TEST(Tcgen05LdTableTest, ReductionRulesFromTheSpec) {
  // "When .red qualifier is specified, .num modifier must be at least .x2."
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.red.sync.aligned.32x32b.x1.min.f32 {r}, v, [t];", "sm_103a")),
              ElementsAre(ReasonCode::kQualifierCombination));
  // .red takes .shape3 and .shape4 only; .abs and .NaN only with .f32.
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.red.sync.aligned.16x64b.x2.min.f32 {r, s}, v, [t];", "sm_103a")),
              ElementsAre(ReasonCode::kQualifierCombination));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.red.sync.aligned.32x32b.x2.min.abs.s32 {r, s}, v, [t];", "sm_103a")),
              ElementsAre(ReasonCode::kQualifierCombination));
  EXPECT_TRUE(JudgeAt("tcgen05.ld.red.sync.aligned.32x32b.x2.max.abs.NaN.f32 {r, s}, v, [t];", "sm_103a").legal());
  // No reduction operator, or no redval operand.
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.red.sync.aligned.32x32b.x2.f32 {r, s}, v, [t];", "sm_103a")),
              ElementsAre(ReasonCode::kMissingQualifier));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {r, s}, [t];", "sm_103a")),
              ElementsAre(ReasonCode::kOperandCount));
}

TEST(Tcgen05LdTableTest, HalfSplitOffsetBelongsToTheTwoAccessShape) {
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {r}, [t];", "sm_100a")),
              ElementsAre(ReasonCode::kOperandCount));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t], 16;", "sm_100a")),
              ElementsAre(ReasonCode::kOperandCount));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {r}, [t], t;", "sm_100a")),
              ElementsAre(ReasonCode::kOperandKind));
}

TEST(Tcgen05LdTableTest, TargetNotesFromTheSpec) {
  const char* kLoad = "tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t];";
  for (const char* target : {"sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f"}) {
    EXPECT_TRUE(JudgeAt(kLoad, target).legal()) << target;
  }
  for (const char* target : {"sm_90a", "sm_100", "sm_103", "sm_110", "sm_120a", "sm_120f", "sm_121a"}) {
    EXPECT_THAT(Codes(JudgeAt(kLoad, target)), ElementsAre(ReasonCode::kTarget)) << target;
  }
  EXPECT_TRUE(JudgeAt(kLoad, "sm_101a", "8.6").legal());
  EXPECT_THAT(Codes(JudgeAt(kLoad, "sm_100f", "8.6")), Contains(ReasonCode::kTargetNotInPtxVersion));
  // tcgen05.ld.red: sm_101a/sm_110a and the 101f, 103f and 110f families, never sm_100a/f.
  const char* kRed = "tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {r, s}, v, [t];";
  for (const char* target : {"sm_103a", "sm_103f", "sm_110a", "sm_110f"}) {
    EXPECT_TRUE(JudgeAt(kRed, target).legal()) << target;
  }
  for (const char* target : {"sm_100a", "sm_100f"}) {
    EXPECT_THAT(Codes(JudgeAt(kRed, target)), ElementsAre(ReasonCode::kTarget)) << target;
  }
  EXPECT_THAT(Codes(JudgeAt(kRed, "sm_103a", "8.7")), Contains(ReasonCode::kPtxVersion));
}

}  // namespace
}  // namespace matload
