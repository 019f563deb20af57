#include "harness/compile/diagnostic_classifier.h"

#include "absl/strings/match.h"

namespace matload {
namespace {

using RC = ReasonCode;

struct Pattern {
  absl::string_view fragment;  // a piece of the ptxas message
  std::vector<ReasonCode> codes;
};

// The patterns, most specific first; the first that matches wins. Each was
// seen from ptxas 13.0.88 (reports/model-vs-ptxas/ptxas-13.0.88.md) unless
// its comment names another release.
const std::vector<Pattern>& Patterns() {
  static const auto* const kPatterns = new std::vector<Pattern>{
      {"Parsing error", {RC::kSyntax}},
      {"syntax error", {RC::kSyntax}},
      {"does not support .target", {RC::kTargetNotInPtxVersion}},
      {"requires PTX ISA .version", {RC::kPtxVersion}},
      {"not supported on .target", {RC::kTarget}},
      {"requires .target", {RC::kTarget}},
      {"Not a name of any known instruction", {RC::kUnknownInstruction, RC::kMisplacedQualifier}},
      {"Unknown modifier", {RC::kUnknownQualifier, RC::kMisplacedQualifier}},
      // A second qualifier of one axis that the instruction does not take ('.x2 ... .x8' on ldmatrix) is
      // one too many to ptxas, and unknown to the model.
      {"Multiple", {RC::kDuplicateQualifier, RC::kUnknownQualifier}},
      {"Unexpected number of state spaces", {RC::kDuplicateQualifier, RC::kUnknownQualifier}},
      {"State space mismatch", {RC::kStateSpaceMismatch}},
      {"State space incorrect", {RC::kUnknownQualifier}},
      {"No state space qualifier expected", {RC::kUnknownQualifier}},
      {"Illegal modifier 'Component'", {RC::kDuplicateQualifier}},
      {"Illegal modifier '.b6x16_p32.b8x16'", {RC::kMisplacedQualifier}},
      {"Illegal modifier '.b4x16_p64.b8x16'", {RC::kMisplacedQualifier}},
      {"Illegal modifier", {RC::kQualifierCombination, RC::kUnknownQualifier}},
      {"modifier required", {RC::kMissingQualifier, RC::kDuplicateQualifier}},
      {"Modifier required", {RC::kMissingQualifier}},
      {"is required for instruction", {RC::kMissingQualifier}},
      {"Reduction operation is required", {RC::kMissingQualifier}},
      {"Unexpected number of 'format conversion'", {RC::kQualifierCombination, RC::kDuplicateQualifier}},
      {"Unexpected number of instruction types", {RC::kQualifierCombination}},
      // A type token the instruction does not take ('.f16' after '.b16') is one more type to ptxas, and
      // types out of order ('.s4.s8' for ldmatrix's '.s8.s4') are unexpected ones (ptxas 13.4.92).
      {"Unexpected instruction types",
       {RC::kQualifierCombination, RC::kDuplicateQualifier, RC::kMissingQualifier, RC::kUnknownQualifier,
        RC::kMisplacedQualifier}},
      {"Incorrect instruction type", {RC::kQualifierCombination}},
      {"Incorrect no. of matrix", {RC::kQualifierCombination}},
      {"Illegal type", {RC::kQualifierCombination}},
      // Another instruction's shape ('.m16n16k16' on ldmatrix) is illegal to ptxas, unknown to the model.
      {"Illegal matrix shape", {RC::kQualifierCombination, RC::kUnknownQualifier}},
      {"Illegal alayout", {RC::kQualifierCombination}},
      {"not allowed for", {RC::kQualifierCombination}},
      // "Modifier 'format conversion' require for instruction ldmatrix with shape '.m16n16'": one is missing.
      {"require for instruction", {RC::kQualifierCombination, RC::kMissingQualifier}},
      {"Unexpected number of arguments", {RC::kOperandCount}},
      {"Vector expected", {RC::kOperandKind}},
      {"Vector of size", {RC::kVectorLength, RC::kOperandKind}},
      {"vector size", {RC::kVectorLength, RC::kOperandKind}},
      {"Result register required", {RC::kOperandKind}},
      {"Immediate addresses allowed only", {RC::kAddressForm}},
      {"as address operand", {RC::kRegisterType}},
      {"Unknown symbol", {RC::kUndeclaredName}},
      {"Illegal expression", {RC::kUndeclaredName, RC::kOperandKind}},
      {"does not match formal parameter", {RC::kRegisterType}},
      {"Arguments mismatch",
       {RC::kRegisterType, RC::kOperandCount, RC::kOperandKind, RC::kAddressForm, RC::kVectorLength}},
  };
  return *kPatterns;
}

}  // namespace

bool IsSummaryMessage(absl::string_view message) {
  // ptxas's closing line, and nvJitLink's.
  return absl::StrContains(message, "Ptx assembly aborted due to errors") ||
         absl::StrContains(message, "NVJITLINK_ERROR_PTX_COMPILE");
}

std::vector<ReasonCode> ClassifyPtxasMessage(absl::string_view message) {
  if (IsSummaryMessage(message)) return {};
  for (const Pattern& pattern : Patterns()) {
    if (absl::StrContains(message, pattern.fragment)) return pattern.codes;
  }
  return {};
}

}  // namespace matload
