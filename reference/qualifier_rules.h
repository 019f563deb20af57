// Qualifier rules: the qualifier-level rules of a family table
// (constraints, version and target gates, the fragment table), applied to
// one decoded qualifier set, with or without spelling why it breaks them.
#ifndef MATLOAD_REFERENCE_QUALIFIER_RULES_H_
#define MATLOAD_REFERENCE_QUALIFIER_RULES_H_

#include <vector>

#include "reference/family_spec.h"
#include "reference/ptx_version.h"
#include "reference/reason.h"
#include "reference/target.h"

namespace matload {

// CheckQualifierRules applies the qualifier-level rules to `qualifiers` and
// is true when it breaks none. With `reasons` it adds each broken rule's
// reason to them (legality.h QualifierReasons); without, it stops at the
// first broken rule and spells no message, so that the enumerator's walk
// of every qualifier set of every family for every target stays cheap
// (spelling the target gates' reasons was most of a support sweep's own
// time).
bool CheckQualifierRules(const FamilySpec& spec, const QualifierSet& qualifiers, PtxVersion ptx, Target target,
                         std::vector<Reason>* reasons);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_QUALIFIER_RULES_H_
