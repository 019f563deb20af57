#include "reference/legality.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/test_support.h"

namespace matload {
namespace {

using ::matload::testing::Codes;
using ::matload::testing::JudgeAt;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

TEST(LegalityTest, LegalVerdictCarriesTheCheckedInstruction) {
  Verdict verdict = JudgeAt("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {d0, d1}, [addr];", "sm_90");
  ASSERT_TRUE(verdict.legal());
  ASSERT_TRUE(verdict.checked().has_value());
  EXPECT_EQ(verdict.checked()->signature().destination_count, 2);
  EXPECT_EQ(verdict.checked()->signature().state_space, StateSpace::kShared);
  EXPECT_EQ(verdict.checked()->target().Name(), "sm_90");
}

TEST(LegalityTest, ReportsEveryReasonWithItsRule) {
  Verdict verdict = JudgeAt("ldmatrix.sync.aligned.m16n16.x1.b8 {d0}, [addr];", "sm_90");
  EXPECT_THAT(Codes(verdict), UnorderedElementsAre(ReasonCode::kQualifierCombination, ReasonCode::kTarget,
                                                   ReasonCode::kTarget, ReasonCode::kVectorLength));
  for (const Reason& reason : verdict.reasons()) {
    EXPECT_FALSE(reason.rule.id.empty());
    EXPECT_FALSE(reason.message.empty());
  }
  EXPECT_FALSE(verdict.checked().has_value());
}

TEST(LegalityTest, SyntaxErrorsAreIllegalNotFatal) {
  Verdict verdict = JudgeAt("ldmatrix.sync.aligned.m8n8.x1.b16 {d0}, [addr]", "sm_90");
  ASSERT_THAT(Codes(verdict), ElementsAre(ReasonCode::kSyntax));
  EXPECT_THAT(verdict.reasons()[0].message, HasSubstr("expected ';'"));
  EXPECT_THAT(Codes(JudgeAt("add.s32 a, b, c;", "sm_90")), ElementsAre(ReasonCode::kUnknownInstruction));
}

TEST(LegalityTest, ASnippetDeclaringTooMuchIsIllegalWithALimitReason) {
  std::string declarations = ".reg .b32 a0<4096>";
  for (int i = 1; i < 20; ++i) absl::StrAppend(&declarations, ", a", i, "<4096>");
  Verdict verdict = JudgeAt(absl::StrCat(declarations, "; ldmatrix.sync.aligned.m8n8.x1.b16 {a0}, [p];"), "sm_90");
  ASSERT_THAT(Codes(verdict), ElementsAre(ReasonCode::kLimit));
  EXPECT_EQ(verdict.reasons()[0].rule.id, "limit.declared-names");
  EXPECT_EQ(verdict.reasons()[0].rule.source, RuleSource::kHarnessLimit);
  EXPECT_THAT(verdict.reasons()[0].message, HasSubstr("declares more than 65536 names"));
  EXPECT_EQ(ReasonCodeName(ReasonCode::kLimit), "limit");
}

// A destination vector of 100,000 names against 65,536 declarations: each
// name is looked up once, so judging it is linear, not 6.5e9 comparisons.
TEST(LegalityTest, ALongVectorAgainstManyDeclarationsIsJudgedOnce) {
  std::string text = ".reg .b32 a0<4096>";
  for (int i = 1; i < 16; ++i) absl::StrAppend(&text, ", a", i, "<4096>");
  absl::StrAppend(&text, "; ldmatrix.sync.aligned.m8n8.x1.b16 {u0");
  for (int i = 1; i < 100000; ++i) absl::StrAppend(&text, ", u", i);
  absl::StrAppend(&text, "}, [p];");
  Verdict verdict = JudgeAt(text, "sm_90");
  EXPECT_THAT(Codes(verdict), ::testing::Contains(ReasonCode::kVectorLength));
  EXPECT_EQ(std::count_if(verdict.reasons().begin(), verdict.reasons().end(),
                          [](const Reason& reason) { return reason.code == ReasonCode::kUndeclaredName; }),
            100001);
}

TEST(LegalityTest, QualifierTokenReasons) {
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.x1.b16 {d}, [a];", "sm_90")),
              ElementsAre(ReasonCode::kDuplicateQualifier));
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.foo.b16 {d}, [a];", "sm_90")),
              ElementsAre(ReasonCode::kUnknownQualifier));
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.m8n8.x1.b16 {d}, [a];", "sm_90")),
              ElementsAre(ReasonCode::kMissingQualifier));
  EXPECT_THAT(Codes(JudgeAt("wmma.load.sync.a.aligned.row.m16n16k16.f16 {a,b,c,d,e,f,g,h}, [p];", "sm_90")),
              ElementsAre(ReasonCode::kMisplacedQualifier));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.sync.red.aligned.32x32b.x2.min.f32 {r,s}, v, [t];", "sm_103a")),
              ElementsAre(ReasonCode::kMisplacedQualifier));
  // Any other order is accepted, as ptxas does.
  EXPECT_TRUE(JudgeAt("ldmatrix.b16.aligned.sync.shared.m8n8.x1 {d}, [a];", "sm_90").legal());
}

