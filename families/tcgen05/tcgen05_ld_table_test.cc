// Hand-copied checks of the tcgen05.ld table against PTX 9.0 9.7.16.8.3 and
// PTX 9.4 9.7.18.8.3 (.spcompress).
#include "families/tcgen05/tcgen05_ld_table.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/test_support.h"

namespace matload {
namespace {

using ::matload::testing::Codes;
using ::matload::testing::JudgeAt;
using ::matload::testing::RegisterCount;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::Each;
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

// The legal qualifier sets per PTX version and target, counted by hand from
// the Syntax, Table 49, Table 60 and the Target ISA Notes:
//  - tcgen05.ld: Table 49 has 37 cells (8 .num of .16x32bx2, .16x64b and
//    .32x32b, 7 of .16x128b, 6 of .16x256b), each with and without
//    .pack::16b: 74;
//  - tcgen05.ld.red: .32x32b and .16x32bx2, 7 .num (.x2 up), 2 .redOp, and
//    .u32, .s32 or .f32 with or without .abs and .NaN (6): 168;
//  - tcgen05.ld{.red}.spcompress (PTX 9.4, sm_107a): 6 .num (.x4 up) x
//    2 .rowop x .abs or not, 24, and with .red x .NaN or not, 48: 72.
TEST(Tcgen05LdTableTest, FormCountsPerVersionAndTarget) {
  const auto count = [](const char* ptx, const char* target) {
    return LegalQualifierSets(tcgen05::Spec(), *ParsePtxVersion(ptx), *ParseTarget(target)).size();
  };
  EXPECT_EQ(count("9.0", "sm_100a"), 74u);
  EXPECT_EQ(count("9.0", "sm_103a"), 74u + 168u);
  EXPECT_EQ(count("9.3", "sm_103a"), 74u + 168u);
  EXPECT_EQ(count("9.4", "sm_103a"), 74u + 168u) << ".spcompress is sm_107a's alone";
  EXPECT_EQ(count("9.4", "sm_107a"), 74u + 168u + 72u);
  EXPECT_EQ(count("9.5", "sm_107a"), 74u + 168u + 72u);
  EXPECT_EQ(count("9.5", "sm_107f"), 74u + 168u) << "sm_107f is in the sm_10x family; .spcompress is not";
  EXPECT_EQ(count("9.5", "sm_100a"), 74u);
  EXPECT_EQ(count("9.5", "sm_110a"), 74u + 168u);
  EXPECT_EQ(count("9.5", "sm_107"), 0u);
  EXPECT_EQ(count("9.5", "sm_120a"), 0u);
}

// Table 60: mdata holds ceil(num / 32) registers and cdata num / 2.
TEST(Tcgen05LdTableTest, Table60FromTheSpec) {
  const int kNums[] = {4, 8, 16, 32, 64, 128};
  const int kMdata[] = {1, 1, 1, 1, 2, 4};
  for (int i = 0; i < 6; ++i) {
    const std::optional<OperandSignature> signature = tcgen05::Spec().Signature(
        DecodeQualifiers(tcgen05::Spec(), {"tcgen05", "ld", "spcompress", "sync", "aligned", "32x32b",
                                           absl::StrCat("x", kNums[i]), "max", "sp::2:4", "f32", "b2"})
            .qualifiers);
    ASSERT_TRUE(signature.has_value()) << kNums[i];
    EXPECT_EQ(signature->metadata_count, kMdata[i]) << kNums[i];
    EXPECT_EQ(signature->destination_count, kNums[i] / 2) << kNums[i];
  }
}

// Spcompress spells a tcgen05.ld.spcompress of .32x32b.x8 with `qualifiers`
// after .num and the operands Table 60 asks for.
std::string Spcompress(absl::string_view qualifiers, absl::string_view redval = "") {
  return absl::StrCat("tcgen05.ld", redval.empty() ? "" : ".red", ".spcompress.sync.aligned.32x32b.x8.", qualifiers,
                      " {m}, {c0, c1, c2, c3}", redval.empty() ? "" : ", ", redval, ", [t];");
}

TEST(Tcgen05LdTableTest, SpcompressRulesFromTheSpec) {
  // The example, and both forms with every optional qualifier.
  EXPECT_TRUE(JudgeAt("tcgen05.ld.red.spcompress.sync.aligned.32x32b.x32.max.sp::2:4.abs.f32.b2 {mdata_0}, {r0, r1, "
                      "r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15}, redval, [taddr];",
                      "sm_107a", "9.4")
                  .legal());
  EXPECT_TRUE(JudgeAt(Spcompress("min.sp::2:4.abs.f32.b2"), "sm_107a", "9.4").legal());
  EXPECT_TRUE(JudgeAt(Spcompress("min.sp::2:4.abs.NaN.f32.b2", "v"), "sm_107a", "9.4").legal());
  // .NaN is for .red.spcompress; .32x32b only; no .pack::16b; .f32 only.
  EXPECT_THAT(Codes(JudgeAt(Spcompress("min.sp::2:4.NaN.f32.b2"), "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kQualifierCombination));
  EXPECT_THAT(
      Codes(JudgeAt(absl::StrReplaceAll(Spcompress("min.sp::2:4.f32.b2"), {{"32x32b", "16x64b"}}), "sm_107a", "9.4")),
      ElementsAre(ReasonCode::kQualifierCombination));
  EXPECT_THAT(Codes(JudgeAt(Spcompress("pack::16b.min.sp::2:4.f32.b2"), "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kQualifierCombination));
  EXPECT_THAT(Codes(JudgeAt(Spcompress("min.sp::2:4.u32.b2", "v"), "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kQualifierCombination));
  // .rowop, .sp::2:4 and .b2 are required; .sp::2:4 and .b2 need .spcompress.
  EXPECT_THAT(Codes(JudgeAt(Spcompress("sp::2:4.f32.b2"), "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kMissingQualifier));
  EXPECT_THAT(Codes(JudgeAt(Spcompress("min.f32.b2"), "sm_107a", "9.4")), ElementsAre(ReasonCode::kMissingQualifier));
  EXPECT_THAT(Codes(JudgeAt(Spcompress("min.sp::2:4.f32"), "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kMissingQualifier));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.sync.aligned.32x32b.x2.b32.b2 {r, s}, [t];", "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kQualifierCombination));
  // .num starts at .x4 (and Table 60 has no row below it).
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.spcompress.sync.aligned.32x32b.x2.min.sp::2:4.f32.b2 {m}, {c}, [t];", "sm_107a",
                            "9.4")),
              Contains(ReasonCode::kQualifierCombination));
  // Measured order (tcgen05.ld.spcompress-order): .spcompress right after
  // tcgen05.ld{.red}, .b2 after .f32; anything else in any order.
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.sync.spcompress.aligned.32x32b.x8.min.sp::2:4.f32.b2 {m}, {c0, c1, c2, c3}, "
                            "[t];",
                            "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kMisplacedQualifier));
  EXPECT_THAT(Codes(JudgeAt(Spcompress("min.sp::2:4.b2.f32"), "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kMisplacedQualifier));
  EXPECT_TRUE(JudgeAt("tcgen05.ld.spcompress.f32.sp::2:4.x8.b2.min.aligned.32x32b.sync {m}, {c0, c1, c2, c3}, [t];",
                      "sm_107a", "9.4")
                  .legal());
}

// Table 60 sizes both vectors; mdata comes first, redval after cdata.
TEST(Tcgen05LdTableTest, SpcompressOperandsFromTheSpec) {
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.spcompress.sync.aligned.32x32b.x8.min.sp::2:4.f32.b2 {m, n}, {c0, c1, c2, "
                            "c3}, [t];",
                            "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kVectorLength));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.spcompress.sync.aligned.32x32b.x8.min.sp::2:4.f32.b2 {m}, {c0, c1, c2, c3, "
                            "c4, c5, c6, c7}, [t];",
                            "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kVectorLength));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.spcompress.sync.aligned.32x32b.x8.min.sp::2:4.f32.b2 m, {c0, c1, c2, c3}, "
                            "[t];",
                            "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kOperandKind));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.spcompress.sync.aligned.32x32b.x8.min.sp::2:4.f32.b2 {c0, c1, c2, c3}, [t];",
                            "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kOperandCount));
  EXPECT_THAT(Codes(JudgeAt("tcgen05.ld.spcompress.sync.aligned.32x32b.x8.min.sp::2:4.f32.b2 {m}, {c0, c1, c2, c3}, v, "
                            "[t];",
                            "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kOperandCount))
      << "redval belongs to .red";
  EXPECT_THAT(Codes(JudgeAt(".reg .b32 m, c<4>, t; .reg .b64 d; tcgen05.ld.spcompress.sync.aligned.32x32b.x8.min.sp::"
                            "2:4.f32.b2 {d}, {c0, c1, c2, c3}, [t];",
                            "sm_107a", "9.4")),
              ElementsAre(ReasonCode::kRegisterType));
}

// tcgen05.ld{.red}.spcompress: PTX 9.4, sm_107a only (Target ISA Notes);
// ptxas 13.4.92 and 13.5.37 agree (reports/spec-measurements/tcgen05-spcompress).
TEST(Tcgen05LdTableTest, SpcompressTargetNotesFromTheSpec) {
  for (const char* red : {"", "v"}) {
    const std::string load = Spcompress("max.sp::2:4.f32.b2", red);
    EXPECT_TRUE(JudgeAt(load, "sm_107a", "9.5").legal()) << load;
    for (const char* target : {"sm_107f", "sm_103a", "sm_110a", "sm_110f"}) {
      EXPECT_THAT(Codes(JudgeAt(load, target, "9.5")), ElementsAre(ReasonCode::kTarget)) << target << " " << load;
    }
    // sm_100a and sm_100f have no tcgen05.ld.red either.
    for (const char* target : {"sm_100a", "sm_100f"}) {
      EXPECT_THAT(Codes(JudgeAt(load, target, "9.5")), AllOf(Contains(ReasonCode::kTarget), Each(ReasonCode::kTarget)))
          << target << " " << load;
    }
    EXPECT_THAT(Codes(JudgeAt(load, "sm_103a", "9.3")), ElementsAre(ReasonCode::kPtxVersion, ReasonCode::kTarget))
        << load;
  }
}

// .sp::2:4 is PTX 9.4's even on a tcgen05.ld without .spcompress, where it
// does not belong: before 9.4 the version lacks it (ptxas 12.8.93 to 13.3.73
// call it an unknown modifier; 13.4.92 says it requires 9.4).
TEST(Tcgen05LdTableTest, SpfactorIsAsNewAsSpcompress) {
  const std::string load = "tcgen05.ld.sync.aligned.16x64b.x1.sp::2:4.b32 {r}, [t];";
  EXPECT_THAT(Codes(JudgeAt(load, "sm_100a", "8.7")),
              ElementsAre(ReasonCode::kQualifierCombination, ReasonCode::kPtxVersion));
  EXPECT_THAT(Codes(JudgeAt(load, "sm_100a", "9.4")), ElementsAre(ReasonCode::kQualifierCombination));
}

}  // namespace
}  // namespace matload
