#include "harness/judge/diagnostic_judge.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "reference/legality.h"
#include "reference/parser.h"

namespace matload {
namespace {

using ::testing::Field;
using ::testing::Optional;

constexpr absl::string_view kWmma = "wmma.load.a.sync.aligned.row.m16n16k16.f16 {x0, x1}, [p];";

// Judged is JudgeDiagnostic's kind for `messages`, the last `unplaced` of
// them on no line of the form, against the model's `reasons`.
std::optional<MisdiagnosisKind> Judged(absl::string_view instruction, std::vector<ReasonCode> reasons,
                                       std::vector<std::string> messages, size_t unplaced = 0) {
  const std::optional<Misdiagnosis> judged =
      JudgeDiagnostic(instruction, reasons, {.accepted = false, .messages = std::move(messages), .unplaced = unplaced});
  if (!judged.has_value()) return std::nullopt;
  return judged->kind;
}

TEST(DiagnosticJudgeTest, ARejectionForTheModelsReasonIsADiagnostic) {
  EXPECT_EQ(Judged(kWmma, {ReasonCode::kRegisterType}, {"Arguments mismatch for instruction 'wmma.load.a'"}),
            std::nullopt);
  EXPECT_EQ(Judged("ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];", {ReasonCode::kUnknownQualifier},
                   {"Unknown modifier '.x3'", ".num modifier required for instruction 'ldmatrix'"}),
            std::nullopt);
}

TEST(DiagnosticJudgeTest, NamingWhatTheUserNeverWroteIsAnInternalSymbol) {
  EXPECT_EQ(Judged(kWmma, {ReasonCode::kRegisterType}, {"Arguments mismatch for instruction 'mov'"}),
            MisdiagnosisKind::kInternalSymbol);
  EXPECT_EQ(Judged(kWmma, {ReasonCode::kQualifierCombination},
                   {"Call to '__cuda_sm7x_wmma_m16n16k8_acc_f16' has wrong arguments"}, 1),
            MisdiagnosisKind::kInternalSymbol)
      << "the symbol is the more telling fault, before the missing line";
  EXPECT_EQ(Judged(kWmma, {ReasonCode::kQualifierCombination}, {"Prototype doesn't match for call"}),
            MisdiagnosisKind::kInternalSymbol);
  EXPECT_EQ(Judged("ldmatrix.sync.aligned.m8n8.x1.b16.a {d}, [a];", {ReasonCode::kUnknownQualifier},
                   {"Illegal modifier 'Component' for instruction 'ldmatrix'"}),
            MisdiagnosisKind::kInternalSymbol)
      << "ptxas's category of '.a', a modifier the form does not hold";
  EXPECT_EQ(Judged("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];", {ReasonCode::kUnknownQualifier},
                   {"Illegal modifier for instruction 'ld'"}),
            MisdiagnosisKind::kInternalSymbol)
      << "'ld' is another instruction, not a prefix of ldmatrix's opcode";
}

TEST(DiagnosticJudgeTest, AMessageOnNoLineOfTheFormIsNoDiagnostic) {
  const std::optional<Misdiagnosis> judged = JudgeDiagnostic(
      kWmma, {ReasonCode::kQualifierCombination},
      {.accepted = false, .messages = {"Illegal type for wmma.load", "Arguments mismatch"}, .unplaced = 1});
  EXPECT_THAT(judged, Optional(Field(&Misdiagnosis::kind, MisdiagnosisKind::kNoLine)));
  EXPECT_THAT(judged, Optional(Field(&Misdiagnosis::message, "Arguments mismatch")));
}

TEST(DiagnosticJudgeTest, AReasonTheModelDoesNotGiveIsTheWrongReason) {
  EXPECT_EQ(
      Judged("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [h];", {ReasonCode::kRegisterType}, {"Unknown modifier '.x1'"}),
      MisdiagnosisKind::kWrongReason);
  EXPECT_EQ(Judged("ldmatrix.sync.aligned.m16n16.x1.trans.b8 {d}, [a];", {ReasonCode::kPtxVersion},
                   {"Unknown modifier '.m16n16'"}),
            std::nullopt)
      << "a qualifier newer than the .version is unknown to ptxas there: the model's version gate";
  EXPECT_EQ(Judged("tcgen05.ld.sync.aligned.16x256b.x64.b32 {r0}, [t], 16;", {ReasonCode::kQualifierCombination},
                   {"Unexpected number of arguments specified for tcgen05.ld with shape '.16x256b'"}),
            std::nullopt)
      << "the model judges no operand of a qualifier set that makes no form";
  EXPECT_EQ(
      Judged("wmma.load.c.sync.aligned.row.m8n8k32.f16 {x0, x1, x2, x3}, [p];", {ReasonCode::kQualifierCombination},
             {"Argument vector size mismatch for instruction 'wmma.load.c'"}),
      MisdiagnosisKind::kWrongReason)
      << "no vector of any size makes that form: the type is what is wrong";
  EXPECT_EQ(Judged("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];", {ReasonCode::kPtxVersion}, {"a message never seen"}),
            std::nullopt)
      << "a message the classifier does not know names no reason to hold against the model's";
}

// What a ptxas older than a qualifier says of it: the qualifier is no part
// of the language it speaks, as the model's version gate says.
TEST(DiagnosticJudgeTest, AnUnknownNameIsTheVersionGateSaidAnotherWay) {
  const absl::string_view red =
      "tcgen05.ld.red.sync.aligned.32x32b.x8.min.u32 {r0, r1, r2, r3, r4, r5, r6, r7}, v, [t];";
  EXPECT_EQ(Judged(red, {ReasonCode::kPtxVersion},
                   {"Illegal vector size: 8", "Not a name of any known instruction: 'tcgen05.ld.red'"}),
            std::nullopt)
      << "ptxas 12.8.93 at PTX 8.7, before .red";
  EXPECT_EQ(Judged(red, {ReasonCode::kQualifierCombination}, {"Not a name of any known instruction: 'tcgen05.ld.red'"}),
            MisdiagnosisKind::kWrongReason)
      << "where the model gives no gate, an unknown name is no reason it gives";
}

TEST(DiagnosticJudgeTest, ASyntaxErrorInTheQualifiersNamesAnUnknownQualifier) {
  const absl::string_view shape = "wmma.load.a.sync.aligned.row.m16n16k16.u8.16x64b {x0, x1}, [p];";
  EXPECT_EQ(Judged(shape, {ReasonCode::kUnknownQualifier}, {"Parsing error near 'x64b': syntax error"}), std::nullopt)
      << "ptxas 11.8.89 at PTX 7.8 reads '.16' as a number";
  EXPECT_EQ(Judged(shape, {ReasonCode::kUnknownQualifier}, {"Parsing error near ',': syntax error"}),
            MisdiagnosisKind::kWrongReason)
      << "a syntax error among the operands is not at the qualifier";
}

TEST(DiagnosticJudgeTest, UnexpectedTypesNameTypesOutOfOrder) {
  EXPECT_EQ(Judged("ldmatrix.sync.aligned.m8n16.x1.s4.s8 {d}, [a];", {ReasonCode::kMisplacedQualifier},
                   {"Unexpected instruction types specified for 'ldmatrix'"}),
            std::nullopt)
      << "ptxas 13.4.92";
}

TEST(DiagnosticJudgeTest, ShapesHideQuotedPartsAndInternalSymbols) {
  EXPECT_EQ(MessageShape("Unknown modifier '.x3'"), "Unknown modifier '…'");
  EXPECT_EQ(MessageShape("Call to __cuda_sm7x_wmma_m16n16k8_acc_f16 failed"), "Call to __… failed");
  EXPECT_EQ(MessageShape("unbalanced 'quote"), "unbalanced 'quote");
}

// ptxas 13.0.88's wmma helpers: a .c fragment of .f16 at .m16n16k8 (a
// .tf32 shape) is rejected by a message naming the helper, on no line.
TEST(DiagnosticJudgeTest, TheToolkitPtxasNamesAWmmaHelper) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const std::string form = "wmma.load.c.sync.aligned.row.m16n16k8.f16 {x0, x1, x2, x3}, [p];";
  const Target sm80 = *ParseTarget("sm_80");
  const Verdict model = JudgeText(form, {9, 0}, sm80);
  ASSERT_FALSE(model.legal());
  std::vector<ReasonCode> reasons;
  for (const Reason& reason : model.reasons()) reasons.push_back(reason.code);
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(*ptxas, {*ParseSnippet(form)}, {9, 0}, sm80);
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  ASSERT_FALSE(verdicts->front().accepted);
  EXPECT_THAT(JudgeDiagnostic(form, reasons, verdicts->front()),
              Optional(Field(&Misdiagnosis::kind, MisdiagnosisKind::kInternalSymbol)));
}

}  // namespace
}  // namespace matload
