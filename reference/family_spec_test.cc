#include "reference/family_spec.h"

#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/families.h"

namespace matload {
namespace {

TEST(ConditionTest, EvaluatesAxisTests) {
  QualifierSet qualifiers;
  qualifiers.Set(0, 2);
  EXPECT_TRUE((Condition{{OneOf(0, {1, 2})}}).Holds(qualifiers));
  EXPECT_FALSE((Condition{{OneOf(0, {1})}}).Holds(qualifiers));
  EXPECT_TRUE((Condition{{NoneOf(0, {1})}}).Holds(qualifiers));
  EXPECT_TRUE((Condition{{Present(0), Absent(1)}}).Holds(qualifiers));
  EXPECT_FALSE((Condition{{Absent(0)}}).Holds(qualifiers));
  EXPECT_TRUE(Condition{}.Holds(qualifiers));
  EXPECT_TRUE((Condition{{NoneOf(1, {0})}}).Holds(qualifiers)) << "absent is none of the values";
}

// Messages name the families as the PTX ISA spells their mnemonics.
TEST(FamiliesTest, MessagesNameEveryFamily) {
  EXPECT_EQ(FamilyNamesText(), "wmma.load, ldmatrix or tcgen05.ld");
}

TEST(FamiliesDeathTest, AnUnknownFamilyAborts) {
  EXPECT_DEATH(SpecOf(static_cast<Family>(200)), "no FamilySpec for family 200");
}

// A row with metadata registers gives the metadata vector its own length;
// the other vectors take the row's registers (FragmentRow).
TEST(FamilySpecTest, AMetadataVectorHasTheRowsMetadataLength) {
  FamilySpec spec{.family = Family::kTcgen05Ld, .mnemonic = {"op"}};
  spec.axes = {{.name = "num", .spellings = {".x4", ".x64"}, .mandatory = true}};
  spec.fragments = {{{{OneOf(0, {0})}}, 2, RegisterClass::kAny32, {}, 1},
                    {{{OneOf(0, {1})}}, 32, RegisterClass::kAny32, {}, 2}};
  spec.operands.layout = {{OperandRole::kMetadataVector, "mdata", std::nullopt},
                          {OperandRole::kDestinationVector, "cdata", std::nullopt},
                          {OperandRole::kAddress, "taddr", std::nullopt}};
  QualifierSet x64;
  x64.Set(0, 1);
  const OperandSignature signature = *spec.Signature(x64);
  EXPECT_EQ(signature.metadata_count, 2);
  EXPECT_EQ(signature.VectorLength(OperandRole::kMetadataVector), 2);
  EXPECT_EQ(signature.VectorLength(OperandRole::kDestinationVector), 32);
  EXPECT_EQ(signature.IndexOf(OperandRole::kMetadataVector), 0);
  EXPECT_TRUE(IsVectorRole(OperandRole::kMetadataVector));
  EXPECT_FALSE(IsVectorRole(OperandRole::kReductionValue));
}

// Tables are data; these tests check the data is well formed.
TEST(FamilySpecTest, TablesAreWellFormed) {
  for (const FamilySpec* spec : AllFamilies()) {
    EXPECT_LE(spec->axes.size(), static_cast<size_t>(kMaxAxes)) << spec->MnemonicText();
    absl::flat_hash_set<absl::string_view> spellings;
    for (const AxisSpec& axis : spec->axes) {
      EXPECT_FALSE(axis.ref.id.empty());
      for (absl::string_view spelling : axis.spellings) {
        EXPECT_EQ(spelling.front(), '.') << spelling;
        EXPECT_TRUE(spellings.insert(spelling).second) << spec->MnemonicText() << " spells " << spelling << " twice";
      }
    }
    for (const Constraint& constraint : spec->constraints) EXPECT_FALSE(constraint.ref.id.empty());
    for (const VersionGate& gate : spec->version_gates) EXPECT_FALSE(gate.ref.id.empty());
    for (const TargetGate& gate : spec->target_gates) EXPECT_FALSE(gate.any_of.empty());
    for (const FragmentRow& row : spec->fragments) EXPECT_GT(row.registers, 0);
  }
}

// At most one fragment row may match any legal qualifier set.
TEST(FamilySpecTest, FragmentRowsDoNotOverlap) {
  for (const TargetInfo& info : AllTargets()) {
    for (const FamilySpec* spec : AllFamilies()) {
      for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, NewestPtxVersion(), info.target)) {
        int matches = 0;
        for (const FragmentRow& row : spec->fragments) matches += row.match.Holds(qualifiers) ? 1 : 0;
        EXPECT_EQ(matches, 1) << spec->MnemonicText() << " on " << info.target.Name();
      }
    }
  }
}

}  // namespace
}  // namespace matload
