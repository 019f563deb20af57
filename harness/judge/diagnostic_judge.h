// DiagnosticJudge: whether a compiler's rejection of a form the model
// rejects too tells its user what is wrong. Every such case of a sweep is
// judged (issue 31), so that misdiagnoses are counted per toolkit and each
// distinct one is registered (corpora/known_discrepancies.json,
// toolchain-misdiagnoses) rather than found one by one.
#ifndef MATLOAD_HARNESS_JUDGE_DIAGNOSTIC_JUDGE_H_
#define MATLOAD_HARNESS_JUDGE_DIAGNOSTIC_JUDGE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/compile/batch_checker.h"
#include "reference/reason.h"

namespace matload {

// MisdiagnosisKind is what makes a rejection no diagnostic, most telling
// first: a rejection that is several is judged the first.
enum class MisdiagnosisKind : unsigned char {
  // kInternalSymbol: a message names what the user never wrote: an internal
  // symbol ("__cuda_sm7x_wmma_m16n16k8_acc_f16", "__nv..."), a builtin or a
  // prototype, an instruction the form is not ('mov' for an ldmatrix), or a
  // modifier the form does not hold ('Component' for '.a').
  kInternalSymbol,
  // kNoLine: a message points at no line of the form: at ptxas's
  // "<builtin>" helpers, or at no line at all (CompilerVerdict::unplaced).
  kNoLine,
  // kWrongReason: the messages name reasons (diagnostic_classifier.h), and
  // none of them is one the model gives. "Unknown qualifier" and "unknown
  // instruction" count as the model's version or target gate: a qualifier
  // the compiler does not know at that version or on that target, alone or
  // as part of an instruction's name ('tcgen05.ld.red' at PTX 8.7). A
  // syntax error that stops inside the form's qualifiers names an unknown
  // qualifier (one that is no token of the module's language). A wrong
  // operand count counts as a fault of a qualifier set that makes no form
  // (whose operands the model does not judge).
  kWrongReason,
};

// MisdiagnosisKindName spells a kind for reports: "internal symbol", "no
// line", "wrong reason".
absl::string_view MisdiagnosisKindName(MisdiagnosisKind kind);

// Misdiagnosis is one rejection judged no diagnostic, and the message that
// makes it so.
struct Misdiagnosis {
  MisdiagnosisKind kind;
  std::string message;
};

// JudgeDiagnostic judges the compiler's rejection `compiler` of
// `instruction` (the form as printed: "ldmatrix.sync.aligned..."), which the
// model rejects with `model_reasons`. nullopt: the rejection names the form
// and a reason the model gives, or names no reason the classifier knows
// (which says nothing either way).
std::optional<Misdiagnosis> JudgeDiagnostic(absl::string_view instruction, const std::vector<ReasonCode>& model_reasons,
                                            const CompilerVerdict& compiler);

// MessageShape is `message` with every quoted part ('.x3', 'sm_90') and
// every internal symbol (__cuda_...) replaced by "…": what makes two
// misdiagnoses the same one, told apart only by the form they were drawn by.
std::string MessageShape(absl::string_view message);

}  // namespace matload

#endif  // MATLOAD_HARNESS_JUDGE_DIAGNOSTIC_JUDGE_H_
