#include "reference/table_builders.h"

#include <cstdlib>
#include <iostream>

namespace matload {

AxisSpec PresenceAxis(absl::string_view name, absl::string_view spelling, bool mandatory, SpecRef ref) {
  return AxisSpec{.name = name, .spellings = {spelling}, .mandatory = mandatory, .ref = ref};
}

Target KnownTarget(absl::string_view name) {
  absl::StatusOr<Target> target = ParseTarget(name);
  if (!target.ok()) {
    // A table naming an unknown target is a programming error in reference/.
    std::cerr << "matload: family table names " << target.status() << "\n";
    std::abort();
  }
  return *target;
}

TargetClause OnionFrom(absl::string_view name) { return {TargetClause::Kind::kOnionFrom, KnownTarget(name)}; }

TargetClause Exactly(absl::string_view name) { return {TargetClause::Kind::kExactly, KnownTarget(name)}; }

TargetClause FamilyFrom(absl::string_view name, PtxVersion since) {
  return {TargetClause::Kind::kFamilyFrom, KnownTarget(name), since};
}

}  // namespace matload
