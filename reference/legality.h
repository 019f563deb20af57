// Legality: the model's verdict on an instruction for a PTX version and
// target, with every reason it is illegal; and CheckedInstruction, the only
// way to hold an instruction known to be legal.
#ifndef MATLOAD_REFERENCE_LEGALITY_H_
#define MATLOAD_REFERENCE_LEGALITY_H_

#include <optional>
#include "absl/strings/string_view.h"
#include <vector>

#include "reference/family_spec.h"
#include "reference/form.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/reason.h"
#include "reference/target.h"

namespace matload {

class Verdict;

// CheckedInstruction is a legal instruction together with what its legality
// established: the family table, the operand signature, the PTX version and
// the target. Only Judge creates one, so the generators, the kernel emitter
// and the reference model can rely on it.
class CheckedInstruction {
 public:
  const Form& form() const { return form_; }
  const FamilySpec& spec() const { return *spec_; }
  const OperandSignature& signature() const { return signature_; }
  PtxVersion ptx() const { return ptx_; }
  Target target() const { return target_; }

 private:
  friend Verdict Judge(const Snippet& snippet, PtxVersion ptx, Target target);
  CheckedInstruction(Form form, const FamilySpec* spec, OperandSignature signature, PtxVersion ptx, Target target)
      : form_(std::move(form)), spec_(spec), signature_(signature), ptx_(ptx), target_(target) {}

  Form form_;
  const FamilySpec* spec_;
  OperandSignature signature_;
  PtxVersion ptx_;
  Target target_;
};

// Verdict is `legal`, with the checked instruction, or `illegal` with every
// reason the model found.
class Verdict {
 public:
  bool legal() const { return reasons_.empty(); }
  const std::vector<Reason>& reasons() const { return reasons_; }
  // checked is set exactly when legal().
  const std::optional<CheckedInstruction>& checked() const { return checked_; }

 private:
  friend Verdict Judge(const Snippet& snippet, PtxVersion ptx, Target target);
  friend Verdict JudgeText(absl::string_view text, PtxVersion ptx, Target target);
  std::vector<Reason> reasons_;
  std::optional<CheckedInstruction> checked_;
};

// Judge applies every rule of the instruction's family table. Registers are
// checked against the snippet's declarations when it has any; without
// declarations, against the ones a compiler is given for it
// (reference/implicit_declarations.h): the types the operands need, unless
// one name is used for two operands that need different types.
Verdict Judge(const Snippet& snippet, PtxVersion ptx, Target target);

// JudgeText parses `text` as a snippet and judges it; text that does not
// parse is illegal with a kSyntax reason, and a snippet larger than matload
// judges (reference/parser.h kMaxDeclaredNames) with a kLimit reason.
Verdict JudgeText(absl::string_view text, PtxVersion ptx, Target target);

// QualifierReasons applies the qualifier-level rules alone (constraints,
// version and target gates, the fragment table) to a decoded qualifier set.
// The enumerator uses it to walk the qualifier space quickly.
std::vector<Reason> QualifierReasons(const FamilySpec& spec, const QualifierSet& qualifiers, PtxVersion ptx,
                                     Target target);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_LEGALITY_H_
