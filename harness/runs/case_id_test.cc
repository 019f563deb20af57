#include "harness/runs/case_id.h"

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace matload {
namespace {

// Id parses `text` and names it.
std::string Id(const std::string& text) { return InstructionCaseId(ParseSnippet(text)->instruction); }

// The names below are written by hand from the grammar in case_id.h; the
// hashes are FNV-1a of the instruction's printed text (with its ';'), computed outside
// matload (python3: h = (h ^ byte) * 16777619 mod 2^32 from 2166136261).
TEST(CaseIdTest, FormsAreNamedByFamilyQualifiersAndStyle) {
  EXPECT_EQ(Id("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr];"),
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64");
  EXPECT_EQ(Id("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr32];"),
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr32");
  EXPECT_EQ(Id("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr+32];"),
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr_offset");
  EXPECT_EQ(Id("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, [%addr], %stride;"),
            "wmma_load.a.sync.aligned.row.m16n16k16.f16.addr64.stride_reg");
  EXPECT_EQ(Id("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, [%addr], 64;"),
            "wmma_load.a.sync.aligned.row.m16n16k16.f16.addr64.stride_imm");
  EXPECT_EQ(Id("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r0}, [%taddr];"),
            "tcgen05_ld.sync.aligned.32x32b.x1.b32.taddr");
}

TEST(CaseIdTest, QualifierOrderAsWrittenDoesNotChangeTheName) {
  EXPECT_EQ(Id("ldmatrix.aligned.sync.m8n8.x1.shared.b16 {%r0}, [%addr];"),
            Id("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr];"));
}

TEST(CaseIdTest, OtherOperandsAndUndecodableTextAreHashed) {
  EXPECT_EQ(Id("ldmatrix.sync.aligned.m8n8.x1.b16 {%r5}, [%addr];"), "ldmatrix.sync.aligned.m8n8.x1.b16.ops_74af66cd");
  EXPECT_EQ(Id("ldmatrix.sync.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];"),
            "ldmatrix.sync.sync.aligned.m8n8.x1.b16.raw_7bb4f65b");
}

TEST(CaseIdTest, SupportAndConformNames) {
  const RawInstruction raw = ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr];")->instruction;
  EXPECT_EQ(SupportCaseId(*ParseTarget("sm_90a"), raw), "sm_90a.ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64");
  const Form form = *DecodeForm(raw);
  EXPECT_EQ(ConformCaseId(form, 64, "driver-jit", false), "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64.driver_jit");
  EXPECT_EQ(ConformCaseId(form, 32, "ptxas-cubin", true),
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr32.ptxas_cubin.undefined");
}

// Every legal form and every near miss of a target has a name of its own,
// and the name survives printing and parsing.
TEST(CaseIdTest, NamesAreUniqueAndSurviveARoundTrip) {
  for (const char* name : {"sm_90", "sm_100a", "sm_120a"}) {
    const Target target = *ParseTarget(name);
    std::set<std::string> ids;
    std::set<std::string> texts;
    auto add = [&](const RawInstruction& raw) {
      const std::string text = PrintRaw(raw);
      const std::string id = InstructionCaseId(raw);
      EXPECT_EQ(ids.insert(id).second, texts.insert(text).second) << text << " -> " << id;
      EXPECT_EQ(Id(text + ";"), id) << text;
    };
    for (const Form& form : LegalForms(NewestPtxVersion(), target)) add(ToRaw(form));
    for (const RawInstruction& raw : NearMissInstructions(NewestPtxVersion(), target)) add(raw);
    EXPECT_GT(ids.size(), 1000u) << name;
  }
}

// InstructionCaseIds gives InstructionCaseId's names, whether it names a
// text for the first time or again, as for the same forms on another target.
TEST(CaseIdTest, RememberedNamesAreInstructionCaseIds) {
  InstructionCaseIds names;
  for (int pass = 0; pass < 2; ++pass) {
    for (const char* name : {"sm_90", "sm_100a"}) {
      const Target target = *ParseTarget(name);
      for (const RawInstruction& raw : NearMissInstructions(NewestPtxVersion(), target)) {
        ASSERT_EQ(names.Of(raw, PrintRaw(raw)), InstructionCaseId(raw)) << PrintRaw(raw);
      }
      const RawInstruction raw = ToRaw(LegalForms(NewestPtxVersion(), target).front());
      EXPECT_EQ(SupportCaseId(target, names.Of(raw, PrintRaw(raw))), SupportCaseId(target, raw));
    }
  }
}

TEST(SupportCaseGroupTest, SplitsTheMatrixTheQualifiersAndTheStyle) {
  const CaseGroup plain = SupportCaseGroup("sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64");
  EXPECT_EQ(plain.matrix, "sm_90.ldmatrix");
  EXPECT_EQ(plain.qualifiers, "sync.aligned.m8n8.x4.shared.b16");
  EXPECT_EQ(plain.style, "addr64");
  const CaseGroup stride =
      SupportCaseGroup("sm_80.wmma_load.a.sync.aligned.row.m16n16k16.global.f16.addr32.stride_reg");
  EXPECT_EQ(stride.matrix, "sm_80.wmma_load");
  EXPECT_EQ(stride.qualifiers, "a.sync.aligned.row.m16n16k16.global.f16");
  EXPECT_EQ(stride.style, "addr32.stride_reg");
  EXPECT_EQ(SupportCaseGroup("sm_100a.tcgen05_ld.sync.aligned.32x32b.x1.b32.taddr_offset").style, "taddr_offset");
  const CaseGroup near_miss = SupportCaseGroup("sm_90.ldmatrix.sync.sync.aligned.m8n8.x1.b16.raw_0a1b2c3d");
  EXPECT_EQ(near_miss.qualifiers, "sync.sync.aligned.m8n8.x1.b16");
  EXPECT_EQ(near_miss.style, "raw_0a1b2c3d");
  EXPECT_EQ(SupportCaseGroup("sm_90.ldmatrix.sync.aligned.m8n8.x1.b16.ops_0a1b2c3d").style, "ops_0a1b2c3d");
  // A run that sweeps several compilers starts its IDs with the compiler's token.
  EXPECT_EQ(SupportCaseGroup("ptxas_13_0_88.sm_90.ldmatrix.sync.aligned.m8n8.x1.b16.addr64").matrix,
            "ptxas_13_0_88.sm_90.ldmatrix");
  const CaseGroup other = SupportCaseGroup("fuzz.text");
  EXPECT_EQ(other.matrix, "fuzz.text");
  EXPECT_EQ(other.qualifiers, "");
  EXPECT_EQ(other.style, "");
}

}  // namespace
}  // namespace matload
