// Inferred rules: the places where the PTX text is silent and the model
// decides, each tagged RuleSource::kInferred with what it was inferred from.
//
// Users must be able to tell a predicted bit the text fixes from one that
// rests on an inference, so `matload model` labels every register bit with
// the inferred rules it depends on, and the support report lists them.
// docs/spec-decisions.md explains each decision; reports/spec-errata.md
// holds the spec's words that leave it open.
#ifndef MATLOAD_REFERENCE_INFERRED_RULES_H_
#define MATLOAD_REFERENCE_INFERRED_RULES_H_

#include <vector>

#include "reference/legality.h"
#include "reference/spec_ref.h"

namespace matload {

// InferredRules lists every family's inferred rules (FamilySpec::
// inferred_rules, in AllFamilies() order), for reports and tests.
const std::vector<SpecRef>& InferredRules();

// ModelInferences are the inferred rules one modelled execution rests on.
struct ModelInferences {
  std::vector<SpecRef> every_register;  // every bit of every loaded register
  std::vector<SpecRef> reduction;       // tcgen05.ld.red's redval
  std::vector<SpecRef> definedness;     // whether the run is defined at all
};

// InferencesFor says which inferred rules `instruction`'s modelled
// execution rests on (its family's FamilySpec::inferences).
ModelInferences InferencesFor(const CheckedInstruction& instruction);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_INFERRED_RULES_H_
