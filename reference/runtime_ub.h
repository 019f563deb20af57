// Runtime UB: the conditions under which the spec leaves a legal
// instruction's result undefined, as data with their numbers.
//
// Legality cannot see these: they depend on addresses, strides and which
// lanes run. The generators produce them on purpose, and the reference model
// refuses to predict an execution that meets one.
#ifndef MATLOAD_REFERENCE_RUNTIME_UB_H_
#define MATLOAD_REFERENCE_RUNTIME_UB_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/family_spec.h"
#include "reference/legality.h"

namespace matload {

// RuntimeCondition is one runtime-UB rule that applies to a checked
// instruction, with the numbers a generator or checker needs.
struct RuntimeCondition {
  RuntimeHazard hazard;
  std::string description;
  SpecRef ref;
  // kMisalignedAddress: every address must be a multiple of this.
  std::optional<int> alignment_bytes;
  // kStrideBelowDefault: the default (and least) stride, in elements.
  std::optional<int> default_stride_elements;
  // kMisalignedStride: stride * element_bits / 8 must be a multiple of
  // alignment_bytes.
  std::optional<int> element_bits;
  // kAddressOutsideSpace: where a generic address may point.
  std::vector<StateSpace> allowed_spaces;
  // kUnusedLaneAddress / ldmatrix: the lanes whose addresses are used (bit i
  // for lane i); the others must still be valid on the targets it names.
  std::uint32_t address_lanes = 0xffffffffu;
};

// RuntimeConditions lists the runtime-UB conditions of `instruction`, from
// its family table's RuntimeRules, on its target.
std::vector<RuntimeCondition> RuntimeConditions(const CheckedInstruction& instruction);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_RUNTIME_UB_H_
