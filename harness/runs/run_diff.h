// RunDiff: what changed between two runs, case by case (`matload diff
// RUN_A RUN_B`), so that a nightly job can say what tonight broke or fixed
// against last night without a baseline file. Cases are matched by case ID
// (case_id.h); a case's `finding` bit, not its outcome, decides
// whether it failed, as for baselines (baseline.h).
//
// Each case lands in the lists below by these rules, checked in order:
//   - in B only: `added`, and also `new_failures` if it is a finding in B;
//   - in A only: `removed`;
//   - a finding in B and not in A: `new_failures`;
//   - a finding in A and not in B: `fixed`;
//   - the same finding bit, another outcome: `changed`;
//   - otherwise it counts as `unchanged`.
// `flaky` is a view across those: every case whose outcome is a flake in A
// or in B, whatever other list it is in. A flake that is a finding in B
// alone is still a new failure: the judge, not the diff, decides whether a
// flake needs a person.
#ifndef MATLOAD_HARNESS_RUNS_RUN_DIFF_H_
#define MATLOAD_HARNESS_RUNS_RUN_DIFF_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "harness/runs/case_record.h"
#include "nlohmann/json.hpp"

namespace matload {

// DiffEntry is one case in one list of a RunDiff.
struct DiffEntry {
  std::string id;
  std::optional<CaseOutcome> outcome_a;  // nullopt when the case is not in A
  std::optional<CaseOutcome> outcome_b;  // nullopt when the case is not in B
  std::string detail;     // B's detail message; empty when the case is not in B
  std::string bundle;     // B's bundle, relative to B's run directory; or empty

  friend bool operator==(const DiffEntry&, const DiffEntry&) = default;
};

// RunDiff is two runs compared case by case; every list is sorted by case ID.
struct RunDiff {
  std::vector<DiffEntry> new_failures;
  std::vector<DiffEntry> fixed;
  std::vector<DiffEntry> changed;
  std::vector<DiffEntry> flaky;
  std::vector<DiffEntry> added;
  std::vector<DiffEntry> removed;
  int unchanged = 0;
};

// Diff compares run A's cases with run B's by the rules in the banner. A
// case ID is taken to appear once per run (it is the results store's key).
RunDiff Diff(absl::Span<const CaseRecord> a, absl::Span<const CaseRecord> b);

// OutcomeOrAbsent is a diff entry's outcome in one run as the diff's text
// and page show it: its word, or "absent" where the run lacks the case.
std::string OutcomeOrAbsent(const std::optional<CaseOutcome>& outcome);

// Regressed says whether B has any new failure: what makes `matload diff`
// exit with status 1.
bool Regressed(const RunDiff& diff);

// kDiffTextSectionLimit is how many cases DiffText lists per section before
// "... and N more": a night that broke a whole family stays readable, and
// DiffJson still carries every case.
inline constexpr int kDiffTextSectionLimit = 200;

// DiffText is the diff for a person: the two runs, the counts, then the
// new failures, fixed, flaky, changed, added and removed cases, one line
// each as "ID: OUTCOME_A -> OUTCOME_B", with B's detail and the path of B's
// bundle where there are.
std::string DiffText(const RunRecord& a, const RunRecord& b, const RunDiff& diff);

// DiffJson is the diff for programs: the two runs, the counts, whether B
// regressed, and every entry of every list (an outcome the run lacks is
// null).
nlohmann::json DiffJson(const RunRecord& a, const RunRecord& b, const RunDiff& diff);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_RUN_DIFF_H_
