// Model invariants: what the reference fuzzer (fuzz/reference_fuzzer.cc)
// holds the reference model to. Each invariant runs the model twice, on
// inputs the spec says must give related results, so a model bug shows as a
// contradiction with no GPU and no compiler involved. Each family's
// invariants are its FamilyRuntime's CheckInvariants, in its own folder;
// these are the pieces they share.
#ifndef MATLOAD_HARNESS_FAMILIES_MODEL_INVARIANTS_H_
#define MATLOAD_HARNESS_FAMILIES_MODEL_INVARIANTS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "reference/legality.h"
#include "reference/outcome.h"

namespace matload {

// InvariantViolation is one broken invariant: a stable name and the details.
struct InvariantViolation {
  std::string invariant;
  std::string details;
};

// ValuesOf is the outcome's values, or nullptr when it has none.
const LaneValues* ValuesOf(const Outcome& outcome);

// Sibling is the standard spelling of `instruction`'s form with `axis` set
// to `value`, if that is legal on the same target.
std::optional<CheckedInstruction> Sibling(const CheckedInstruction& instruction, int axis, int value);

// PrefixViolation checks that `smaller` holds the first registers of
// `larger` in every lane.
std::optional<InvariantViolation> PrefixViolation(const LaneValues& smaller, const LaneValues& larger, int registers,
                                                  absl::string_view what);

// SmallerNums are the legal siblings of `instruction` with a smaller .num.
std::vector<CheckedInstruction> SmallerNums(const CheckedInstruction& instruction, int num_axis);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_MODEL_INVARIANTS_H_
