// The HTML pages of runs and diffs as the commands write them
// (harness/report/): report.html in a run's directory when the run ends,
// and the pages `matload export --html`, `matload diff --html` and
// `matload runs --html` write.
#ifndef MATLOAD_HARNESS_CLI_RUN_REPORTS_H_
#define MATLOAD_HARNESS_CLI_RUN_REPORTS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/report/runs_index.h"
#include "harness/runs/case_record.h"
#include "harness/runs/run_diff.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/sm_verdicts.h"

namespace matload {

// WriteRunPage writes the page of `run`, its `cases` and its GPU judge's
// `sm_verdicts` to `path`. Its
// links reach the run's files in the run's directory, or, where that is not
// on this machine (a published copy), in the page's own directory.
absl::Status WriteRunPage(const RunRecord& run, const std::vector<CaseRecord>& cases, const SmVerdicts& sm_verdicts,
                          const std::string& path);

// SmVerdictsOf reads a run's stored SmVerdicts artifact (kSmVerdictsArtifact),
// none for a run that has none.
absl::StatusOr<SmVerdicts> SmVerdictsOf(const absl::StatusOr<std::optional<std::string>>& artifact);

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
