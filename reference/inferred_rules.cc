#include "reference/inferred_rules.h"

#include "reference/families.h"

namespace matload {

const std::vector<SpecRef>& InferredRules() {
  static const auto* const kRules = [] {
    auto* rules = new std::vector<SpecRef>;
    for (const FamilySpec* spec : AllFamilies())
      rules->insert(rules->end(), spec->inferred_rules.begin(), spec->inferred_rules.end());
    return rules;
  }();
  return *kRules;
}

ModelInferences InferencesFor(const CheckedInstruction& instruction) {
  const FamilySpec& spec = instruction.spec();
  return spec.inferences != nullptr ? spec.inferences(instruction.form().qualifiers) : ModelInferences{};
}

}  // namespace matload
