// RunsIndex: every night of a results store on one page, the view a fleet
// admin opens first. Runs are grouped into series, one per command, GPU,
// driver and toolkits, so that a new driver starts a new line rather than
// hiding in an old one. Each series shows its trend (every run's cases by
// outcome class, as a bar), the cases its newest run found, each with the
// run it has been failing since, and for each run the SMs the GPU judge
// heard from and which of them called blocks wrong, so that a fleet sees
// an SM that keeps disagreeing night after night. templates/runs_index.mustache lays it
// out; `matload runs --html` writes it.
#ifndef MATLOAD_HARNESS_REPORT_RUNS_INDEX_H_
#define MATLOAD_HARNESS_REPORT_RUNS_INDEX_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/report/outcome_class.h"
#include "harness/runs/case_record.h"
#include "harness/runs/sm_verdicts.h"

namespace matload {

// IndexedRun is what the index keeps of one run: its record, its cases
// counted by outcome class, the IDs of its findings, and the GPU judge's
// verdicts by GPU and SM (none for a run the host judged).
struct IndexedRun {
  RunRecord run;
  size_t cases = 0;
  std::map<OutcomeClass, size_t> by_class;
  absl::flat_hash_set<std::string> findings;
  SmVerdicts sm_verdicts;
};

// FailingCase is a finding of a series' newest run: since which run it has
// been a finding in every run of the series, and in how many.
struct FailingCase {
  std::string id;
  const IndexedRun* since = nullptr;
  int runs = 0;
};

// RunSeries is one command's runs on one GPU model, driver and toolkits,
// oldest first, and the findings of its newest run.
struct RunSeries {
  std::string command, gpu, driver, toolkits;
  std::vector<const IndexedRun*> runs;
  std::vector<FailingCase> failing;
};

// RunsIndex gathers the index one run at a time, so that a store of large
// sweeps is never in memory at once.
class RunsIndex {
 public:
  // Add counts `run`'s `cases` and keeps its `sm_verdicts`; runs are added
  // oldest first (NightRuns of ResultsStore::Runs, so that no night counts
  // twice).
  void Add(const RunRecord& run, absl::Span<const CaseRecord> cases, const SmVerdicts& sm_verdicts = {});
  // Series groups the runs added, the series with the newest run first,
  // each with its failing cases in ID order. A run that did not finish
  // breaks no streak: it may not have reached the case. Any other run
  // without the case as a finding ends its streak.
  std::vector<RunSeries> Series() const;

 private:
  std::vector<IndexedRun> runs_;
};

// TrendChartSvg draws a series' runs, oldest on the left, as bars of their
// cases' shares by outcome class, coloured as the legend (templates/report.css),
// a run that did not finish outlined in a dashed line; each bar is titled
// with its run, status and counts. Inline SVG, no script.
std::string TrendChartSvg(const RunSeries& series);

// RunsIndexHtml is the page of `series`, made from the store at
// `store_path` (which its marker names, so that `runs --html` replaces only
// an earlier index of the same store).
absl::StatusOr<std::string> RunsIndexHtml(absl::Span<const RunSeries> series, const std::string& store_path);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_RUNS_INDEX_H_
