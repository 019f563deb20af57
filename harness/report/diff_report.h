// DiffReportHtml: `matload diff A B` as a static, self-contained HTML page:
// the two runs, how many cases are in each list of the diff
// (harness/runs/run_diff.h), then the new failures, fixed and flaky cases
// first, then changed, added and removed, each case with both outcomes,
// B's message and links to B's bundle; with the run report's filters,
// search and "only disagreements" view (a case B's outcome classes as a
// disagreement, harness/report/outcome_class.h).
// templates/diff_report.mustache lays it out.
#ifndef MATLOAD_HARNESS_REPORT_DIFF_REPORT_H_
#define MATLOAD_HARNESS_REPORT_DIFF_REPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/report/run_report.h"
#include "harness/runs/case_record.h"
#include "harness/runs/run_diff.h"

namespace matload {

// DiffReportHtml is the page for `diff` of run `a` against run `b`, given
// B's cases (for their finding bits and bundles); `place_b` says where the
// page lies against B's run directory.
absl::StatusOr<std::string> DiffReportHtml(const RunRecord& a, const RunRecord& b, const RunDiff& diff,
                                           absl::Span<const CaseRecord> b_cases, const ReportPlace& place_b);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_DIFF_REPORT_H_
