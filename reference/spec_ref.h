// SpecRef: where a rule of the instruction model comes from.
#ifndef MATLOAD_REFERENCE_SPEC_REF_H_
#define MATLOAD_REFERENCE_SPEC_REF_H_

#include "absl/strings/string_view.h"

namespace matload {

// RuleSource separates what the PTX ISA text says from what matload had to
// measure because the text is silent; reports print the two differently.
enum class RuleSource : unsigned char {
  kPtxIsa,    // stated by the PTX ISA section named in SpecRef::section
  kMeasured,  // measured with a tool; SpecRef::section names the measurement
  kSecondary,  // read out of a secondary source (a library or simulator) the
               // PTX text does not back; SpecRef::section names it
  kHarnessLimit,  // a bound matload sets on what it accepts, not a PTX rule;
                  // SpecRef::section names where it is set
  kInferred,  // decided by matload where the text is silent; SpecRef::section
              // says what it was inferred from (reference/inferred_rules.h)
};

// RuleSourceName is the word reports and `matload model --json` print for a
// source: "ptx-text", "measured", "secondary", "harness-limit", "inferred".
constexpr absl::string_view RuleSourceName(RuleSource source) {
  switch (source) {
    case RuleSource::kPtxIsa:
      return "ptx-text";
    case RuleSource::kMeasured:
      return "measured";
    case RuleSource::kSecondary:
      return "secondary";
    case RuleSource::kHarnessLimit:
      return "harness-limit";
    case RuleSource::kInferred:
      return "inferred";
  }
  return "unknown";
}

// SpecRef tags every rule, gate and table row with a stable id (used in
// reasons, JSON and discrepancy lists) and the text it was taken from.
struct SpecRef {
  absl::string_view id;       // stable, e.g. "ldmatrix.target.m16n16-m8n16"
  absl::string_view section;  // e.g. "PTX 9.0 9.7.14.5.15 ldmatrix, Target ISA Notes"
  RuleSource source = RuleSource::kPtxIsa;
};

// The measurement that the kMeasured rules cite. One place, so a new toolkit
// measurement updates every rule's citation together.
inline constexpr absl::string_view kPtxasQualifierMeasurement =
    "measured with ptxas 13.0.88 on 2026-11-22; reports/model-vs-ptxas/ptxas-13.0.88.md";

}  // namespace matload

#endif  // MATLOAD_REFERENCE_SPEC_REF_H_
