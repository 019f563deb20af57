// Hand-copied checks of the wmma.load table against PTX 9.0 9.7.14.4.
#include "families/wmma/wmma_load_table.h"

#include <string>

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

int Count(absl::string_view matrix, absl::string_view layout, absl::string_view shape, absl::string_view type) {
  return RegisterCount(absl::StrCat("wmma.load.", matrix, ".sync.aligned.", layout, ".", shape, ".", type,
                                    " {x}, [p];"));
}

// The register table of PTX 9.7.14.4.1, copied row by row.
TEST(WmmaLoadTableTest, FragmentRegisterCountsFromTheSpec) {
  for (const char* shape : {"m16n16k16", "m8n32k16", "m32n8k16"}) {
    EXPECT_EQ(Count("a", "row", shape, "f16"), 8) << shape;
    EXPECT_EQ(Count("b", "col", shape, "f16"), 8) << shape;
    EXPECT_EQ(Count("c", "row", shape, "f16"), 4) << shape;
    EXPECT_EQ(Count("c", "col", shape, "f32"), 8) << shape;
    EXPECT_EQ(Count("c", "row", shape, "s32"), 8) << shape;
  }
  EXPECT_EQ(Count("a", "row", "m16n16k16", "s8"), 2);
  EXPECT_EQ(Count("b", "row", "m16n16k16", "u8"), 2);
  EXPECT_EQ(Count("a", "row", "m8n32k16", "s8"), 1);
  EXPECT_EQ(Count("b", "row", "m8n32k16", "s8"), 4);
  EXPECT_EQ(Count("a", "row", "m32n8k16", "u8"), 4);
  EXPECT_EQ(Count("b", "row", "m32n8k16", "u8"), 1);
  EXPECT_EQ(Count("a", "row", "m16n16k16", "bf16"), 4);
  EXPECT_EQ(Count("b", "col", "m16n16k16", "bf16"), 4);
  EXPECT_EQ(Count("a", "row", "m8n32k16", "bf16"), 2);
  EXPECT_EQ(Count("b", "row", "m8n32k16", "bf16"), 8);
  EXPECT_EQ(Count("a", "row", "m32n8k16", "bf16"), 8);
  EXPECT_EQ(Count("b", "row", "m32n8k16", "bf16"), 2);
  EXPECT_EQ(Count("a", "row", "m16n16k8", "tf32"), 4);
  EXPECT_EQ(Count("b", "row", "m16n16k8", "tf32"), 4);
  EXPECT_EQ(Count("c", "row", "m16n16k8", "f32"), 8);
  EXPECT_EQ(Count("a", "row", "m8n8k4", "f64"), 1);
  EXPECT_EQ(Count("b", "col", "m8n8k4", "f64"), 1);
  EXPECT_EQ(Count("a", "row", "m8n8k32", "s4"), 1);
  EXPECT_EQ(Count("b", "col", "m8n8k32", "u4"), 1);
  EXPECT_EQ(Count("c", "row", "m8n8k32", "s32"), 2);
  EXPECT_EQ(Count("a", "row", "m8n8k128", "b1"), 1);
  EXPECT_EQ(Count("b", "col", "m8n8k128", "b1"), 1);
  EXPECT_EQ(Count("c", "col", "m8n8k128", "s32"), 2);
}

// The spec's table says 1 x .f64 for the m8n8k4 accumulator; its own
// wmma.mma examples, LLVM and ptxas use 2. The model follows ptxas and says so.
TEST(WmmaLoadTableTest, F64AccumulatorIsTwoRegistersAsMeasured) {
  EXPECT_EQ(Count("c", "row", "m8n8k4", "f64"), 2);
  Verdict verdict = JudgeAt(".reg .f64 c; .reg .b64 p; wmma.load.c.sync.aligned.row.m8n8k4.f64 {c}, [p];", "sm_90");
  ASSERT_THAT(Codes(verdict), ElementsAre(ReasonCode::kVectorLength));
  EXPECT_EQ(verdict.reasons()[0].rule.source, RuleSource::kMeasured);
}

