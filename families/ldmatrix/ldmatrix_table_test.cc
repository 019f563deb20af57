// Hand-copied checks of the ldmatrix table against PTX 9.0 9.7.14.5.15 and,
// for .s8.s4, PTX 9.4 9.7.16.5.15.
#include "families/ldmatrix/ldmatrix_table.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/test_support.h"

namespace matload {
namespace {

using ::matload::testing::Codes;
using ::matload::testing::JudgeAt;
using ::matload::testing::RegisterCount;
using ::testing::Contains;
using ::testing::ElementsAre;

// "consisting of 1, 2, or 4 32-bit registers as per the value of .num"; for
// 16x16 "two destination registers r0 and r1" per matrix; for 8x16 one.
TEST(LdmatrixTableTest, RegisterCountsFromTheSpec) {
  EXPECT_EQ(RegisterCount("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];"), 1);
  EXPECT_EQ(RegisterCount("ldmatrix.sync.aligned.m8n8.x2.b16 {a}, [p];"), 2);
  EXPECT_EQ(RegisterCount("ldmatrix.sync.aligned.m8n8.x4.b16 {a}, [p];"), 4);
  EXPECT_EQ(RegisterCount("ldmatrix.sync.aligned.m16n16.x1.trans.b8 {a}, [p];"), 2);
  EXPECT_EQ(RegisterCount("ldmatrix.sync.aligned.m16n16.x2.trans.b8 {a}, [p];"), 4);
  EXPECT_EQ(RegisterCount("ldmatrix.sync.aligned.m8n16.x1.b8x16.b6x16_p32 {a}, [p];"), 1);
  EXPECT_EQ(RegisterCount("ldmatrix.sync.aligned.m8n16.x4.b8x16.b4x16_p64 {a}, [p];"), 4);
}

TEST(LdmatrixTableTest, M16n16RulesFromTheDescription) {
  // "When .shape is .m16n16, only .x1 and .x2 are valid values for .num."
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m16n16.x4.trans.b8 {a,b,c,d,e,f,g,h}, [p];", "sm_100a")),
              Contains(ReasonCode::kQualifierCombination));
  // "for 16x16 matrices, .trans is mandatory."
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m16n16.x1.b8 {a, b}, [p];", "sm_100a")),
              ElementsAre(ReasonCode::kQualifierCombination));
  // The .m8n16 syntax line has no {.trans}.
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n16.x1.trans.b8x16.b6x16_p32 {a}, [p];", "sm_100a")),
              ElementsAre(ReasonCode::kQualifierCombination));
}

TEST(LdmatrixTableTest, VersionNotesFromTheSpec) {
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];", "sm_75", "6.4")),
              Contains(ReasonCode::kPtxVersion));
  EXPECT_TRUE(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];", "sm_75", "6.5").legal());
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {a}, [p];", "sm_90", "7.8")),
              ElementsAre());
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {a}, [p];", "sm_80", "7.7")),
              ElementsAre(ReasonCode::kPtxVersion));
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m16n16.x1.trans.b8 {a, b}, [p];", "sm_100a", "8.5")),
              Contains(ReasonCode::kPtxVersion));
  // "Support for .src_fmt, .dst_fmt qualifiers introduced in PTX ISA
  // version 8.6": each one, written without the other too; and .s8 as .s4.
  EXPECT_THAT(
      Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.b16.b6x16_p32 {a}, [p];", "sm_90", "7.8")),
      ElementsAre(ReasonCode::kQualifierCombination, ReasonCode::kQualifierCombination, ReasonCode::kPtxVersion));
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.b16.b6x16_p32 {a}, [p];", "sm_90", "8.6")),
              ElementsAre(ReasonCode::kQualifierCombination, ReasonCode::kQualifierCombination));
  const Verdict pair = JudgeAt("ldmatrix.sync.aligned.m8n16.x1.b8x16.b6x16_p32 {a}, [p];", "sm_100a", "8.5");
  EXPECT_EQ(std::count_if(pair.reasons().begin(), pair.reasons().end(),
                          [](const Reason& reason) { return absl::StartsWith(reason.message, ".dst_fmt/.src_fmt"); }),
            1)
      << "the pair is one feature, one reason";
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n16.x1.s8 {a}, [p];", "sm_90a", "9.3")),
              Contains(ReasonCode::kPtxVersion));
}

