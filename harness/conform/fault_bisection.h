// FaultBisection: what becomes of a work item whose launch faulted or hung.
// A fault ends the whole launch, so its variants' verdicts are unknown
// until the fault is pinned on one of them. The rules, in order:
//   - an item of one variant takes the fault (or hang) as its verdict;
//   - undefined variants are recorded as faulted together: the spec
//     promises nothing for them, so which one faulted matters less than
//     the launches a bisection would take;
//   - once a case has attributed its first --first_failures faults one by
//     one, the rest of a launch that faulted takes the fault as a whole
//     (unless --confirm_all_faults asks for each predicted fault);
//   - otherwise the item runs again in two halves. If neither half, nor
//     any of theirs, fails so again, the fault did not reproduce, and the
//     case is a flake, never a pass.
#ifndef MATLOAD_HARNESS_CONFORM_FAULT_BISECTION_H_
#define MATLOAD_HARNESS_CONFORM_FAULT_BISECTION_H_

#include <cstddef>
#include <string>
#include <utility>

#include "harness/conform/conform_case_work.h"
#include "harness/gpu/launch_outcome.h"
#include "harness/judge/case_judge.h"

namespace matload {

// BisectionStep is what a faulted item becomes.
struct BisectionStep {
  enum class Kind {
    kAttributeOne,  // one variant: its fault or hang is its verdict (conform attributes it)
    kJudgeWhole,    // every variant of the item takes `whole`, without running again
    kSplit,         // the halves run again; `unreproduced` is the flake if no half fails so
  };
  Kind kind = Kind::kAttributeOne;
  CaseWork whole;  // kJudgeWhole: the item, with its verdict set
  std::pair<CaseWork, CaseWork> halves;
  // kSplit: the class the case takes if the fault never happens again (a
  // fault or a hang), and what to say of it.
  CaseClass unreproduced_kind = CaseClass::kUnexpectedFault;
  std::string unreproduced;
};

// BisectionLimits are the run's options that bound a bisection.
struct BisectionLimits {
  size_t first_failures = 16;       // faults a case attributes one by one
  bool confirm_all_faults = false;  // and every predicted one, when asked
};

// Bisect decides what becomes of `work`, whose launch ended as `outcome` (a
// kernel fault or hang), in a case that has attributed `attributed` faults
// one by one and made `undefined` undefined variants.
BisectionStep Bisect(const CaseWork& work, const LaunchOutcome& outcome, size_t attributed, size_t undefined,
                     const BisectionLimits& limits);

// SplitInTwo is `work`'s two halves: its range, or its listed variants, cut
// in the middle.
std::pair<CaseWork, CaseWork> SplitInTwo(const CaseWork& work);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_FAULT_BISECTION_H_
