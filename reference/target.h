// Target: a PTX .target value (sm_90, sm_100a, sm_120f) and the facts about it.
//
// Targets are values, not numbers: an arch-specific target ("a") has features
// no other target has, and a family-specific target ("f") shares features
// only with later members of its family. Feature requirements are therefore
// expressed as TargetClause values, never as `sm >= N` comparisons.
#ifndef MATLOAD_REFERENCE_TARGET_H_
#define MATLOAD_REFERENCE_TARGET_H_

#include <compare>
#include <optional>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "reference/ptx_version.h"
#include "reference/spec_ref.h"

namespace matload {

// TargetVariant is the suffix of a target name.
enum class TargetVariant : unsigned char {
  kBaseline,        // sm_90: the onion model, features carry forward
  kArchSpecific,    // sm_90a: features of exactly this architecture
  kFamilySpecific,  // sm_100f: features of this family from this member on
};

// Target names one .target value.
struct Target {
  int sm = 0;  // the XY of sm_XY
  TargetVariant variant = TargetVariant::kBaseline;

  friend auto operator<=>(const Target&, const Target&) = default;
  friend bool operator==(const Target&, const Target&) = default;

  // Name spells the target as PTX does: "sm_100a".
  std::string Name() const;
};

// TargetFamily groups family-specific targets (PTX ".target" notes).
enum class TargetFamily : unsigned char { kNone, kSm10x, kSm11x, kSm12x };

// TargetInfo is one row of the target table.
struct TargetInfo {
  Target target;
  PtxVersion introduced;               // first PTX ISA version with this .target
  std::optional<PtxVersion> withdrawn;  // first version without it (the sm_101 rename)
  TargetFamily family = TargetFamily::kNone;
  SpecRef source;
};

// AllTargets lists every target matload models, sm_70 to sm_121f, in the
// order reports print them.
const std::vector<TargetInfo>& AllTargets();

// FindTarget returns the table row for `target`, or nullptr if unknown.
const TargetInfo* FindTarget(Target target);

// TargetExistsIn says whether `.target T` is valid under `.version V`.
bool TargetExistsIn(Target target, PtxVersion version);

// ParseTarget accepts a known target name such as "sm_100a".
absl::StatusOr<Target> ParseTarget(absl::string_view name);

// ParseTargetList accepts "all" or a comma-separated list of target names.
absl::StatusOr<std::vector<Target>> ParseTargetList(absl::string_view text);

// TargetClause is one way a feature can be available on a target, exactly as
// the PTX Target ISA Notes phrase it.
struct TargetClause {
  enum class Kind : unsigned char {
    kOnionFrom,   // "requires sm_75 or higher": every later target, any suffix
    kExactly,     // "sm_100a": that target only
    kFamilyFrom,  // "sm_100f or higher in the same family": later a/f members
  };
  Kind kind;
  Target target;
  PtxVersion since{0, 0};  // the clause holds only from this PTX ISA version

  // Matches says whether the clause makes the feature available.
  bool Matches(Target candidate, PtxVersion version) const;
  // ToString spells the clause for messages: "sm_100f or higher in the same family".
  std::string ToString() const;
};

}  // namespace matload

#endif  // MATLOAD_REFERENCE_TARGET_H_
