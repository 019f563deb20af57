#include "harness/conform/suspect_retries.h"

#include <algorithm>
#include <utility>

#include "harness/judge/case_summary.h"

namespace matload {

bool Retryable(CaseOutcome outcome) {
  return outcome == CaseOutcome::kMismatch || outcome == CaseOutcome::kUnexpectedFault ||
         outcome == CaseOutcome::kMissingFault || outcome == CaseOutcome::kTimeout;
}

CaseWork Rerun(CaseWork work, const CaseRecord& suspect) {
  work.listed = suspect.first_failures;
  return work;
}

absl::StatusOr<CaseClass> AttemptClass(const CaseWork& work, const ItemResult& ran, const LaunchOutcome& outcome,
                                       const FaultClass& fault_class) {
  if (outcome.kind == LaunchOutcome::Kind::kRan) {
    absl::StatusOr<CaseSummary> summary = CaseSummary::Decode(ran.output);
    if (!summary.ok()) return summary.status();
    return summary->Worst();
  }
  if (outcome.kind == LaunchOutcome::Kind::kKernelHang) return CaseClass::kTimeout;
  CaseClass worst = CaseClass::kPass;
  for (size_t position = 0; position < work.size(); ++position) {
    const CaseClass kind = fault_class(work.IndexAt(position));
    if (Severity(kind) > Severity(worst)) worst = kind;
  }
  return worst;
}

TalliedCase Settled(TalliedCase suspect) {
  CaseRecord& record = suspect.record;
  if (record.attempts.empty()) return suspect;
  const bool differs = std::any_of(record.attempts.begin(), record.attempts.end(),
                                   [&](CaseOutcome attempt) { return attempt != record.outcome; });
  record.attempts.insert(record.attempts.begin(), record.outcome);
  if (differs) record.outcome = CaseOutcome::kFlake;
  return suspect;
}

}  // namespace matload
