#include "harness/report/outcome_class.h"

#include "absl/container/flat_hash_map.h"

namespace matload {

OutcomeClass ClassOf(absl::string_view outcome, bool finding) {
  if (outcome == "flake") return OutcomeClass::kFlake;
  if (finding) return OutcomeClass::kFinding;
  // The words of harness/judge/case_judge.h (CaseClassToken), support_sweep.cc
  // and harness/cli/fuzz_command.cc that are not findings.
  static const auto* const kByWord = new absl::flat_hash_map<absl::string_view, OutcomeClass>{
      {"pass", OutcomeClass::kAgree},
      {"illegal_rejected", OutcomeClass::kAgree},
      {"expected_fault", OutcomeClass::kAgree},
      {"undefined_ran", OutcomeClass::kUndefined},
      {"undefined_faulted", OutcomeClass::kUndefined},
      {"unsupported", OutcomeClass::kNotRun},
      {"not_compiled", OutcomeClass::kNotRun},
      {"known_fault", OutcomeClass::kKnown},
      {"legal_rejected", OutcomeClass::kKnown},
      {"illegal_accepted", OutcomeClass::kKnown},
  };
  const auto found = kByWord->find(outcome);
  return found == kByWord->end() ? OutcomeClass::kOther : found->second;
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
