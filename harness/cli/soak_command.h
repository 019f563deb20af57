// `matload soak`: a fleet's screen. For the minutes it is given, every GPU
// named runs fresh variants of every legal form of its target, round after
// round, each round a whole conformance run with a seed of its own
// (harness/conform/soak_tally.h), judged on the GPU where a form has a
// plan. The soak is one run in the results store: one row per case, its
// variants summed over the rounds, and the GPU judge's counts by GPU and
// SM, for its page and its JUnit export. A disagreement is a finding with
// its bundle; trouble with the harness or its GPU stops the soak as an
// infrastructure failure (exit 4), keeping the rounds it finished.
// docs/soak.md says how to run one every week.
#ifndef MATLOAD_HARNESS_CLI_SOAK_COMMAND_H_
#define MATLOAD_HARNESS_CLI_SOAK_COMMAND_H_

#include <ostream>
#include <string>

#include "absl/time/time.h"
#include "harness/conform/conformance_run.h"
#include "harness/conform/soak_tally.h"
#include "harness/runs/run_journal.h"

namespace matload {

// SoakRequest is what `matload soak` was asked for.
struct SoakRequest {
  // options are every round's conformance options but for its seed
  // (SoakRoundSeed of options.seed), its directory and its variants a
  // form, which options.variants gives the first round (--round_variants).
  ConformanceOptions options;
  // round_target: the time each later round is sized to fill
  // (--round_seconds; soak_round_size.h); zero keeps every round at
  // options.variants.
  absl::Duration round_target = absl::Seconds(60);
  RunStart start;
  // duration: no round starts after it has passed (--minutes); the round
  // in flight then finishes, so a soak ends within one round of it.
  absl::Duration duration = absl::Minutes(60);
  int max_rounds = 0;         // --rounds: no more rounds than this; 0 for no bound
  int progress_seconds = 10;  // off a terminal, a progress line this often (ProgressReporter)
  bool no_cache = false;      // no fault memory (ConformanceOptions::fault_memory)
};

// SoakOptionsJson is what decides a soak's rounds, for its run record.
std::string SoakOptionsJson(const SoakRequest& request, const std::string& filter_text);

// SoakRoundsMarkdown is the table of a soak's rounds: each one's seed,
// time, executions and rate, and findings.
std::string SoakRoundsMarkdown(const std::vector<SoakRound>& rounds);

// RunSoak runs the soak as a run in the results store, prints a line per
// round to `err` and, at the end, the rounds and the summary table to
// `out` (summary.md). It returns the exit status the run is stored with: 0 when every
// round judged cleanly, 1 with findings, 2 when its filters take no case,
// otherwise ExitStatusFor the failure that stopped it (exit_status.h).
int RunSoak(SoakRequest request, std::ostream& out, std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_SOAK_COMMAND_H_
