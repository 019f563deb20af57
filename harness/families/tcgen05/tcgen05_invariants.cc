#include "harness/families/tcgen05/tcgen05_invariants.h"

#include "absl/strings/str_cat.h"
#include "harness/kernels/data_pattern.h"
#include "reference/printer.h"
#include "reference/tcgen05_ld_table.h"
#include "reference/tcgen05_semantics.h"

namespace matload {

void CheckTcgen05Invariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                  std::vector<InvariantViolation>& violations) {
  const Tcgen05Layout layout = Tcgen05Layout::For(instruction);
  TensorMemory tmem;
  // Column c of the memory holds the pattern's column c - shift, so a load
  // `shift` columns further reads the same cells.
  const auto fill = [&](int shift) {
    for (int lane = 0; lane < kTmemLanes; ++lane) {
      for (int column = 0; column < kTmemColumns; ++column) {
        const int source = column - shift;
        tmem.Set(lane, column,
                 source < 0 ? 0 : DataWord(runtime.pattern, runtime.stream, static_cast<std::uint32_t>(lane * kTmemColumns + source)));
      }
    }
  };
  fill(0);
  const Outcome outcome = ExecuteTcgen05Ld(instruction, layout, tmem, runtime.column, /*warp=*/0);
  const LaneValues* values = ValuesOf(outcome);
  if (values == nullptr) return;
  const LaneValues original = *values;

  // A sibling is spelt with standard operands, so it keeps the case's own
  // immHalfSplitoff: the second access must start at the same cell.
  for (const CheckedInstruction& smaller : SmallerNums(instruction, tcgen05::kNum)) {
    const Tcgen05Layout smaller_layout = Tcgen05Layout::For(smaller);
    const Outcome prefix =
        ExecuteTcgen05Ld(smaller, smaller_layout, tmem, runtime.column, 0, HalfSplitOffset(instruction));
    if (ValuesOf(prefix) == nullptr) {
      violations.push_back({"num-prefix", absl::StrCat(PrintForm(smaller.form()), " is undefined where ",
                                                       PrintForm(instruction.form()), " is not")});
      continue;
    }
    if (auto violation = PrefixViolation(*ValuesOf(prefix), original, smaller_layout.registers(), PrintForm(smaller.form()))) {
      violations.push_back(*violation);
    }
  }

  const int shift = 1 + static_cast<int>(runtime.stream % 7);
  fill(shift);
  const Outcome moved = ExecuteTcgen05Ld(instruction, layout, tmem, runtime.column + shift, 0);
  if (ValuesOf(moved) != nullptr && *ValuesOf(moved) != original) {
    violations.push_back({"relocated-column", absl::StrCat("the same cells ", shift, " columns on give other values")});
  }
}

}  // namespace matload
