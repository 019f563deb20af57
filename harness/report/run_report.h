// RunReportHtml: one run of `conform`, `support` or `fuzz` as a static,
// self-contained HTML page (report.html in the run directory), made from
// what the results store keeps of it (harness/runs/case_record.h): the
// run's machine, driver and toolkits; its cases counted by outcome, per
// target, family and compile path; and every case that did not agree with
// the model but for those not run (the toolchain cannot target them: 16,000
// of a support sweep's, which the summary counts), by case ID, with its registry entry or message and links to its bundle,
// to filter by family, shape, type, target and outcome, search, and narrow
// to the disagreements. templates/run_report.mustache lays it out.
#ifndef MATLOAD_HARNESS_REPORT_RUN_REPORT_H_
#define MATLOAD_HARNESS_REPORT_RUN_REPORT_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/runs/case_record.h"
#include "harness/runs/sm_verdicts.h"
#include "harness/runs/soak_rounds.h"

namespace matload {

// ReportPlace says where a report lies, so that its links reach the run's
// files: `page_directory` is the directory the page is written to, and
// `run_directory` the run's directory as this machine sees it (the
// RunRecord's, or where a published run was copied). A bundle's files are
// linked where they exist; when the run directory is not at hand, only the
// bundle directory is.
struct ReportPlace {
  std::filesystem::path page_directory;
  std::filesystem::path run_directory;
};

// RunExtras are what the results store keeps of a run besides its record
// and its cases that the run's page shows: the GPU judge's verdicts by SM
// (conform, soak) and a soak's rounds.
struct RunExtras {
  SmVerdicts sm_verdicts;
  std::vector<SoakRound> soak_rounds;
};

// RunReportHtml is the page for `run` and its `cases` (any order), placed
// at `place`, with the GPU judge's verdicts by SM where it gave any, and a
// soak's rounds.
absl::StatusOr<std::string> RunReportHtml(const RunRecord& run, absl::Span<const CaseRecord> cases,
                                          const ReportPlace& place, const RunExtras& extras = {});

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_RUN_REPORT_H_
