#include "families/wmma/wmma_layouts.h"

#include "families/wmma/wmma_semantics.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/register_class.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(WmmaLayoutsTest, EveryEntryNamesKnownTargets) {
  for (const WmmaLayoutEntry& entry : WmmaLayoutTable()) {
    for (Target target : entry.targets) EXPECT_NE(FindTarget(target), nullptr) << entry.source.id << " " << target.Name();
  }
}

TEST(WmmaLayoutsTest, EveryEntryCoversItsMatrixEquallyOften) {
  for (const WmmaLayoutEntry& entry : WmmaLayoutTable()) {
    QualifierSet qualifiers = QualifierSet();
    qualifiers.Set(wmma::kMatrix, entry.matrix);
    qualifiers.Set(wmma::kShape, entry.shape);
    const MatrixCoord dims = WmmaMatrixDims(qualifiers);
    EXPECT_THAT(FragmentCoverageViolations(dims.row, dims.col, entry.fragment.elements(),
                                           [&](int lane, int x) { return entry.fragment.At(lane, x); }),
                ::testing::IsEmpty())
        << entry.source.id << " " << entry.fragment.ToString();
  }
}

// AF16Row is .a .row .m16n16k16 .f16, the form docs/spec-decisions.md wmma.layout.* gives for every architecture.
QualifierSet AF16Row() {
  QualifierSet a;
  a.Set(wmma::kMatrix, wmma::kA);
  a.Set(wmma::kShape, wmma::kM16n16k16);
  a.Set(wmma::kType, wmma::kF16);
  a.Set(wmma::kLayout, wmma::kRow);
  return a;
}

// Values copied by hand from docs/spec-decisions.md wmma.layout.*.
TEST(WmmaLayoutsTest, HandCopiedCells) {
  QualifierSet a = AF16Row();
  // sm_70 A .row: lane 17 (t=1, bit 4 set) holds row 1 + 4 = 5, and element x is column x.
  absl::StatusOr<const WmmaLayoutEntry*> volta = FindWmmaLayout(a, Target{70});
  ASSERT_TRUE(volta.ok()) << volta.status();
  EXPECT_EQ((*volta)->fragment.At(17, 11), (MatrixCoord{5, 11}));
  EXPECT_EQ((*volta)->fragment.At(25, 3), (*volta)->fragment.At(17, 3));  // lanes l and l+8 duplicate
  // sm_80 A: lane 6 (g=1, t=2), element 5: row 1, col 4 + 1 + 8.
  absl::StatusOr<const WmmaLayoutEntry*> ampere = FindWmmaLayout(a, Target{80});
  ASSERT_TRUE(ampere.ok());
  EXPECT_EQ((*ampere)->fragment.At(6, 5), (MatrixCoord{1, 13}));
  EXPECT_EQ((*ampere)->fragment.At(6, 13), (MatrixCoord{1, 13}));  // elements 8..15 repeat 0..7
  // sm_70 A .col differs from .row; sm_80 A does not.
  a.Set(wmma::kLayout, wmma::kCol);
  EXPECT_NE(*FindWmmaLayout(a, Target{70}), *volta);
  EXPECT_EQ(*FindWmmaLayout(a, Target{80}), *ampere);
}

TEST(WmmaLayoutsTest, AnUnknownLayoutIsNotFoundAndSaysWhy) {
  const QualifierSet a = AF16Row();
  absl::StatusOr<const WmmaLayoutEntry*> blackwell = FindWmmaLayout(a, Target{100, TargetVariant::kArchSpecific});
  EXPECT_EQ(blackwell.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(blackwell.status().message(), HasSubstr("sm_100a fragment layout of wmma.load.a"));
}

// Every legal form that has a layout gets one with as many elements as its
// registers hold; WmmaFragment::For checks the count.
TEST(WmmaLayoutsTest, EveryLayoutFitsItsFormsRegisters) {
  for (const TargetInfo& info : AllTargets()) {
    for (const QualifierSet& qualifiers : LegalQualifierSets(wmma::Spec(), NewestPtxVersion(), info.target)) {
      absl::StatusOr<const WmmaLayoutEntry*> entry = FindWmmaLayout(qualifiers, info.target);
      if (!entry.ok()) continue;
      const OperandSignature signature = *wmma::Spec().Signature(qualifiers);
      const int register_bits = RegisterClassBits(signature.destination_class);
      EXPECT_EQ((*entry)->fragment.elements() * wmma::ElementBits(static_cast<wmma::Type>(qualifiers.Get(wmma::kType))),
                signature.destination_count * register_bits)
          << (*entry)->source.id << " on " << info.target.Name();
    }
  }
}

}  // namespace
}  // namespace matload
