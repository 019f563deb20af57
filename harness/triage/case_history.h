// CaseHistory: what the results store remembers of one case ID, run by
// run: "has this case ever passed on this machine?", the question a red
// night asks first. The store keeps every run of every command by case ID
// (harness/runs/results_store.h), so the answer is a read.
#ifndef MATLOAD_HARNESS_TRIAGE_CASE_HISTORY_H_
#define MATLOAD_HARNESS_TRIAGE_CASE_HISTORY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/runs/case_record.h"
#include "harness/runs/results_store.h"

namespace matload {

// CaseNight is one run's outcome of the case.
struct CaseNight {
  RunRecord run;
  CaseOutcome outcome = CaseOutcome::kPass;  // the case's outcome in that run
  bool finding = false;  // the outcome needed a person (CaseRecord::finding)
};

// ReadCaseHistory lists every run of the store that has `case_id`, oldest
// first: a shard stands for its night until its shards are merged, then
// the merged run does (so that no night counts twice).
absl::StatusOr<std::vector<CaseNight>> ReadCaseHistory(ResultsStore& store, const std::string& case_id);

// CaseHistorySummary says it in one sentence: "Passed in 3 of 5 runs in
// the store, last in conform-... (2026-11-26, GPU); first a finding in
// conform-... (2026-11-27, GPU).", or that the store has no run of it.
std::string CaseHistorySummary(const std::vector<CaseNight>& nights);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_CASE_HISTORY_H_
