// SuspectRetries: the re-runs of a conformance run's failing cases. A case
// whose finding a re-run could contradict (a wrong value, or a fault or a
// hang the model did not predict) is held as a suspect, and its first
// failing variants run again, each time in fresh workers, up to --retries
// times. Each attempt counts as its most severe variant; a re-run that an
// infrastructure failure spoils counts as no attempt. Attempts that
// disagree make the case a "flake", still a finding, so that nothing a GPU
// did once is dropped. A compiler's verdict is not re-run: it does not
// vary from run to run.
#ifndef MATLOAD_HARNESS_CONFORM_SUSPECT_RETRIES_H_
#define MATLOAD_HARNESS_CONFORM_SUSPECT_RETRIES_H_

#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "harness/conform/conform_case_work.h"
#include "harness/conform/conform_tally.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/launch_outcome.h"
#include "harness/judge/case_judge.h"
#include "harness/runs/case_record.h"

namespace matload {

// Retryable says whether a case's outcome could be a flake: a wrong value,
// a fault or a hang the model did not predict.
bool Retryable(CaseOutcome outcome);

// Rerun is the work of one attempt at `suspect`: `work` (its case's
// program, path and seed, any role) with the suspect's first failing
// variants listed.
CaseWork Rerun(CaseWork work, const CaseRecord& suspect);

// FaultClass is the class variant `index` of an attempt takes when its
// launch faulted: JudgeFault's, with the registry's answer for it.
using FaultClass = std::function<CaseClass(std::int64_t index)>;

// AttemptClass is the most severe class among the variants of an attempt
// at `work` whose launch ended as `outcome`: its worker's summary when it
// ran, a timeout when it hung, and each variant's `fault_class` when it
// faulted. A summary that does not decode is kDataLoss.
absl::StatusOr<CaseClass> AttemptClass(const CaseWork& work, const ItemResult& ran, const LaunchOutcome& outcome,
                                       const FaultClass& fault_class);

// Settled is a held case after its re-runs: its attempts start with its
// first outcome, and attempts that disagree make it a "flake".
TalliedCase Settled(TalliedCase suspect);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_SUSPECT_RETRIES_H_
