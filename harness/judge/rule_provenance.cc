#include "harness/judge/rule_provenance.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "reference/families.h"
#include "reference/inferred_rules.h"
#include "reference/register_class.h"
#include "reference/table_builders.h"

namespace matload {
namespace {

// RulesOf lists the SpecRef of every rule, gate and row of one family table.
std::vector<SpecRef> RulesOf(const FamilySpec& spec) {
  std::vector<SpecRef> rules = {spec.section, spec.fragment_table_ref, spec.operands.ref};
  for (const AxisSpec& axis : spec.axes) rules.push_back(axis.ref);
  for (const Constraint& constraint : spec.constraints) rules.push_back(constraint.ref);
  for (const VersionGate& gate : spec.version_gates) rules.push_back(gate.ref);
  for (const TargetGate& gate : spec.target_gates) rules.push_back(gate.ref);
  for (const FragmentRow& row : spec.fragments) rules.push_back(row.ref);
  for (const RuntimeRule& rule : spec.runtime_rules) rules.push_back(rule.ref);
  return rules;
}

std::string TargetNames(const std::vector<Target>& targets) {
  std::vector<std::string> names;
  for (const Target& target : targets) names.push_back(target.Name());
  return absl::StrJoin(names, ", ");
}

}  // namespace

std::vector<SpecRef> UnstatedRules() {
  std::vector<SpecRef> all = {kRegisterClassRef, kDuplicateQualifierRef, kQualifierOrderRef};
  for (const FamilySpec* spec : AllFamilies()) {
    for (const SpecRef& rule : RulesOf(*spec)) all.push_back(rule);
    all.insert(all.end(), spec->model_sources.begin(), spec->model_sources.end());
  }
  for (const SpecRef& rule : InferredRules()) all.push_back(rule);
  std::map<absl::string_view, SpecRef> by_id;
  for (const SpecRef& rule : all) {
    if (rule.source != RuleSource::kPtxIsa && !rule.id.empty()) by_id.emplace(rule.id, rule);
  }
  std::vector<SpecRef> unstated;
  for (const auto& [id, rule] : by_id) unstated.push_back(rule);
  return unstated;
}

std::vector<const DiscrepancyEntry*> Misdiagnoses(const DiscrepancyRegistry& registry, absl::string_view toolchain) {
  std::vector<const DiscrepancyEntry*> found;
  for (const DiscrepancyEntry& entry : registry.entries()) {
    if (entry.direction == Direction::kToolchainMisdiagnoses && DiscrepancyRegistry::AppliesTo(entry, toolchain)) {
      found.push_back(&entry);
    }
  }
  return found;
}

std::string RuleProvenanceMarkdown(const DiscrepancyRegistry& registry, absl::string_view toolchain) {
  std::string md = absl::StrCat(
      "## Toolchain misdiagnoses\n\nForms the model and ", toolchain,
      " both reject, where the compiler's message is no diagnostic: it names an internal symbol, gives no line, or "
      "names the wrong reason. Each is a `toolchain-misdiagnoses` entry of `corpora/known_discrepancies.json`; "
      "`ToolchainMisdiagnosisTest` assembles its example and fails when the message changes.\n\n");
  const std::vector<const DiscrepancyEntry*> misdiagnoses = Misdiagnoses(registry, toolchain);
  if (misdiagnoses.empty()) absl::StrAppend(&md, "None measured on this compiler.\n");
  for (const DiscrepancyEntry* entry : misdiagnoses) {
    absl::StrAppend(&md, "### ", entry->id, "\n\n- ", entry->judgement, "\n- Compiler says: `",
                    entry->toolchain_message, "`\n- Model rule: `", entry->rule, "`\n- Reproduce: `matload check --target ",
                    entry->targets.front().Name(), " '", entry->example, "'`, and the same snippet through ",
                    toolchain, " for ", TargetNames(entry->targets), "\n\n");
  }
  absl::StrAppend(&md, "## Rules not stated by the PTX text\n\nThe model's rules that rest on a measurement, a "
                       "secondary source or an inference rather than the PTX ISA text (docs/spec-decisions.md "
                       "explains each; `matload model` labels the bits that rest on an inference).\n\n"
                       "| rule | source | rests on |\n| --- | --- | --- |\n");
  for (const SpecRef& rule : UnstatedRules()) {
    absl::StrAppend(&md, "| `", rule.id, "` | ", RuleSourceName(rule.source), " | ", rule.section, " |\n");
  }
  return absl::StrCat(md, "\n");
}

void AddRuleProvenance(const DiscrepancyRegistry& registry, absl::string_view toolchain, nlohmann::json& json) {
  json["misdiagnoses"] = nlohmann::json::array();
  for (const DiscrepancyEntry* entry : Misdiagnoses(registry, toolchain)) {
    json["misdiagnoses"].push_back({{"id", entry->id},
                                    {"rule", entry->rule},
                                    {"message", entry->toolchain_message},
                                    {"judgement", entry->judgement},
                                    {"example", entry->example},
                                    {"targets", TargetNames(entry->targets)}});
  }
  json["unstated_rules"] = nlohmann::json::array();
  for (const SpecRef& rule : UnstatedRules()) {
    json["unstated_rules"].push_back({{"id", std::string(rule.id)},
                                      {"source", std::string(RuleSourceName(rule.source))},
                                      {"section", std::string(rule.section)}});
  }
}

}  // namespace matload
