#include "reference/runtime_ub.h"

namespace matload {

std::vector<RuntimeCondition> RuntimeConditions(const CheckedInstruction& instruction) {
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  std::vector<RuntimeCondition> conditions;
  for (const RuntimeRule& rule : instruction.spec().runtime_rules) {
    if (!rule.when.Holds(qualifiers)) continue;
    bool on_target = rule.on_targets.empty();
    for (const TargetClause& clause : rule.on_targets) {
      on_target = on_target || clause.Matches(instruction.target(), instruction.ptx());
    }
    if (!on_target) continue;
    RuntimeCondition condition{.hazard = rule.hazard, .description = std::string(rule.description), .ref = rule.ref};
    if (instruction.spec().refine_runtime_condition != nullptr) {
      instruction.spec().refine_runtime_condition(qualifiers, instruction.signature(), condition);
    }
    conditions.push_back(std::move(condition));
  }
  return conditions;
}

}  // namespace matload
