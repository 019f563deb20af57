// VariantReduction: the smallest input that still fails the same way, as
// gfauto and spirv-reduce reduce a shader: each candidate is checked
// against the model first (it must be a defined case, so that a failure is
// still a finding), then run on the GPU, and kept only when every run
// fails the way the original does (FailureKind, replay.h).
//
// The candidates move the variant toward its form's simplest one, variant
// 0 (tagged data, the generator's default operands), one field at a time,
// then the lanes' own addresses in ever smaller groups (halves down to
// single lanes, as delta debugging narrows a failing input), then align
// its address: the family's own generator says what simple is,
// so no family needs code here.
#ifndef MATLOAD_HARNESS_TRIAGE_VARIANT_REDUCTION_H_
#define MATLOAD_HARNESS_TRIAGE_VARIANT_REDUCTION_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/families/test_program.h"
#include "harness/triage/replay.h"

namespace matload {

// ReductionStep is one candidate and what became of it.
struct ReductionStep {
  std::string change;   // "tagged data", "the default stride (16)", "p aligned to 128 bytes"
  std::string outcome;  // "kept", "passes (3 runs)", "not defined by the model", ...
  bool kept = false;
};

// Reduction is the reduced variant and the way there.
struct Reduction {
  Variant variant;
  std::vector<ReductionStep> steps;
  // The lanes whose own addresses (ldmatrix's rows) the failure still needs:
  // those that differ from variant 0's after the reduction.
  std::vector<int> lanes_needed;
};

// RunVariant runs a candidate on the GPU and tallies its runs.
using RunVariant = std::function<absl::StatusOr<ReplayTally>(const Variant& variant)>;

// ReduceVariant reduces `variant` of `program` (run with `seed`), which fails with
// `signature`, keeping a candidate only when every run of it fails so. A
// failure of `run` (infrastructure, an interrupt) ends it with that error.
absl::StatusOr<Reduction> ReduceVariant(const TestProgram& program, std::uint64_t seed, const Variant& variant,
                                        absl::string_view signature, const RunVariant& run);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_VARIANT_REDUCTION_H_