TEST(WmmaLoadTableTest, ShapeTypeCombinationsOutsideTheTableAreIllegal) {
  EXPECT_EQ(Count("a", "row", "m16n16k8", "f16"), -1);
  EXPECT_EQ(Count("a", "row", "m16n16k16", "f32"), -1);
  EXPECT_EQ(Count("c", "row", "m16n16k16", "bf16"), -1);
  EXPECT_EQ(Count("a", "row", "m16n16k16", "tf32"), -1);
}

TEST(WmmaLoadTableTest, SubByteLayoutsFromTheSyntax) {
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.aligned.col.m8n8k32.s4 {x}, [p];", "sm_90")),
              ElementsAre(ReasonCode::kQualifierCombination));
  EXPECT_THAT(Codes(JudgeAt("wmma.load.b.sync.aligned.row.m8n8k128.b1 {x}, [p];", "sm_90")),
              ElementsAre(ReasonCode::kQualifierCombination));
  EXPECT_TRUE(JudgeAt("wmma.load.c.sync.aligned.col.m8n8k32.s32 {x, y}, [p];", "sm_90").legal());
}

TEST(WmmaLoadTableTest, VersionNotesFromTheSpec) {
  const char* kTall = "wmma.load.a.sync.aligned.row.m32n8k16.f16 {a,b,c,d,e,f,g,h}, [p];";
  EXPECT_TRUE(JudgeAt(kTall, "sm_75", "6.3").legal());
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.row.m32n8k16.f16 {a,b,c,d,e,f,g,h}, [p];", "sm_70", "6.0")),
              ElementsAre(ReasonCode::kPtxVersion));
  // .aligned is implicit below 6.3 and required from 6.3.
  EXPECT_TRUE(JudgeAt("wmma.load.a.sync.row.m16n16k16.f16 {a,b,c,d,e,f,g,h}, [p];", "sm_70", "6.0").legal());
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.aligned.row.m16n16k16.f16 {a,b,c,d,e,f,g,h}, [p];", "sm_70", "6.2")),
              ElementsAre(ReasonCode::kPtxVersion));
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.row.m16n16k16.f16 {a,b,c,d,e,f,g,h}, [p];", "sm_75", "6.3")),
              ElementsAre(ReasonCode::kMissingQualifier));
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.aligned.row.m16n16k16.bf16 {a,b,c,d}, [p];", "sm_80", "6.5")),
              Contains(ReasonCode::kPtxVersion));
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.aligned.row.m16n16k16.global::cta.f16 {a}, [p];", "sm_90")),
              Contains(ReasonCode::kUnknownQualifier));
}

TEST(WmmaLoadTableTest, TargetNotesFromTheSpec) {
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.aligned.row.m16n16k16.s8 {a,b}, [p];", "sm_70", "6.3")),
              ElementsAre(ReasonCode::kTarget));
  EXPECT_TRUE(JudgeAt("wmma.load.a.sync.aligned.row.m16n16k16.s8 {a,b}, [p];", "sm_72", "6.3").legal());
  EXPECT_THAT(Codes(JudgeAt("wmma.load.c.sync.aligned.row.m16n16k16.s32 {a,b,c,d,e,f,g,h}, [p];", "sm_70", "6.3")),
              ElementsAre(ReasonCode::kTarget));
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.aligned.row.m8n8k32.s4 {a}, [p];", "sm_72", "6.3")),
              ElementsAre(ReasonCode::kTarget));
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.aligned.row.m8n8k4.f64 {a}, [p];", "sm_75")),
              Contains(ReasonCode::kTarget));
  // No upper bound: baseline features hold on every later target, a and f too.
  EXPECT_TRUE(JudgeAt("wmma.load.a.sync.aligned.row.m8n8k4.f64 {a}, [p];", "sm_121f").legal());
}

}  // namespace
}  // namespace matload