TEST(LdmatrixTableTest, TargetNotesFromTheSpec) {
  const char* kNewShape = "ldmatrix.sync.aligned.m16n16.x1.trans.b8 {a, b}, [p];";
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];", "sm_72", "6.5")),
              Contains(ReasonCode::kTarget));
  for (const char* target : {"sm_100a", "sm_110a", "sm_120a", "sm_100f", "sm_103a", "sm_103f", "sm_110f", "sm_120f",
                             "sm_121a", "sm_121f"}) {
    EXPECT_TRUE(JudgeAt(kNewShape, target).legal()) << target;
  }
  for (const char* target : {"sm_90", "sm_90a", "sm_100", "sm_103", "sm_120", "sm_121"}) {
    EXPECT_THAT(Codes(JudgeAt(kNewShape, target)), Contains(ReasonCode::kTarget)) << target;
  }
  // Family-specific support starts at PTX ISA 8.8; sm_101a is the 8.x name of sm_110a.
  EXPECT_TRUE(JudgeAt(kNewShape, "sm_101a", "8.6").legal());
  EXPECT_TRUE(JudgeAt(kNewShape, "sm_120a", "8.7").legal());
  EXPECT_TRUE(JudgeAt(kNewShape, "sm_103a", "8.8").legal());
}

TEST(LdmatrixTableTest, FormatsArePairsInOrder) {
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n16.x1.b8x16 {a}, [p];", "sm_100a")),
              Contains(ReasonCode::kQualifierCombination));
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n16.x1.b6x16_p32.b8x16 {a}, [p];", "sm_100a")),
              ElementsAre(ReasonCode::kMisplacedQualifier));
  EXPECT_TRUE(JudgeAt("ldmatrix.sync.aligned.m8n16.b8x16.x1.b6x16_p32 {a}, [p];", "sm_100a").legal());
}

// PTX 9.4: "ldmatrix.sync.aligned.m8n16.num{.ss}.dtype.ctype r, [p];" with
// .dtype = { .s8 }, .ctype = { .s4 }; "Support for .s8.s4 types introduced
// in PTX ISA version 9.4"; "Types .s8.s4 are supported on ... sm_90a,
// sm_100f or higher in the same family, sm_110f ..., sm_120f ...".
TEST(LdmatrixTableTest, S8S4FromThePtx94Text) {
  const char* kS4 = "ldmatrix.sync.aligned.m8n16.x1.shared.s8.s4 {a}, [p];";
  EXPECT_TRUE(JudgeAt(kS4, "sm_90a", "9.4").legal());
  EXPECT_THAT(Codes(JudgeAt(kS4, "sm_90a", "9.3")), ElementsAre(ReasonCode::kPtxVersion));
  for (const char* target : {"sm_90a", "sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_107a", "sm_107f", "sm_110a",
                             "sm_110f", "sm_120a", "sm_120f", "sm_121a", "sm_121f"}) {
    EXPECT_TRUE(JudgeAt(kS4, target, "9.5").legal()) << target;
  }
  for (const char* target : {"sm_80", "sm_90", "sm_100", "sm_107", "sm_120"}) {
    EXPECT_THAT(Codes(JudgeAt(kS4, target, "9.4")), Contains(ReasonCode::kTarget)) << target;
  }
  // Only .m8n16, no .trans, and the types in the syntax's order.
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.shared.s8.s4 {a}, [p];", "sm_90a", "9.4")),
              Contains(ReasonCode::kQualifierCombination));
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n16.x1.trans.shared.s8.s4 {a}, [p];", "sm_90a", "9.4")),
              ElementsAre(ReasonCode::kQualifierCombination));
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n16.x1.shared.s4.s8 {a}, [p];", "sm_90a", "9.4")),
              ElementsAre(ReasonCode::kMisplacedQualifier));
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.s8.s4 {a}, [p];", "sm_100a", "9.4")),
              Contains(ReasonCode::kQualifierCombination));
  EXPECT_EQ(RegisterCount("ldmatrix.sync.aligned.m8n16.x4.shared.s8.s4 {a}, [p];"), 4);
}

// The forms per (PTX version, target), counted by hand: sm_90a gains the 9
// .s8.s4 forms (.x1/.x2/.x4 by {none, .shared, .shared::cta}) at 9.4; sm_90
// has the 18 .m8n8 forms (3 .num x {.trans or not} x 3 spaces) throughout.
TEST(LdmatrixTableTest, FormCountsPerVersionAndTarget) {
  auto count = [](const char* target, PtxVersion ptx) {
    return LegalQualifierSets(ldmatrix::Spec(), ptx, *ParseTarget(target)).size();
  };
  EXPECT_EQ(count("sm_90", {9, 3}), 18u);
  EXPECT_EQ(count("sm_90", {9, 5}), 18u);
  EXPECT_EQ(count("sm_90a", {9, 3}), 18u);
  EXPECT_EQ(count("sm_90a", {9, 4}), 18u + 9u);
  EXPECT_EQ(count("sm_100a", {9, 4}) - count("sm_100a", {9, 3}), 9u);
  EXPECT_EQ(count("sm_107a", {9, 4}), count("sm_103a", {9, 4}));
}

}  // namespace
}  // namespace matload