TEST(LegalityTest, TargetMustExistInThePtxVersion) {
  EXPECT_THAT(Codes(JudgeAt("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];", "sm_90", "7.7")),
              ElementsAre(ReasonCode::kTargetNotInPtxVersion));
}

TEST(LegalityTest, DeclaredRegistersAreChecked) {
  const char* kDecls = ".reg .b64 addr; .reg .b32 d<2>; .reg .b16 h; .reg .f32 f; .shared .b8 tile[64]; "
                       ".global .b8 g[64]; .reg .pred p; ";
  auto judge = [&](std::string instruction) { return JudgeAt(kDecls + instruction, "sm_90"); };
  EXPECT_TRUE(judge("ldmatrix.sync.aligned.m8n8.x2.b16 {d0, d1}, [addr];").legal());
  EXPECT_TRUE(judge("ldmatrix.sync.aligned.m8n8.x2.b16 {d0, f}, [tile+32];").legal());
  EXPECT_THAT(Codes(judge("ldmatrix.sync.aligned.m8n8.x2.b16 {d0, x}, [ptr];")),
              ElementsAre(ReasonCode::kUndeclaredName, ReasonCode::kUndeclaredName));
  EXPECT_THAT(Codes(judge("ldmatrix.sync.aligned.m8n8.x2.b16 {d0, h}, [addr];")),
              ElementsAre(ReasonCode::kRegisterType));
  EXPECT_THAT(Codes(judge("ldmatrix.sync.aligned.m8n8.x2.b16 {d0, d1}, [f];")), ElementsAre(ReasonCode::kRegisterType));
  EXPECT_THAT(Codes(judge("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {d0, d1}, [g];")),
              ElementsAre(ReasonCode::kStateSpaceMismatch));
  EXPECT_THAT(Codes(judge("ldmatrix.sync.aligned.m8n8.x2.b16 {d0, d1}, [64];")), ElementsAre(ReasonCode::kAddressForm));
  EXPECT_THAT(Codes(judge("ldmatrix.sync.aligned.m8n8.x2.b16 {d0, 7}, [addr];")), ElementsAre(ReasonCode::kOperandKind));
  EXPECT_THAT(Codes(judge("ldmatrix.sync.aligned.m8n8.x1.b16 d0, [addr];")), ElementsAre(ReasonCode::kOperandKind));
  EXPECT_THAT(Codes(judge("ldmatrix.sync.aligned.m8n8.x1.b16 {d0}, [addr], 16;")),
              ElementsAre(ReasonCode::kOperandCount));
  EXPECT_TRUE(judge("@p ldmatrix.sync.aligned.m8n8.x1.b16 {d0}, [addr];").legal());
  EXPECT_THAT(Codes(judge("@d0 ldmatrix.sync.aligned.m8n8.x1.b16 {d0}, [addr];")),
              ElementsAre(ReasonCode::kRegisterType));
}

TEST(LegalityTest, WithoutDeclarationsRegistersHaveTheNeededTypes) {
  EXPECT_TRUE(JudgeAt("wmma.load.a.sync.aligned.row.m8n8k4.f64 {x0}, [ptr];", "sm_90").legal());
  EXPECT_THAT(Codes(JudgeAt(".reg .b32 x0; .reg .b64 ptr; wmma.load.a.sync.aligned.row.m8n8k4.f64 {x0}, [ptr];",
                            "sm_90")),
              ElementsAre(ReasonCode::kRegisterType));
}

// Without declarations, a name is declared as its first use needs, as the
// module a compiler is given declares it: a guard predicate reused as a
// destination register is a .pred destination. The CI's legality fuzz smoke
// of 2026-11-27 found the model calling that legal while ptxas rejects it.
TEST(LegalityTest, WithoutDeclarationsANameHasOneType) {
  EXPECT_THAT(Codes(JudgeAt("@r0 wmma.load.a.sync.aligned.row.m16n16k16.bf16 {r0, r1, r2, r3}, [a], 64;", "sm_90")),
              ElementsAre(ReasonCode::kRegisterType));
  EXPECT_TRUE(JudgeAt("ldmatrix.sync.aligned.m8n8.x2.b16 {r0, r1}, [r1];", "sm_90").legal())
      << "a .b32 data register is a valid address too";
}

TEST(LegalityTest, WmmaStrideOperand) {
  EXPECT_TRUE(JudgeAt("wmma.load.a.sync.aligned.row.m8n8k128.b1 {x}, [p], 128;", "sm_90").legal());
  EXPECT_TRUE(JudgeAt(".reg .b32 x; .reg .b64 p; .reg .s32 s; wmma.load.a.sync.aligned.row.m8n8k128.b1 {x}, [p], s;",
                      "sm_90")
                  .legal());
  EXPECT_THAT(Codes(JudgeAt(".reg .b32 x; .reg .b64 p; .reg .f32 s; "
                            "wmma.load.a.sync.aligned.row.m8n8k128.b1 {x}, [p], s;",
                            "sm_90")),
              ElementsAre(ReasonCode::kRegisterType));
  EXPECT_THAT(Codes(JudgeAt("wmma.load.a.sync.aligned.row.m8n8k128.b1 {x}, [p], 128, 128;", "sm_90")),
              ElementsAre(ReasonCode::kOperandCount));
}

}  // namespace
}  // namespace matload
