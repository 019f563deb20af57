#include "harness/report/outcome_class.h"

namespace matload {

OutcomeClass ClassOf(CaseOutcome outcome, bool finding) {
  if (outcome == CaseOutcome::kFlake) return OutcomeClass::kFlake;
  if (finding) return OutcomeClass::kFinding;
  switch (outcome) {
    case CaseOutcome::kPass:
    case CaseOutcome::kIllegalRejected:
    case CaseOutcome::kExpectedFault: return OutcomeClass::kAgree;
    case CaseOutcome::kUndefinedRan:
    case CaseOutcome::kUndefinedFaulted: return OutcomeClass::kUndefined;
    case CaseOutcome::kUnsupported:
    case CaseOutcome::kNotCompiled: return OutcomeClass::kNotRun;
    case CaseOutcome::kKnownFault:
    case CaseOutcome::kLegalRejected:
    case CaseOutcome::kIllegalAccepted: return OutcomeClass::kKnown;
    // No outcome (the store refuses it), or a finding's outcome on a case
    // that is no finding.
    case CaseOutcome::kUnjudged:
    case CaseOutcome::kMismatch:
    case CaseOutcome::kUnexpectedFault:
    case CaseOutcome::kMissingFault:
    case CaseOutcome::kTimeout:
    case CaseOutcome::kFlake:
    case CaseOutcome::kFinding:
    case CaseOutcome::kCrash: return OutcomeClass::kOther;
  }
  return OutcomeClass::kOther;
}

bool IsDisagreement(OutcomeClass kind) {
  return kind == OutcomeClass::kKnown || kind == OutcomeClass::kFinding || kind == OutcomeClass::kFlake ||
         kind == OutcomeClass::kToolchainMisdiagnoses;
}

const std::vector<LegendEntry>& Legend() {
  static const auto* const kLegend = new std::vector<LegendEntry>{
      {OutcomeClass::kFinding, "o-finding", "finding: the GPU or toolchain disagrees with the model, unexplained"},
      {OutcomeClass::kFlake, "o-flake", "flake: re-runs of the case disagreed"},
      {OutcomeClass::kToolchainMisdiagnoses, "o-misdiagnosis",
       "toolchain misdiagnoses: rejected, for the wrong reason"},
      {OutcomeClass::kKnown, "o-known", "known discrepancy: a disagreement the registry explains"},
      {OutcomeClass::kOther, "o-other", "another outcome"},
      {OutcomeClass::kUndefined, "o-undefined", "undefined by the spec: recorded, not compared"},
      {OutcomeClass::kNotRun, "o-notrun", "not run: the device or toolchain cannot run it"},
      {OutcomeClass::kAgree, "o-agree", "agrees with the model"},
  };
  return *kLegend;
}

const LegendEntry& LegendOf(OutcomeClass kind) {
  for (const LegendEntry& entry : Legend()) {
    if (entry.kind == kind) return entry;
  }
  return Legend().front();
}

}  // namespace matload
