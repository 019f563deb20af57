// CaseId: the stable, human-readable name of every case matload runs, one
// dotted token per axis in the manner of VK-GL-CTS case names, so that
// case lists can include, exclude and shard them, and results, baselines,
// diffs and JUnit are keyed by them across runs and matload versions.
//
// A form's name is its family, then its opcode's qualifiers as the PTX
// spells them in canonical order ("::" and any other character but a
// letter, a digit or '_' written '_': "shared_cta"), then its operand style:
//   ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64
//   wmma_load.a.sync.aligned.row.m16n16k16.shared.f16.addr32.stride_reg
// A support case puts its target first ("sm_90.ldmatrix..."); a conform
// case puts its compile path last ("....addr64.driver_jit"), and
// ".undefined" after that for the variants the spec leaves undefined.
// Instructions that are no enumerated form (near misses) are named by
// their tokens as written plus a hash of their whole text, so that two
// different texts never share a name. The names depend on the PTX text
// alone, never on enumeration order: docs/case-ids.md has the grammar.
#ifndef MATLOAD_HARNESS_RUNS_CASE_ID_H_
#define MATLOAD_HARNESS_RUNS_CASE_ID_H_

#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "reference/enumerate.h"
#include "reference/form.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// FamilyToken is a family's first token: its mnemonic with '_' for '.'
// ("wmma_load", "ldmatrix", "tcgen05_ld").
std::string FamilyToken(const FamilySpec& spec);

// OperandStyleTokens spells a standard operand style (enumerate.h):
// "addr64", "addr32", "addr_offset", Tensor Memory's "taddr" and
// "taddr_offset", then ".stride_reg" or ".stride_imm" where a stride is
// written.
std::string OperandStyleTokens(OperandStyle style, bool tensor_memory);

// InstructionCaseId names any instruction: a decodable form written with
// standard operands in one of its styles gets its family, qualifiers and
// style; a decodable form with other operands gets "ops_<hash>" for
// them; anything else keeps its opcode tokens as written (letters, digits
// and '_' only) and ends in "raw_<hash>".
std::string InstructionCaseId(const RawInstruction& instruction);

// SupportCaseId names a support-sweep case: the target, then the instruction's name.
std::string SupportCaseId(Target target, const RawInstruction& instruction);
// SupportCaseId names it from the instruction's name, InstructionCaseId's.
std::string SupportCaseId(Target target, absl::string_view instruction_id);

// InstructionCaseIds remembers the names InstructionCaseId gives, by the
// instruction's text: a name depends on that text alone, and a support
// sweep names mostly the same instructions on each of its targets, so
// naming each text once spares most of its naming. Threads may share one.
class InstructionCaseIds {
 public:
  // Of is InstructionCaseId(instruction), where `text` is PrintRaw(instruction).
  std::string Of(const RawInstruction& instruction, const std::string& text);

 private:
  std::mutex mutex_;
  absl::flat_hash_map<std::string, std::string> names_;  // by text; guarded by mutex_
};

// CaseGroup is where a support case sits in the support matrix, for the
// reports that name qualifier sets rather than cases (JUnit,
// harness/runs/junit_export.h): `matrix` is its target and family
// ("sm_90.ldmatrix", after the compiler's token when a run sweeps several),
// `qualifiers` the opcode's tokens between them and its style
// ("sync.aligned.m8n8.x4.shared.b16"), and `style` what sets the case
// apart among the cases of those: its operand style ("addr64",
// "addr32.stride_reg") or a near miss's hash ("ops_1a2b3c4d",
// "raw_1a2b3c4d"). Any part may be empty for an ID of another shape.
struct CaseGroup {
  std::string matrix;
  std::string qualifiers;
  std::string style;
};

// SupportCaseGroup reads a support case ID's CaseGroup.
CaseGroup SupportCaseGroup(absl::string_view id);

// ConformCaseId names a conform case: the form with its address width
// (wmma.load's .shared forms run with 32- and 64-bit addresses), the
// compile path ("driver_jit", "ptxas_cubin", "nvjitlink_cubin"), and
// ".undefined" for the variants the spec leaves undefined.
std::string ConformCaseId(const Form& form, int address_bits, absl::string_view compile_path, bool undefined);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_CASE_ID_H_
