// The register classes of reference/register_class.cc are measurements: the
// PTX text says only "32-bit registers" or "a vector that can hold the
// fragment". This test re-measures them. For one form of each class, every
// register type is declared in turn for the operand, and ptxas's verdict
// must equal RegisterClassAccepts, and so must the model's verdict on the
// whole snippet. (ldmatrix with .shared, whose address ptxas also takes in
// an 8- or 16-bit register, is the registry entry
// ptxas-accepts-b16-shared-address-for-ldmatrix and has no probe here.)
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/ptxas.h"
#include "reference/legality.h"
#include "reference/parser.h"
#include "reference/register_class.h"

namespace matload {
namespace {

const char* const kTypes[] = {".b32", ".u32", ".s32", ".f32", ".f16x2", ".b64", ".u64", ".s64",
                              ".f64", ".b16", ".u16", ".s16", ".f16",   ".b8",  ".u8",  ".s8"};

struct Probe {
  const char* target;
  RegisterClass cls;
  const char* declarations;  // other operands, correctly typed
  const char* instruction;   // $ marks the operand under test
};

const Probe kProbes[] = {
    {"sm_90", RegisterClass::kHalf2, ".reg .b64 p;", "wmma.load.c.sync.aligned.row.m16n16k16.f16 {$, $, $, $}, [p];"},
    {"sm_90", RegisterClass::kFloat32, ".reg .b64 p;",
     "wmma.load.c.sync.aligned.row.m16n16k16.f32 {$, $, $, $, $, $, $, $}, [p];"},
    {"sm_90", RegisterClass::kInt32, ".reg .b64 p;", "wmma.load.a.sync.aligned.row.m16n16k16.s8 {$, $}, [p];"},
    {"sm_90", RegisterClass::kBits32, ".reg .b64 p;", "wmma.load.a.sync.aligned.row.m16n16k16.bf16 {$, $, $, $}, [p];"},
    {"sm_90", RegisterClass::kFloat64, ".reg .b64 p;", "wmma.load.c.sync.aligned.row.m8n8k4.f64 {$, $}, [p];"},
    {"sm_90", RegisterClass::kAny32, ".reg .b64 p;", "wmma.load.a.sync.aligned.row.m8n8k128.b1 {$}, [p];"},
    {"sm_90", RegisterClass::kAny32, ".reg .b64 p;", "ldmatrix.sync.aligned.m8n8.x2.b16 {$, $}, [p];"},
    {"sm_100a", RegisterClass::kAny32, ".reg .b32 t;", "tcgen05.ld.sync.aligned.32x32b.x2.b32 {$, $}, [t];"},
    {"sm_103a", RegisterClass::kAny32, ".reg .b32 r<2>; .reg .b32 t;",
     "tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {r0, r1}, $, [t];"},
    {"sm_90", RegisterClass::kAddress, ".reg .b32 d;", "ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [$];"},
    {"sm_90", RegisterClass::kAddress, ".reg .b32 d;", "wmma.load.a.sync.aligned.row.m8n8k128.b1 {d}, [$];"},
    {"sm_90", RegisterClass::kAddress, ".reg .b32 d;", "wmma.load.a.sync.aligned.row.m8n8k128.shared.b1 {d}, [$];"},
    {"sm_100a", RegisterClass::kTmemAddress, ".reg .b32 r;", "tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [$];"},
    {"sm_90", RegisterClass::kInt32, ".reg .b32 d; .reg .b64 p;",
     "wmma.load.a.sync.aligned.row.m8n8k128.b1 {d}, [p], $;"},
};

TEST(RegisterClassVsPtxasTest, EveryClassIsWhatPtxasAccepts) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  for (const Probe& probe : kProbes) {
    const Target target = *ParseTarget(probe.target);
    std::vector<std::string> texts;
    for (const char* type : kTypes) {
      texts.push_back(absl::StrCat(probe.declarations, " .reg ", type, " v; ",
                                   absl::StrReplaceAll(probe.instruction, {{"$", "v"}})));
    }
    absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckTexts(*ptxas, texts, {9, 0}, target);
    ASSERT_TRUE(verdicts.ok()) << verdicts.status();
    std::vector<std::string> measured;
    for (size_t i = 0; i < texts.size(); ++i) {
      if ((*verdicts)[i].accepted) measured.push_back(kTypes[i]);
      EXPECT_EQ((*verdicts)[i].accepted, RegisterClassAccepts(probe.cls, kTypes[i]))
          << probe.instruction << " with " << kTypes[i] << ": "
          << absl::StrJoin((*verdicts)[i].messages, " | ");
      EXPECT_EQ((*verdicts)[i].accepted, JudgeText(texts[i], {9, 0}, target).legal())
          << "the model on " << texts[i] << ": " << absl::StrJoin((*verdicts)[i].messages, " | ");
    }
    std::cout << probe.target << "\t" << probe.instruction << "\taccepts " << absl::StrJoin(measured, " ") << "\n";
  }
}

// A destination vector whose registers are declared with two different
// types: the model's verdict (CombinedVectorType) must be ptxas's, for every
// ordered pair of 32-bit types, the odd type first and last. A legality fuzz
// campaign found that ptxas accepts such mixes where it rejects either type
// alone.
TEST(RegisterClassVsPtxasTest, MixedDestinationVectorsAreTypedAsPtxasTypesThem) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const char* const kThirtyTwoBitTypes[] = {".b32", ".u32", ".s32", ".f32", ".f16x2"};
  int accepted = 0;
  int compared = 0;
  for (const Probe& probe : kProbes) {
    const std::string instruction = probe.instruction;
    const size_t registers = std::count(instruction.begin(), instruction.end(), '$');
    if (instruction.find("{$") == std::string::npos || registers < 2) continue;
    const Target target = *ParseTarget(probe.target);
    std::vector<std::string> texts;
    for (const char* odd : kThirtyTwoBitTypes) {
      for (const char* rest : kThirtyTwoBitTypes) {
        if (std::string(odd) == rest) continue;
        for (const size_t odd_index : {size_t{0}, registers - 1}) {
          std::string text = absl::StrCat(probe.declarations, " .reg ", odd, " odd; .reg ", rest, " v<", registers, ">; ");
          std::string operands = instruction;
          for (size_t i = 0; i < registers; ++i) {
            operands.replace(operands.find('$'), 1, i == odd_index ? "odd" : absl::StrCat("v", i));
          }
          texts.push_back(text + operands);
        }
      }
    }
    absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckTexts(*ptxas, texts, {9, 0}, target);
    ASSERT_TRUE(verdicts.ok()) << verdicts.status();
    for (size_t i = 0; i < texts.size(); ++i) {
      ++compared;
      accepted += (*verdicts)[i].accepted;
      EXPECT_EQ((*verdicts)[i].accepted, JudgeText(texts[i], {9, 0}, target).legal())
          << texts[i] << ": " << absl::StrJoin((*verdicts)[i].messages, " | ");
    }
  }
  std::cout << compared << " mixed vectors, " << accepted << " accepted by ptxas\n";
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, compared);
}

}  // namespace
}  // namespace matload
