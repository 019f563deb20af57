// Enumeration: every legal form for a (PTX version, target) pair, and the
// near-miss illegal forms one qualifier or operand away from a legal one.
// Together they are the conformance space.
#ifndef MATLOAD_REFERENCE_ENUMERATE_H_
#define MATLOAD_REFERENCE_ENUMERATE_H_

#include <vector>

#include "reference/family_spec.h"
#include "reference/form.h"
#include "reference/legality.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// StandardRegisterFile is the set of declarations every enumerated form is
// written against: %r<128> (.b32) and %rd<2> (.b64) destinations, %meta<8>
// (.b32) metadata vectors, %addr (.b64), %addr32, %stride, %taddr and
// %redval (.b32), wrong-typed pools %h (.b16), %f (.f32) and %p (.pred), and
// one .shared and one .global variable.
const std::vector<Declaration>& StandardRegisterFile();

// UsedStandardDeclarations keeps the StandardRegisterFile declarations of
// the names `instruction` uses, so that a reproducer or a one-form kernel
// declares no more than it needs.
std::vector<Declaration> UsedStandardDeclarations(const RawInstruction& instruction);

// OperandStyle picks one way to write a signature's operands.
struct OperandStyle {
  enum class Address : unsigned char { kRegister64, kRegister32, kRegisterPlusOffset };
  enum class Stride : unsigned char { kNone, kRegister, kImmediate };
  Address address = Address::kRegister64;
  Stride stride = Stride::kNone;
};

// OperandStyles lists the styles that apply to `signature`: 3 address forms
// for memory (2 for Tensor Memory), times 3 stride forms where a stride is
// allowed. The first is the plain style.
std::vector<OperandStyle> OperandStyles(const OperandSignature& signature);

// StandardOperands writes a signature's operands in `style` with registers
// from the StandardRegisterFile.
std::vector<Operand> StandardOperands(const OperandSignature& signature, OperandStyle style);

// LegalQualifierSets lists every qualifier set of `spec` that the model
// judges legal for (ptx, target), in a fixed order.
std::vector<QualifierSet> LegalQualifierSets(const FamilySpec& spec, PtxVersion ptx, Target target);

// StandardInstruction judges `qualifiers` of `spec`, written with the
// standard register file and its first operand style (a 64-bit address
// register; Tensor Memory's 32-bit taddr), for (ptx, target):
// the checked instruction a kernel or the reference model takes, or nullopt
// if the model finds it illegal.
std::optional<CheckedInstruction> StandardInstruction(const FamilySpec& spec, const QualifierSet& qualifiers,
                                                      PtxVersion ptx, Target target);

// StandardInstructions lists the StandardInstruction of every legal
// qualifier set of every family for (ptx, target): one checked instruction
// per qualifier set, as kernels and the reference model take them.
std::vector<CheckedInstruction> StandardInstructions(PtxVersion ptx, Target target);

// LegalForms lists every legal form of every family for (ptx, target): each
// legal qualifier set in each operand style.
std::vector<Form> LegalForms(PtxVersion ptx, Target target);

// NearMissInstructions lists instructions one step from a legal form (one
// qualifier changed, dropped, repeated, moved or foreign; one operand
// changed in count, kind, length or register type) that the model judges
// illegal, each once, in a fixed order.
std::vector<RawInstruction> NearMissInstructions(PtxVersion ptx, Target target);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_ENUMERATE_H_
