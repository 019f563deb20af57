#include "reference/qualifier_rules.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {
namespace {

// ClausesText spells the clauses of a target gate: "sm_90a, sm_100+".
std::string ClausesText(const std::vector<TargetClause>& clauses) {
  return absl::StrJoin(clauses, ", ", [](std::string* out, const TargetClause& c) { out->append(c.ToString()); });
}

}  // namespace

bool CheckQualifierRules(const FamilySpec& spec, const QualifierSet& qualifiers, PtxVersion ptx, Target target,
                         std::vector<Reason>* reasons) {
  const size_t before = reasons == nullptr ? 0 : reasons->size();
  bool missing = false;
  for (int axis = 0; axis < static_cast<int>(spec.axes.size()); ++axis) {
    if (spec.axes[axis].mandatory && !qualifiers.Present(axis)) {
      if (reasons == nullptr) return false;
      missing = true;
      reasons->push_back({ReasonCode::kMissingQualifier, spec.axes[axis].ref,
                          absl::StrCat("the ", spec.axes[axis].name, " qualifier is required")});
    }
  }
  for (const Constraint& constraint : spec.constraints) {
    if (ptx >= constraint.from && constraint.when.Holds(qualifiers) && !constraint.require.Holds(qualifiers)) {
      if (reasons == nullptr) return false;
      missing = missing || constraint.code == ReasonCode::kMissingQualifier;
      reasons->push_back({constraint.code, constraint.ref, std::string(constraint.message)});
    }
  }
  for (const VersionGate& gate : spec.version_gates) {
    if (gate.when.Holds(qualifiers) && ptx < gate.minimum) {
      if (reasons == nullptr) return false;
      reasons->push_back(
          {ReasonCode::kPtxVersion, gate.ref,
           absl::StrCat(gate.feature, ": requires PTX ISA ", gate.minimum.ToString(), ", not ", ptx.ToString())});
    }
  }
  for (const TargetGate& gate : spec.target_gates) {
    if (!gate.when.Holds(qualifiers)) continue;
    bool available = false;
    for (const TargetClause& clause : gate.any_of) available = available || clause.Matches(target, ptx);
    if (!available) {
      if (reasons == nullptr) return false;
      reasons->push_back({ReasonCode::kTarget, gate.ref,
                          absl::StrCat(gate.feature, ": not supported on ", target.Name(), " at PTX ISA ",
                                       ptx.ToString(), "; it needs ", ClausesText(gate.any_of))});
    }
  }
  if (!missing && spec.FindFragment(qualifiers) == nullptr) {
    if (reasons == nullptr) return false;
    reasons->push_back(
        {ReasonCode::kQualifierCombination, spec.fragment_table_ref,
         absl::StrCat("no ", spec.MnemonicText(), " form has these qualifiers in ", spec.fragment_table_ref.section)});
  }
  return reasons == nullptr || reasons->size() == before;
}

}  // namespace matload
