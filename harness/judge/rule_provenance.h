// Rule provenance in support reports: which of the model's rules rest on
// something other than the PTX text (a measurement, a secondary source, an
// inference), and the toolchain's known misdiagnoses, so a reader of
// support.md sees what the matrix's "legal" and "illegal" stand on.
#ifndef MATLOAD_HARNESS_JUDGE_RULE_PROVENANCE_H_
#define MATLOAD_HARNESS_JUDGE_RULE_PROVENANCE_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/judge/discrepancy_registry.h"
#include "nlohmann/json.hpp"
#include "reference/spec_ref.h"

namespace matload {

// UnstatedRules lists every rule of the model (the three family tables, the
// shared register-class and syntax rules, the wmma fragment layouts, the
// inferred rules) whose source is not the PTX text, once each, ordered by id.
std::vector<SpecRef> UnstatedRules();

// Misdiagnoses are the registry's toolchain-misdiagnoses entries measured
// on `toolchain` ("ptxas 13.0.88").
std::vector<const DiscrepancyEntry*> Misdiagnoses(const DiscrepancyRegistry& registry, absl::string_view toolchain);

// RuleProvenanceMarkdown is support.md's "Toolchain misdiagnoses" and
// "Rules not stated by the PTX text" sections.
std::string RuleProvenanceMarkdown(const DiscrepancyRegistry& registry, absl::string_view toolchain);

// AddRuleProvenance adds the same to support.json: "misdiagnoses" (id,
// rule, message, judgement, example, targets) and "unstated_rules" (id,
// source, section).
void AddRuleProvenance(const DiscrepancyRegistry& registry, absl::string_view toolchain, nlohmann::json& json);

}  // namespace matload

#endif  // MATLOAD_HARNESS_JUDGE_RULE_PROVENANCE_H_
