#include "harness/triage/case_history.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "harness/runs/night_runs.h"

namespace matload {

absl::StatusOr<std::vector<CaseNight>> ReadCaseHistory(ResultsStore& store, const std::string& case_id) {
  absl::StatusOr<std::vector<RunRecord>> runs = store.Runs();
  if (!runs.ok()) return runs.status();
  std::vector<CaseNight> nights;
  for (const RunRecord& run : NightRuns(*runs)) {
    absl::StatusOr<std::optional<CaseRecord>> found = store.CaseOfRun(run.id, case_id);
    if (!found.ok()) return found.status();
    if (found->has_value()) nights.push_back({.run = run, .outcome = (*found)->outcome, .finding = (*found)->finding});
  }
  return nights;
}

namespace {

// RunNamed is "RUN (DATE, GPU)".
std::string RunNamed(const CaseNight& night) {
  return absl::StrCat(night.run.id, " (", absl::FormatTime("%Y-%m-%d", night.run.started, absl::UTCTimeZone()),
                      night.run.gpu_name.empty() ? "" : absl::StrCat(", ", night.run.gpu_name), ")");
}

}  // namespace

std::string CaseHistorySummary(const std::vector<CaseNight>& nights) {
  if (nights.empty()) return "The store holds no run of this case.";
  const CaseNight* last_pass = nullptr;
  const CaseNight* first_finding = nullptr;
  int passes = 0;
  for (const CaseNight& night : nights) {
    if (night.finding && first_finding == nullptr) first_finding = &night;
    if (night.outcome != CaseOutcome::kPass) continue;
    ++passes;
    last_pass = &night;
  }
  return absl::StrCat("Passed in ", passes, " of ", nights.size(), " runs in the store",
                      last_pass == nullptr ? "" : absl::StrCat(", last in ", RunNamed(*last_pass)),
                      first_finding == nullptr ? "" : absl::StrCat("; first a finding in ", RunNamed(*first_finding)),
                      ".");
}

}  // namespace matload
