// SelfTest: proof that the harness can fail. Each planted bug (a wrong
// lane, a transposed result, an off-by-one row address, a wrong register
// order, a skipped store) is run on the GPU, and must be detected as a
// mismatch and bundled, in ldmatrix and in wmma.load; the same forms
// without a bug must pass.
#ifndef MATLOAD_HARNESS_CONFORM_SELF_TEST_H_
#define MATLOAD_HARNESS_CONFORM_SELF_TEST_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/conform/conformance_run.h"

namespace matload {

// kSelfTestForms are the forms each planted bug runs on: one ldmatrix form
// and one wmma.load form with several registers, whose transposed twins are
// legal, and the .s8.s4 ldmatrix form of PTX 9.4 (sm_90a), which runs where
// the toolkit's ptxas speaks 9.4 (it has no .trans twin, so the transposed
// bug leaves it out).
inline constexpr char kSelfTestForms[] =
    "^(ldmatrix\\.sync\\.aligned\\.m8n8\\.x4\\.shared\\.b16|wmma\\.load\\.a\\.sync\\.aligned\\.row\\.m16n16k16\\."
    "global\\.f16|"
    "ldmatrix\\.sync\\.aligned\\.m8n16\\.x4\\.shared\\.s8\\.s4)$";

// SelfTestRow is one planted bug's result.
struct SelfTestRow {
  PlantedBug bug = PlantedBug::kNone;
  ConformanceResult result;
  // detected: for a bug, every family saw mismatches and bundled them; for
  // kNone (the control), every case passed.
  bool detected = false;
};

// RunSelfTest runs the control and every planted bug on `device`, each in
// its own run directory under `directory`.
absl::StatusOr<std::vector<SelfTestRow>> RunSelfTest(int device, const std::string& directory,
                                                     const ConformanceProgress& progress);

// SelfTestMarkdown is the table the self-test reports.
std::string SelfTestMarkdown(const std::vector<SelfTestRow>& rows);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_SELF_TEST_H_
