// Reason: why the instruction model judges an instruction illegal.
#ifndef MATLOAD_REFERENCE_REASON_H_
#define MATLOAD_REFERENCE_REASON_H_

#include <string>
#include "absl/strings/string_view.h"

#include "reference/spec_ref.h"

namespace matload {

// ReasonCode classifies a legality failure. The codes are coarse on purpose:
// the compile oracles map each compiler message onto one of them, so "rejected
// for the spec's reason" can be told from "rejected for another reason".
enum class ReasonCode : unsigned char {
  kSyntax,                 // the text is not a well-formed PTX statement
  kUnknownInstruction,     // not wmma.load, ldmatrix or tcgen05.ld
  kTargetNotInPtxVersion,  // `.target T` does not exist under `.version V`
  kUnknownQualifier,       // a qualifier the instruction does not have
  kDuplicateQualifier,     // one qualifier axis written twice
  kMisplacedQualifier,     // a qualifier where the syntax does not allow it
  kMissingQualifier,       // a mandatory qualifier is absent
  kQualifierCombination,   // qualifiers that may not be combined
  kPtxVersion,             // a feature newer than the module's .version
  kTarget,                 // a feature the .target does not support
  kOperandCount,           // too many or too few operands
  kOperandKind,            // e.g. a register where an immediate belongs
  kVectorLength,           // destination vector of the wrong length
  kRegisterType,           // a register of a type the operand does not accept
  kUndeclaredName,         // a register or variable that was never declared
  kAddressForm,            // an address form the instruction does not accept
  kStateSpaceMismatch,     // an address variable of another state space
  kLimit,                  // larger than matload judges (reference/parser.h kMaxDeclaredNames)
};

// ReasonCodeName is the stable spelling used in text and JSON ("ptx-version").
absl::string_view ReasonCodeName(ReasonCode code);

// Reason is one failure: what kind, which rule, and a sentence for people.
struct Reason {
  ReasonCode code;
  SpecRef rule;
  std::string message;
};

}  // namespace matload

#endif  // MATLOAD_REFERENCE_REASON_H_
