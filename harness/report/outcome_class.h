// OutcomeClass: what a report makes of a case's outcome and finding bit
// (harness/runs/case_record.h): the class it is coloured by, and
// whether the case is a disagreement, which the reports' "only
// disagreements" view shows.
//
// A disagreement is any case where the GPU or a toolchain and the model
// differ: a finding, a flake, and also a difference the discrepancy
// registry explains (a known fault; a support sweep's near miss or operand
// style that ptxas judges otherwise), which is not a finding but is still
// a place where the spec and the toolchain part.
#ifndef MATLOAD_HARNESS_REPORT_OUTCOME_CLASS_H_
#define MATLOAD_HARNESS_REPORT_OUTCOME_CLASS_H_

#include <string>
#include <vector>

#include "harness/runs/case_outcome.h"

namespace matload {

// OutcomeClass is one colour of the reports.
enum class OutcomeClass {
  kAgree,      // pass; an illegal form rejected; a fault the model predicts
  kUndefined,  // the spec leaves it undefined: recorded, never compared
  kNotRun,     // the device or toolchain cannot run it
  kKnown,      // a disagreement the discrepancy registry explains
  kFinding,    // a disagreement that needs a person
  kFlake,      // re-runs disagreed
  // kToolchainMisdiagnoses is reserved for the support data's class of
  // forms a toolchain rejects with the wrong reason (issue 20, the errata
  // work); no outcome word maps to it yet.
  kToolchainMisdiagnoses,
  kOther,  // no outcome, or a finding's outcome on a case that is no finding: shown, never hidden
};

// ClassOf classes a case by its outcome and finding bit.
OutcomeClass ClassOf(CaseOutcome outcome, bool finding);

// IsDisagreement says whether a case of `kind` is a disagreement (banner).
bool IsDisagreement(OutcomeClass kind);

// LegendEntry says how the reports show one class.
struct LegendEntry {
  OutcomeClass kind;
  const char* css;      // the CSS class that colours it (templates/report.css)
  const char* meaning;  // the legend's words
};

// Legend is every class in the order the legend lists them.
const std::vector<LegendEntry>& Legend();

// LegendOf is `kind`'s entry.
const LegendEntry& LegendOf(OutcomeClass kind);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_OUTCOME_CLASS_H_
