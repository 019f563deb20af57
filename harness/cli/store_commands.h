// The commands that read the results store (harness/runs/results_store.h)
// and change nothing in it: `runs`, `diff`, `baseline` and `export`; and
// the --baseline check that `conform` and `support` end with. They are how
// a nightly job compares tonight with last night and with its expected
// failures, and hands the result to its CI.
#ifndef MATLOAD_HARNESS_CLI_STORE_COMMANDS_H_
#define MATLOAD_HARNESS_CLI_STORE_COMMANDS_H_

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/runs/baseline.h"
#include "harness/runs/case_record.h"
#include "harness/runs/results_store.h"

namespace matload {

// OpenStoreToRead opens the store --db names (ResultsStore::DefaultPath),
// only to read it. A store that does not exist is kFailedPrecondition, not
// a new file.
absl::StatusOr<ResultsStore> OpenStoreToRead();

// FindRun finds the run `reference` names: a run ID; COMMAND@latest, the
// newest run of COMMAND whatever its status (tonight's, even if it
// stopped: the caller says so, UnfinishedError); or
// COMMAND@latest-finished, the newest that judged everything (Finished);
// each with ~N for the N-th such run before it. A shard is never one of
// these: it judged only its slice, and its merged run is whole.
absl::StatusOr<RunRecord> FindRun(ResultsStore& store, const std::string& reference);

// StoreCommand runs one command on its positional arguments and the flags
// already set, writes to `out` and `err`, and returns the exit status.
using StoreCommand = int (*)(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// RunRunsCommand is `matload runs`: every run in the store, oldest first,
// with its status and cases; --json for a machine.
int RunRunsCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// Runs are named by ID, COMMAND@latest[~N] (the newest runs, whatever
// their status) or COMMAND@latest-finished[~N] (the newest that judged
// everything). diff, baseline and export say so of a run that did not
// finish, how it ended, and exit 2.

// RunDiffCommand is `matload diff RUN_A RUN_B`: per case ID, what B broke,
// fixed, changed, added and removed against A, as text or --json. It exits
// 1 when B regressed against A, and 2, comparing nothing, when either run
// did not finish.
int RunDiffCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// RunBaselineCommand is `matload baseline RUN_ID --out FILE.csv`: the run's
// expected failures, deqp-runner style. An existing FILE is never
// overwritten, and a run that did not finish gives none.
int RunBaselineCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// RunExportCommand is `matload export RUN_ID [--junit FILE.xml] [--csv
// FILE.csv] [--html FILE.html]`: JUnit XML for Jenkins or GitLab, a
// results CSV and the run's page. A run that did not finish is exported,
// then exit 2.
int RunExportCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// RunPruneCommand is `matload prune --keep N [--dry_run]`: it deletes from
// the store the runs that retention (harness/runs/retention.h) no longer
// keeps, with their cases and artifacts, and names each. Run directories on
// disk are left as they are.
int RunPruneCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// FindStoreCommand is the store command named `name`, or nullptr.
StoreCommand FindStoreCommand(absl::string_view name);

// LoadBaseline reads the baseline file at `path` (none if empty), so that
// a run fails on a bad baseline before it starts: a file that cannot be
// read is kFailedPrecondition, a malformed one kInvalidArgument.
absl::StatusOr<std::optional<Baseline>> LoadBaseline(const std::string& path);

// ExpectedHere says whether a run, as it was asked for (its targets, compile
// paths and case filter), would have case `id`.
using ExpectedHere = std::function<bool(const std::string& id)>;

// BaselineExitStatus holds a finished run's cases against `baseline`,
// prints what it found to `out`, and returns the run's exit status: 1 for
// a regression, or with `strict` for a fixed case; 0 when every finding
// is expected; 2 when a baseline line names a case the run should have
// had (`expected_here`) and does not: a stale or mistyped baseline.
int BaselineExitStatus(const Baseline& baseline, const std::vector<CaseRecord>& cases,
                       const ExpectedHere& expected_here, bool strict, std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_STORE_COMMANDS_H_
