// ConformRecorder: the recorder of a conformance run (conformance_run.h).
// The executor hands it each judged variant; it files the bundles, gathers
// the variants of each case (ConformTally), holds a failing case back for
// its re-runs, and, once a case is final, adds it to the run's totals
// and stores it in the results store with those totals and the bundle
// index, in one transaction (harness/runs/run_journal.h). A resumed run's
// recorder takes all of that back first, so that the run ends as an
// uninterrupted one would.
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_RECORDER_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_RECORDER_H_

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "harness/conform/bundle_writer.h"
#include "harness/conform/conform_tally.h"
#include "harness/conform/conformance_run.h"
#include "harness/judge/case_summary.h"
#include "harness/runs/case_record.h"

namespace matload {

// ConformRecorder records one run's cases. `result` must outlive it.
class ConformRecorder {
 public:
  // kNearMissKey is the artifact that marks the near-miss sweep recorded.
  static constexpr absl::string_view kNearMissKey = "conform/near-miss";
  // kTotalsKey and kBundlesKey are the artifacts each commit stores the
  // run's totals (TotalsJson) and bundle index (BundleWriter::State) under.
  static constexpr absl::string_view kTotalsKey = "conform/totals";
  static constexpr absl::string_view kBundlesKey = "conform/bundles";

  ConformRecorder(const ConformanceOptions& options, ConformanceResult& result);

  // TakeBack takes back what an earlier attempt of a resumed run recorded:
  // its cases, its totals, its bundle index and its markers. A run that is
  // not resumed takes nothing back.
  absl::Status TakeBack();
  // Recorded says whether an earlier attempt recorded the marker `key`.
  bool Recorded(absl::string_view key) const { return markers_.contains(std::string(key)); }

  // Expect says case `id` of `family` is in flight.
  void Expect(const std::string& id, const std::string& family) { tally_.Expect(id, family); }
  // Add counts one judged variant of case `id`, and files a bundle for a finding.
  absl::Status Add(const std::string& id, const BundleCase& bundle_case, JudgedVariant judged);
  // AddSummary counts a worker's summary of case `id`'s variants, and
  // files a bundle for each of its samples, in index order, as
  // `bundle_case` rebuilds it (which may be null for a summary without samples).
  absl::Status AddSummary(const std::string& id, const CaseSummary& summary,
                          const std::function<BundleCase(const FailureSample&)>& bundle_case);
  // NoteRegistryMiss notes that a registry entry over-predicted a fault in
  // case `id`: a finding of the case.
  void NoteRegistryMiss(const std::string& id, std::string miss) { tally_.NoteRegistryMiss(id, std::move(miss)); }
  // NoteUnreproduced notes a fault or hang (`kind`) of case `id` that did
  // not happen again: the case is a flake, a finding.
  void NoteUnreproduced(const std::string& id, CaseClass kind, std::string what) {
    tally_.NoteUnreproduced(id, kind, std::move(what));
  }
  // CommitFinal takes the cases `done` out of the tally, whose every phase
  // is done. A case whose findings a re-run could contradict is held for
  // its --retries re-runs (suspects, suspect_retries.h); the others are recorded, with every
  // held case whose re-runs are done, in one transaction. A case is
  // recorded only once it is final, so that a run stopped at any point
  // resumes (harness/runs/run_journal.h) to the results of an
  // uninterrupted one: what it has not recorded runs again.
  absl::Status CommitFinal(const std::vector<std::string>& done);
  // suspects are the held cases by case ID, for the executor to re-run.
  const std::map<std::string, TalliedCase>& suspects() const { return suspects_; }
  // NoteAttempt notes a re-run of held case `id` whose most severe
  // variant was `worst`.
  void NoteAttempt(const std::string& id, CaseClass worst) {
    suspects_.at(id).record.attempts.push_back(OutcomeOf(worst));
  }
  // Commit records `records`, already counted in the totals, with
  // `artifacts` and the run's totals and bundle index, in one transaction
  // when the run has a results store.
  absl::Status Commit(std::vector<CaseRecord> records, std::map<std::string, std::string> artifacts);
  // recorded is how many cases the run has recorded, taken back ones included.
  size_t recorded() const { return cases_.size(); }
  // WriteResults writes results.tsv, in case ID order, and the bundle
  // index: what the run recorded, whether it judged everything or stopped.
  absl::Status WriteResults(const std::string& identity);

 private:
  // AddToTotals adds a finished case to the run's totals and bundle
  // counts, and makes its bundle path relative to the run directory.
  void AddToTotals(TalliedCase& tallied);

  const ConformanceOptions& options_;
  ConformanceResult& result_;
  BundleWriter bundles_;
  ConformTally tally_;                           // the variants of the cases in flight
  std::map<std::string, TalliedCase> suspects_;  // cases whose findings wait for their re-runs
  std::vector<CaseRecord> cases_;                // every recorded case, taken back ones included
  std::set<std::string> markers_;                // markers an earlier attempt recorded
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_RECORDER_H_
