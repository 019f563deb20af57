#include "reference/runtime_ub.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "families/wmma/wmma_load_table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/test_support.h"

namespace matload {
namespace {

using ::matload::testing::JudgeAt;

std::vector<RuntimeHazard> Hazards(const std::vector<RuntimeCondition>& conditions) {
  std::vector<RuntimeHazard> hazards;
  for (const RuntimeCondition& condition : conditions) hazards.push_back(condition.hazard);
  return hazards;
}

std::vector<RuntimeCondition> ConditionsOf(absl::string_view text, absl::string_view target) {
  Verdict verdict = JudgeAt(text, target);
  EXPECT_TRUE(verdict.legal()) << text;
  return verdict.legal() ? RuntimeConditions(*verdict.checked()) : std::vector<RuntimeCondition>{};
}

// The default-stride table of PTX 9.7.14.4.2, copied by hand:
// {shape, A row, A col, B row, B col, C row, C col}.
TEST(RuntimeUbTest, WmmaDefaultStridesFromTheSpecTable) {
  struct Row {
    const char* shape;
    int a_row, a_col, b_row, b_col, c_row, c_col;
  };
  const Row kTable[] = {
      {"m16n16k16", 16, 16, 16, 16, 16, 16}, {"m8n32k16", 16, 8, 32, 16, 32, 8}, {"m32n8k16", 16, 32, 8, 16, 8, 32},
      {"m8n8k32", 32, 8, 8, 32, 8, 8},       {"m8n8k128", 128, 8, 8, 128, 8, 8}, {"m16n16k8", 8, 16, 16, 8, 16, 16},
      {"m8n8k4", 4, 8, 8, 4, 8, 8},
  };
  for (const Row& row : kTable) {
    const auto& spellings = wmma::Spec().axes[wmma::kShape].spellings;
    int shape = static_cast<int>(std::find(spellings.begin(), spellings.end(), absl::StrCat(".", row.shape)) -
                                 spellings.begin());
    auto stride = [&](int matrix, int layout) {
      QualifierSet qualifiers;
      qualifiers.Set(wmma::kMatrix, matrix);
      qualifiers.Set(wmma::kLayout, layout);
      qualifiers.Set(wmma::kShape, shape);
      return WmmaDefaultStride(qualifiers);
    };
    EXPECT_EQ(stride(wmma::kA, wmma::kRow), row.a_row) << row.shape;
    EXPECT_EQ(stride(wmma::kA, wmma::kCol), row.a_col) << row.shape;
    EXPECT_EQ(stride(wmma::kB, wmma::kRow), row.b_row) << row.shape;
    EXPECT_EQ(stride(wmma::kB, wmma::kCol), row.b_col) << row.shape;
    EXPECT_EQ(stride(wmma::kC, wmma::kRow), row.c_row) << row.shape;
    EXPECT_EQ(stride(wmma::kC, wmma::kCol), row.c_col) << row.shape;
  }
}

// The next aligned stride, by hand: .a .row .m16n16k16 .f16 has a 32-byte
// fragment, 16 elements; .a .col .m8n32k16 .f16 has default 8, next 16;
// .b .col .m8n8k128 .b1 has a 4-byte fragment, 32 elements.
TEST(RuntimeUbTest, WmmaAlignedStrideAbove) {
  auto next = [](absl::string_view text, std::uint32_t stride) {
    Verdict verdict = JudgeAt(text, "sm_90");
    EXPECT_TRUE(verdict.legal()) << text;
    const CheckedInstruction& instruction = *verdict.checked();
    return WmmaAlignedStrideAbove(instruction.form().qualifiers, instruction.signature(), stride);
  };
  EXPECT_EQ(next("wmma.load.a.sync.aligned.row.m16n16k16.f16 {a,b,c,d,e,f,g,h}, [p];", 16), 32u);
  EXPECT_EQ(next("wmma.load.a.sync.aligned.col.m8n32k16.f16 {a,b,c,d,e,f,g,h}, [p];", 8), 16u);
  EXPECT_EQ(next("wmma.load.b.sync.aligned.col.m8n8k128.b1 {a}, [p];", 128), 160u);
}

// PTX's only worked alignment example: .a .row .m16n16k16 .f16 needs p % 32
// and (2 * stride) % 32, so the fragment is 32 bytes and elements 16 bits.
TEST(RuntimeUbTest, WmmaAlignmentFromTheSpecExample) {
  std::vector<RuntimeCondition> conditions =
      ConditionsOf("wmma.load.a.sync.aligned.row.m16n16k16.f16 {a,b,c,d,e,f,g,h}, [p], 64;", "sm_90");
  EXPECT_THAT(Hazards(conditions),
              ::testing::ElementsAre(RuntimeHazard::kStrideBelowDefault, RuntimeHazard::kMisalignedAddress,
                                     RuntimeHazard::kMisalignedStride, RuntimeHazard::kAddressOutsideSpace,
                                     RuntimeHazard::kNonUniformOperands, RuntimeHazard::kDivergentExecution));
  EXPECT_EQ(conditions[1].alignment_bytes, 32);
  EXPECT_EQ(conditions[2].element_bits, 16);
  EXPECT_EQ(conditions[0].default_stride_elements, 16);
  // With an explicit state space there is no generic-address condition.
  EXPECT_THAT(Hazards(ConditionsOf("wmma.load.c.sync.aligned.col.m8n8k4.shared.f64 {a, b}, [p];", "sm_90")),
              ::testing::Not(::testing::Contains(RuntimeHazard::kAddressOutsideSpace)));
  EXPECT_EQ(ConditionsOf("wmma.load.c.sync.aligned.col.m8n8k4.f64 {a, b}, [p];", "sm_90")[1].alignment_bytes, 16);
}

TEST(RuntimeUbTest, LdmatrixUnusedLanesMatterOnlyOnSm75) {
  std::vector<RuntimeCondition> on_sm75 = ConditionsOf("ldmatrix.sync.aligned.m8n8.x2.b16 {a, b}, [p];", "sm_75");
  EXPECT_THAT(Hazards(on_sm75), ::testing::Contains(RuntimeHazard::kUnusedLaneAddress));
  EXPECT_THAT(Hazards(ConditionsOf("ldmatrix.sync.aligned.m8n8.x2.b16 {a, b}, [p];", "sm_80")),
              ::testing::Not(::testing::Contains(RuntimeHazard::kUnusedLaneAddress)));
  EXPECT_THAT(Hazards(ConditionsOf("ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];", "sm_75")),
              ::testing::Not(::testing::Contains(RuntimeHazard::kUnusedLaneAddress)));
  for (const RuntimeCondition& condition : on_sm75) {
    EXPECT_EQ(condition.alignment_bytes, 16);
    EXPECT_EQ(condition.address_lanes, 0xffffu) << "x2 uses lanes 0-15";
  }
}

// The PTX address table: .x1 uses threads 0-7, .x2 0-15, .x4 all; .m16n16
// takes 16 rows per matrix (ldmatrix.infer.m16n16-address-lanes).
TEST(RuntimeUbTest, LdmatrixAddressLanes) {
  auto lanes = [](absl::string_view text) {
    return ConditionsOf(text, "sm_100a").front().address_lanes;
  };
  EXPECT_EQ(lanes("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];"), 0xffu);
  EXPECT_EQ(lanes("ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];"), 0xffffffffu);
  EXPECT_EQ(lanes("ldmatrix.sync.aligned.m16n16.x1.trans.b8 {a, b}, [p];"), 0xffffu);
  EXPECT_EQ(lanes("ldmatrix.sync.aligned.m8n16.x2.b8x16.b4x16_p64 {a, b}, [p];"), 0xffffu);
}

TEST(RuntimeUbTest, Tcgen05NeedsUniformTaddrAndItsLaneQuarter) {
  EXPECT_THAT(Hazards(ConditionsOf("tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t];", "sm_100a")),
              ::testing::ElementsAre(RuntimeHazard::kNonUniformOperands, RuntimeHazard::kTmemLaneOutsideWarpQuarter,
                                     RuntimeHazard::kDivergentExecution));
}

// reports/spec-errata.md E6 notes a contradiction inside PTX: read literally, the
// alignment rule is broken by some default strides. The data states both
// numbers; which one hardware honours is measured on the GPU (issue 4).
TEST(RuntimeUbTest, RecordsTheDefaultStrideAlignmentContradiction) {
  std::vector<RuntimeCondition> conditions =
      ConditionsOf("wmma.load.a.sync.aligned.col.m8n32k16.f16 {a,b,c,d,e,f,g,h}, [p];", "sm_90");
  const int default_bytes = *conditions[0].default_stride_elements * *conditions[0].element_bits / 8;
  EXPECT_EQ(default_bytes, 16);
  EXPECT_EQ(*conditions[1].alignment_bytes, 32);
  EXPECT_NE(default_bytes % *conditions[1].alignment_bytes, 0);
}

}  // namespace
}  // namespace matload
