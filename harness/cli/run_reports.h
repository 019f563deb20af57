// The HTML pages of runs and diffs as the commands write them
// (harness/report/): report.html in a run's directory when the run ends,
// and the pages `matload export --html`, `matload diff --html` and
// `matload runs --html` write.
#ifndef MATLOAD_HARNESS_CLI_RUN_REPORTS_H_
#define MATLOAD_HARNESS_CLI_RUN_REPORTS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/report/run_report.h"
#include "harness/report/runs_index.h"
#include "harness/runs/case_record.h"
#include "harness/runs/run_diff.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/sm_verdicts.h"

namespace matload {

// WriteRunPage writes the page of `run`, its `cases` and its `extras`
// (harness/report/run_report.h) to `path`. Its
// links reach the run's files in the run's directory, or, where that is not
// on this machine (a published copy), in the page's own directory.
absl::Status WriteRunPage(const RunRecord& run, const std::vector<CaseRecord>& cases, const RunExtras& extras,
                          const std::string& path);

// ArtifactReader reads one of a run's stored artifacts by its key
// (RunJournal::Artifact, or ResultsStore::Artifact for the run's ID).
using ArtifactReader = absl::FunctionRef<absl::StatusOr<std::optional<std::string>>(const std::string& key)>;

// RunExtrasOf reads a run's extras from its stored artifacts: its
// SmVerdicts (kSmVerdictsArtifact) and soak rounds (kSoakRoundsArtifact),
// none of either for a run that stored none. One that does not read back
// is kDataLoss.
absl::StatusOr<RunExtras> RunExtrasOf(ArtifactReader read);

// WriteDiffPage writes the page of `diff`, run `a` against run `b` with
// B's `b_cases`, to `path`, linking B's files as WriteRunPage does.
absl::Status WriteDiffPage(const RunRecord& a, const RunRecord& b, const RunDiff& diff,
                           const std::vector<CaseRecord>& b_cases, const std::string& path);

// WriteRunsIndex writes the runs index of `series`, read from the store at
// `store_path`, to `path`.
absl::Status WriteRunsIndex(const std::vector<RunSeries>& series, const std::string& store_path,
                            const std::string& path);

// FinishWithReport writes the run's report.html, from what the store holds
// of it and as it will end, then ends it (RunJournal::Finish) with
// `exit_status`: a run killed while its report is written is still
// running, and its resumption writes the report again.
absl::Status FinishWithReport(RunJournal& journal, int exit_status);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_RUN_REPORTS_H_
