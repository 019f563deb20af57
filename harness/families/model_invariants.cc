#include "harness/families/model_invariants.h"

#include "absl/strings/str_cat.h"
#include "reference/enumerate.h"

namespace matload {

const LaneValues* ValuesOf(const Outcome& outcome) { return std::get_if<LaneValues>(&outcome); }

std::optional<CheckedInstruction> Sibling(const CheckedInstruction& instruction, int axis, int value) {
  QualifierSet qualifiers = instruction.form().qualifiers;
  qualifiers.Set(axis, value);
  return StandardInstruction(instruction.spec(), qualifiers, instruction.ptx(), instruction.target());
}

std::optional<InvariantViolation> PrefixViolation(const LaneValues& smaller, const LaneValues& larger, int registers,
                                                  absl::string_view what) {
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int reg = 0; reg < registers; ++reg) {
      if (smaller.lane(lane)[reg] != larger.lane(lane)[reg]) {
        return InvariantViolation{"num-prefix", absl::StrCat(what, ": lane ", lane, " register ", reg, " is 0x",
                                                    absl::Hex(smaller.lane(lane)[reg]), ", the larger .num has 0x",
                                                    absl::Hex(larger.lane(lane)[reg]))};
      }
    }
  }
  return std::nullopt;
}

std::vector<CheckedInstruction> SmallerNums(const CheckedInstruction& instruction, int num_axis) {
  std::vector<CheckedInstruction> smaller;
  for (int value = 0; value < instruction.form().qualifiers.Get(num_axis); ++value) {
    if (std::optional<CheckedInstruction> sibling = Sibling(instruction, num_axis, value)) smaller.push_back(*sibling);
  }
  return smaller;
}

}  // namespace matload
