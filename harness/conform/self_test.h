// SelfTest: proof that the harness can fail. Each planted bug (a wrong
// lane, a transposed result, an off-by-one row address, a wrong register
// order, a skipped store, a device judge that misjudges) is run on the GPU
// under each judge (judge_place.h), and must be caught; the same forms
// without a bug must pass. A bug in the kernel under test or in the
// expectation is a mismatch, bundled, in ldmatrix and in wmma.load. Under
// the GPU's judge, a bug planted after the judge (where the registers are
// stored) or in the judge itself makes the device's verdicts contradict the
// host's re-judging: the run stops as an infrastructure failure (exit 4),
// never with a finding or a pass. The misjudging checker has no place
// under the host's judge.
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

// SelfTestRow is one planted bug's result under one judge.
struct SelfTestRow {
  JudgePlace judge = JudgePlace::kHost;
  PlantedBug bug = PlantedBug::kNone;
  ConformanceResult result;
  // contradiction: why the run stopped, when the judges contradicted each
  // other (the way a bug the GPU's judge cannot see as a mismatch is caught).
  std::string contradiction;
  // detected: for a bug, caught as the file comment says; for kNone (the
  // control), every case passed.
  bool detected = false;
};

// RunSelfTest runs the control and every planted bug on `device` under
// each judge, each in its own run directory under `directory`.
absl::StatusOr<std::vector<SelfTestRow>> RunSelfTest(int device, const std::string& directory,
                                                     const ConformanceProgress& progress);

// SelfTestMarkdown is the table the self-test reports.
std::string SelfTestMarkdown(const std::vector<SelfTestRow>& rows);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_SELF_TEST_H_
