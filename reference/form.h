// Form: an instruction with its qualifiers decoded against a family table.
//
// A Form is order-free (QualifierSet) and keeps operands as written. The
// printer emits its canonical spelling; parse(print(f)) == f.
#ifndef MATLOAD_REFERENCE_FORM_H_
#define MATLOAD_REFERENCE_FORM_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "reference/family_spec.h"
#include "reference/raw_instruction.h"
#include "reference/reason.h"

namespace matload {

// Form is a decoded instruction.
struct Form {
  Family family = Family::kLdmatrix;
  std::optional<std::string> guard;
  QualifierSet qualifiers;
  std::vector<Operand> operands;

  friend bool operator==(const Form&, const Form&) = default;
};

// DecodedQualifiers is the result of reading opcode tokens against a table:
// the qualifier set plus a reason for every token that does not fit
// (unknown, repeated or misplaced).
struct DecodedQualifiers {
  QualifierSet qualifiers;
  std::vector<Reason> reasons;
};

// DecodeQualifiers reads `opcode` (which starts with spec.mnemonic).
DecodedQualifiers DecodeQualifiers(const FamilySpec& spec, const std::vector<std::string>& opcode);

// DecodeForm decodes a raw instruction whose qualifiers all fit its family
// table; otherwise kInvalidArgument naming the first bad token.
absl::StatusOr<Form> DecodeForm(const RawInstruction& raw);

// ToRaw spells a form's opcode in canonical (table) order.
RawInstruction ToRaw(const Form& form);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_FORM_H_
