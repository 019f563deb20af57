// The `reference` fuzz target: the reference model's spec-layer invariants
// under random forms and random run-time inputs. Each invariant runs the
// model twice, on inputs the spec says must give related results, so a
// model bug shows as a contradiction with no GPU and no compiler involved.
// Each family's FamilyRuntime checks its own (families/<family>/
// <family>_runtime.cc):
//
//  - relocated rows (ldmatrix) and columns (tcgen05.ld): the same bytes at
//    another address load the same registers;
//  - .num prefixes (ldmatrix, tcgen05.ld): a smaller .num loads the first
//    registers of a larger one;
//  - .trans (ldmatrix): the transposed load holds the transpose;
//  - layout (wmma.load): a .row load of M and a .col load of M-transpose
//    give the same fragment, whatever the stride and placement, wherever
//    the layout's source says the storage order does not change it (not
//    Volta's A and B: docs/spec-decisions.md wmma.layout.*);
//  - coverage (wmma.load): every matrix element is in the fragment, equally
//    often.
//
// Cases that are illegal on their target, or undefined at run time, are
// checked for not crashing the model and go no further.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/finding_store.h"
#include "fuzz/fuzz_case.h"
#include "harness/families/family_runtime.h"
#include "harness/families/model_invariants.h"
#include "reference/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace matload;
  absl::StatusOr<FuzzCase> fuzz_case = DecodeFuzzInput(data, size);
  if (!fuzz_case.ok()) return -1;
  const Verdict verdict = Judge(fuzz_case->snippet, fuzz_case->ptx, fuzz_case->target);
  if (!verdict.legal()) return 0;
  const CheckedInstruction& instruction = *verdict.checked();
  std::vector<InvariantViolation> violations;
  RuntimeOf(instruction.form().family).CheckInvariants(instruction, fuzz_case->runtime, violations);
  if (violations.empty()) return 0;
  std::string summary = absl::StrCat("The reference model contradicts itself on ", PrintForm(instruction.form()),
                                     " for ", instruction.target().Name(), ":\n");
  for (const InvariantViolation& violation : violations) absl::StrAppend(&summary, "\n- ", violation.invariant, ": ", violation.details);
  ReportFinding({.signature = absl::StrCat("reference/", instruction.spec().MnemonicText(), "/", violations[0].invariant),
                 .summary = summary,
                 .case_text = EncodeFuzzCase(*fuzz_case),
                 .files = {}});
  return 0;
}
