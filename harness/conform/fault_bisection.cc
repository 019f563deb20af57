#include "harness/conform/fault_bisection.h"

#include "absl/strings/str_cat.h"

namespace matload {

BisectionStep Bisect(const CaseWork& work, const LaunchOutcome& outcome, size_t attributed, size_t undefined,
                     const BisectionLimits& limits) {
  const bool hang = outcome.kind == LaunchOutcome::Kind::kKernelHang;
  BisectionStep step;
  if (work.size() == 1) return step;
  if (work.take == VariantRole::kUndefined) {
    step.kind = BisectionStep::Kind::kJudgeWhole;
    step.whole = work;
    step.whole.verdict = CaseVerdict{
        .kind = hang ? CaseClass::kTimeout : CaseClass::kUndefinedFaulted,
        .detail = absl::StrCat(outcome.detail, " (in a launch of ", undefined, " undefined cases)")};
    return step;
  }
  const bool attribute_all = limits.confirm_all_faults && work.take == VariantRole::kPredicted;
  if (attributed >= limits.first_failures && !attribute_all) {
    step.kind = BisectionStep::Kind::kJudgeWhole;
    step.whole = work;
    step.whole.verdict =
        CaseVerdict{.kind = hang ? CaseClass::kTimeout : CaseClass::kUnexpectedFault,
                    .detail = absl::StrCat(outcome.detail, " (", work.size(), " variants from ", work.IndexAt(0),
                                           " on ran in one launch; the case's first ", limits.first_failures,
                                           " faults were attributed one by one)")};
    return step;
  }
  step.kind = BisectionStep::Kind::kSplit;
  step.halves = SplitInTwo(work);
  step.unreproduced_kind = hang ? CaseClass::kTimeout : CaseClass::kUnexpectedFault;
  step.unreproduced = absl::StrCat(hang ? "a hang" : "a fault", " of ", work.size(), " variants from ", work.IndexAt(0),
                                   " on (", outcome.detail, ") did not happen again when they ran in two halves");
  return step;
}

std::pair<CaseWork, CaseWork> SplitInTwo(const CaseWork& work) {
  CaseWork first = work;
  CaseWork second = work;
  const size_t half = work.size() / 2;
  if (work.listed.empty()) {
    first.end = work.begin + static_cast<std::int64_t>(half);
    second.begin = first.end;
  } else {
    first.listed.assign(work.listed.begin(), work.listed.begin() + static_cast<long>(half));
    second.listed.assign(work.listed.begin() + static_cast<long>(half), work.listed.end());
  }
  return {std::move(first), std::move(second)};
}

}  // namespace matload
