#include "reference/reason.h"

namespace matload {

absl::string_view ReasonCodeName(ReasonCode code) {
  switch (code) {
    case ReasonCode::kSyntax: return "syntax";
    case ReasonCode::kUnknownInstruction: return "unknown-instruction";
    case ReasonCode::kTargetNotInPtxVersion: return "target-not-in-ptx-version";
    case ReasonCode::kUnknownQualifier: return "unknown-qualifier";
    case ReasonCode::kDuplicateQualifier: return "duplicate-qualifier";
    case ReasonCode::kMisplacedQualifier: return "misplaced-qualifier";
    case ReasonCode::kMissingQualifier: return "missing-qualifier";
    case ReasonCode::kQualifierCombination: return "qualifier-combination";
    case ReasonCode::kPtxVersion: return "ptx-version";
    case ReasonCode::kTarget: return "target";
    case ReasonCode::kOperandCount: return "operand-count";
    case ReasonCode::kOperandKind: return "operand-kind";
    case ReasonCode::kVectorLength: return "vector-length";
    case ReasonCode::kRegisterType: return "register-type";
    case ReasonCode::kUndeclaredName: return "undeclared-name";
    case ReasonCode::kAddressForm: return "address-form";
    case ReasonCode::kStateSpaceMismatch: return "state-space-mismatch";
    case ReasonCode::kLimit: return "limit";
  }
  return "unknown";
}

}  // namespace matload
