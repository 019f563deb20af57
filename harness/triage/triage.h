// Triage: from a finding's bundle to the evidence a toolchain team acts on.
// It answers the questions a person asks of a red nightly run, each from
// runs on the GPU judged by the model:
//   - does it reproduce, and on every GPU of the host? (replay.h)
//   - which stage is wrong? the kernel through the driver JIT, ptxas at -O3
//     and -O0, and nvJitLink, with each cubin's SASS (triage_builds.h,
//     sass_listing.h, culprit.h);
//   - since which toolkit? every given ptxas release, bisected
//     (regression_range.h);
//   - what is the smallest input that still fails? the variant reduced
//     (variant_reduction.h), then run by its sibling forms (sibling_forms.h).
#ifndef MATLOAD_HARNESS_TRIAGE_TRIAGE_H_
#define MATLOAD_HARNESS_TRIAGE_TRIAGE_H_

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile/ptxas.h"
#include "harness/triage/case_history.h"
#include "harness/triage/culprit.h"
#include "harness/triage/regression_range.h"
#include "harness/triage/replay.h"
#include "harness/triage/sass_listing.h"
#include "harness/triage/sibling_forms.h"
#include "harness/triage/triage_builds.h"
#include "harness/triage/triage_case.h"
#include "harness/triage/variant_reduction.h"

namespace matload {

// TriageRequest is what to triage, and with what.
struct TriageRequest {
  const TriageCase* triage_case = nullptr;
  const Ptxas* ptxas = nullptr;              // the toolkit's, for the -O3/-O0 builds
  std::string cuobjdump;                     // for the cubins' SASS
  std::vector<const Ptxas*> history;         // the releases to bisect over, oldest first
  int repeats = 5;                           // runs per build, GPU and release
  std::chrono::milliseconds timeout{30000};  // per launch
};

// GpuReplay is the case's recorded build replayed on one GPU.
struct GpuReplay {
  int ordinal = 0;
  std::string identity;  // name, UUID, driver
  ReplayTally tally;
};

// BuildReplay is one build, replayed on GPU 0, with its SASS.
struct BuildReplay {
  TriageBuild build;
  std::optional<ReplayTally> tally;  // absent when it was not built
  std::optional<SassListing> sass;   // cubins only
  std::string sass_error;            // why a cubin has no SASS
};

// SiblingReplay is a sibling form run on the reduced variant.
struct SiblingReplay {
  SiblingKind kind;
  std::string change;  // "without .shared"
  std::string label;   // the sibling's form
  ReplayTally tally;
  std::string loads;        // its ptxas cubin's SASS loads; empty when unknown
  std::string loads_error;  // why they are unknown (no ptxas, cuobjdump failed)
};

// TriageResult is everything the triage measured.
struct TriageResult {
  std::string no_gpu;     // why nothing ran on a GPU (there is none); empty when it did
  std::string signature;  // the failure being triaged, as the first replay showed it
  std::vector<GpuReplay> gpus;
  std::vector<BuildReplay> builds;
  std::vector<std::string> release_names;  // "ptxas 12.4.99", oldest first
  std::optional<RegressionRange> range;
  std::optional<Reduction> reduction;  // absent when nothing failed, or the kernel is not matload's
  std::vector<SiblingReplay> siblings;
  // The reduced reproducer: the smallest form that fails the same way (a
  // sibling, or null for the case's own) with the reduced variant, re-run.
  std::shared_ptr<const TestProgram> reduced_program;
  Outcome reduced_expected;  // the model's registers for it, for reduced/expected.bin
  std::optional<ReplayTally> reduced_rerun;
  Culprit culprit;
  // history is the case's earlier runs in the results store, where the
  // command had one (case_history.h).
  std::vector<CaseNight> history;
};

// RunTriage runs every step. Without a GPU it runs the compile-only parts
// (the builds and their SASS) and says so in TriageResult::no_gpu; a
// failure of the harness or the environment is its InfrastructureError
// (exit 4).
absl::StatusOr<TriageResult> RunTriage(const TriageRequest& request);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_TRIAGE_H_
