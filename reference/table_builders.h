// Helpers shared by the three family tables, so that what the families have
// in common (.sync, .aligned, ::cta) is written once.
#ifndef MATLOAD_REFERENCE_TABLE_BUILDERS_H_
#define MATLOAD_REFERENCE_TABLE_BUILDERS_H_

#include "absl/strings/string_view.h"
#include <vector>

#include "reference/family_spec.h"

namespace matload {

// PresenceAxis is a single-valued axis such as ".sync" or ".trans".
AxisSpec PresenceAxis(absl::string_view name, absl::string_view spelling, bool mandatory, SpecRef ref);

// DuplicateQualifierRef cites the measurement behind kDuplicateQualifier: the
// PTX text never says a qualifier may not repeat, but ptxas rejects repeats.
inline constexpr SpecRef kDuplicateQualifierRef{"syntax.duplicate-qualifier", kPtxasQualifierMeasurement,
                                                RuleSource::kMeasured};

// QualifierOrderRef cites the measurement that ptxas accepts qualifiers in any
// order except where Placement says otherwise.
inline constexpr SpecRef kQualifierOrderRef{"syntax.qualifier-order", kPtxasQualifierMeasurement,
                                            RuleSource::kMeasured};

// Target(...) parses a known target name; table construction only.
Target KnownTarget(absl::string_view name);

// The clause kinds, shortened for table rows.
TargetClause OnionFrom(absl::string_view name);
TargetClause Exactly(absl::string_view name);
TargetClause FamilyFrom(absl::string_view name, PtxVersion since = {0, 0});

}  // namespace matload

#endif  // MATLOAD_REFERENCE_TABLE_BUILDERS_H_
