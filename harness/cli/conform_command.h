// `matload conform` and `matload selftest`: the GPU differential, and the
// proof that it can fail.
#ifndef MATLOAD_HARNESS_CLI_CONFORM_COMMAND_H_
#define MATLOAD_HARNESS_CLI_CONFORM_COMMAND_H_

#include <optional>
#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/cli/progress_reporter.h"
#include "harness/conform/conformance_run.h"
#include "harness/platform/exit_status.h"
#include "harness/runs/baseline.h"
#include "harness/runs/run_journal.h"

namespace matload {

// RunConform runs a conformance run as a run in the results store
// (`request.start` says which: harness/runs/run_journal.h), with a
// progress bar on a terminal, and prints the summary table to `out`. It
// returns the exit status, which the run is stored with: 0 when nothing
// needs a human (or, with a baseline, every finding is expected), 1 when
// there are findings (regressions), otherwise ExitStatusFor the failure
// (exit_status.h).
// ConformRequest is what `matload conform` was asked for.
struct ConformRequest {
  ConformanceOptions options;
  RunStart start;
  std::optional<Baseline> baseline;  // expected failures (--baseline)
  bool strict_baseline = false;      // a fixed baseline line is an error too
  int progress_seconds = 10;         // off a terminal, a progress line this often (ProgressReporter)
  bool no_cache = false;             // no fault memory (ConformanceOptions::fault_memory)
};

int RunConform(ConformRequest request, std::ostream& out, std::ostream& err);

// ConformProgressTo passes a conformance run's progress to `reporter`,
// each kind of item (forms, registry confirmations, re-runs, ...) a phase
// of its own; the self-test's runs and a soak's rounds start their phases
// again.
ConformanceProgress ConformProgressTo(ProgressReporter& reporter);

// ConformOptionsJson is what decides a conform run's cases and results:
// a resumed run must be asked for with the same.
std::string ConformOptionsJson(const ConformanceOptions& options, const std::string& filter_text);

// ParseConformOptionsJson reads ConformOptionsJson back, as far as it
// decides a run's reports (the filter stays text): `matload merge` writes
// the merged run's summary with them. Options that do not read back are
// kDataLoss.
absl::StatusOr<ConformanceOptions> ParseConformOptionsJson(absl::string_view json);

// RunSelfTestCommand runs the self-test under `directory` and prints its
// table: 0 when every planted bug was detected and the control passed.
int RunSelfTestCommand(int device, const std::string& directory, int progress_seconds, std::ostream& out,
                       std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_CONFORM_COMMAND_H_
