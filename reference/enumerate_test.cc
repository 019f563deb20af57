#include "reference/enumerate.h"

#include "absl/container/flat_hash_set.h"
#include "families/ldmatrix/ldmatrix_table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/families.h"
#include "reference/legality.h"
#include "reference/printer.h"

namespace matload {
namespace {

Target T(absl::string_view name) { return *ParseTarget(name); }

TEST(EnumerateTest, EveryLegalFormIsJudgedLegalAndDistinct) {
  for (absl::string_view name : {"sm_75", "sm_90", "sm_100a", "sm_103a", "sm_120f"}) {
    absl::flat_hash_set<std::string> seen;
    for (const Form& form : LegalForms({9, 0}, T(name))) {
      Verdict verdict = Judge(Snippet{StandardRegisterFile(), ToRaw(form)}, {9, 0}, T(name));
      ASSERT_TRUE(verdict.legal()) << name << ": " << PrintForm(form) << ": " << verdict.reasons()[0].message;
      EXPECT_TRUE(seen.insert(PrintForm(form)).second) << PrintForm(form);
    }
  }
}

// One standard instruction per legal qualifier set, each with that set.
TEST(EnumerateTest, StandardInstructionsCoverEveryLegalQualifierSet) {
  const Target target = *ParseTarget("sm_100a");
  std::vector<QualifierSet> sets;
  for (const FamilySpec* spec : AllFamilies()) {
    for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, {9, 0}, target)) sets.push_back(qualifiers);
  }
  const std::vector<CheckedInstruction> instructions = StandardInstructions({9, 0}, target);
  ASSERT_EQ(instructions.size(), sets.size());
  for (size_t i = 0; i < sets.size(); ++i) {
    EXPECT_EQ(instructions[i].form().qualifiers, sets[i]) << PrintForm(instructions[i].form());
    EXPECT_EQ(instructions[i].target(), target);
  }
}

TEST(EnumerateTest, EveryNearMissIsJudgedIllegal) {
  for (absl::string_view name : {"sm_80", "sm_100a", "sm_110f"}) {
    std::vector<RawInstruction> near_misses = NearMissInstructions({9, 0}, T(name));
    EXPECT_GT(near_misses.size(), 2000u) << name;
    for (const RawInstruction& raw : near_misses) {
      ASSERT_FALSE(Judge(Snippet{StandardRegisterFile(), raw}, {9, 0}, T(name)).legal()) << PrintRaw(raw);
    }
  }
}

// Counts derived by hand from the spec for ldmatrix at PTX 9.0:
// m8n8: 3 .num x 2 .trans x 3 state spaces = 18;
// m16n16: 2 .num x 3 state spaces x 3 types (.b8 and two formats) = 18;
// m8n16: 3 .num x 3 state spaces x 2 formats = 18.
TEST(EnumerateTest, LdmatrixQualifierSetCountsMatchTheSpec) {
  EXPECT_EQ(LegalQualifierSets(ldmatrix::Spec(), {9, 0}, T("sm_90")).size(), 18u);
  EXPECT_EQ(LegalQualifierSets(ldmatrix::Spec(), {9, 0}, T("sm_100a")).size(), 54u);
  EXPECT_EQ(LegalQualifierSets(ldmatrix::Spec(), {7, 7}, T("sm_86")).size(), 12u) << "no ::cta before 7.8";
  EXPECT_EQ(LegalQualifierSets(ldmatrix::Spec(), {9, 0}, T("sm_100")).size(), 18u);
}

TEST(EnumerateTest, NothingExistsForATargetOutsideItsPtxVersion) {
  EXPECT_TRUE(LegalForms({8, 8}, T("sm_110a")).empty());
  EXPECT_TRUE(NearMissInstructions({9, 0}, T("sm_101a")).empty());
}

// A metadata vector takes registers of its own pool, so that it never
// overlaps the destination vector.
TEST(EnumerateTest, AMetadataVectorHasAPoolOfItsOwn) {
  OperandSignature signature{.destination_count = 2, .metadata_count = 1, .address = AddressKind::kTensorMemory};
  signature.operands[signature.operand_count++] = {OperandRole::kMetadataVector, "mdata"};
  signature.operands[signature.operand_count++] = {OperandRole::kDestinationVector, "cdata"};
  signature.operands[signature.operand_count++] = {OperandRole::kAddress, "taddr"};
  EXPECT_EQ(PrintRaw({.opcode = {"op"}, .operands = StandardOperands(signature, OperandStyles(signature)[0])}),
            "op {%meta0}, {%r0, %r1}, [%taddr];");
}

TEST(EnumerateTest, OperandStylesCoverEveryAddressAndStrideForm) {
  OperandSignature memory{.destination_count = 1, .stride = true};
  EXPECT_EQ(OperandStyles(memory).size(), 9u);
  OperandSignature tensor{.destination_count = 1, .address = AddressKind::kTensorMemory};
  EXPECT_EQ(OperandStyles(tensor).size(), 2u);
}

}  // namespace
}  // namespace matload
