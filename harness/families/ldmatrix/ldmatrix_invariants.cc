#include "harness/families/ldmatrix/ldmatrix_invariants.h"

#include <algorithm>
#include <array>
#include <optional>

#include "absl/strings/str_cat.h"
#include "harness/families/family_runtime.h"
#include "harness/kernels/data_pattern.h"
#include "reference/ldmatrix_semantics.h"
#include "reference/ldmatrix_table.h"
#include "reference/printer.h"
#include "reference/run_geometry.h"
#include "reference/runtime_ub.h"

namespace matload {

void CheckLdmatrixInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                   std::vector<InvariantViolation>& violations) {
  constexpr size_t kWindowBytes = kLdmatrixWindowBytes;
  MemoryImage memory;
  memory.shared.resize(kWindowBytes);
  FillWindow(runtime.pattern, runtime.stream, absl::MakeSpan(memory.shared));
  const std::array<std::uint64_t, kWarpLanes> rows =
      std::get<LdmatrixRows>(VariantFor(instruction, runtime).operands).offsets;
  const auto execute = [&](const CheckedInstruction& form, const LdmatrixLayout& form_layout, const MemoryImage& image,
                           absl::Span<const std::uint64_t> offsets) {
    return ExecuteLdmatrix(form, form_layout, image, LdmatrixRowAddresses(form, image, offsets));
  };
  const LdmatrixLayout layout = LdmatrixLayout::For(instruction);
  const Outcome outcome = execute(instruction, layout, memory, rows);
  const LaneValues* values = ValuesOf(outcome);
  if (values == nullptr) return;

  // Relocation: copy one used lane's row past the window and point there.
  const std::uint32_t used = LdmatrixAddressLanes(instruction.form().qualifiers);
  const int lane = static_cast<int>(runtime.stream % kWarpLanes);
  if ((used >> lane) & 1) {
    MemoryImage extended = memory;
    extended.shared.resize(kWindowBytes + ldmatrix::kRowBytes);
    std::copy_n(memory.shared.begin() + static_cast<long>(rows[lane]), ldmatrix::kRowBytes,
                extended.shared.begin() + kWindowBytes);
    std::array<std::uint64_t, kWarpLanes> moved = rows;
    moved[lane] = kWindowBytes;
    const Outcome relocated = execute(instruction, layout, extended, moved);
    if (ValuesOf(relocated) == nullptr || *ValuesOf(relocated) != *values) {
      violations.push_back({"relocated-row", absl::StrCat("lane ", lane, "'s row moved from ", rows[lane], " to ",
                                                          kWindowBytes, " changed the result")});
    }
  }

  for (const CheckedInstruction& smaller : SmallerNums(instruction, ldmatrix::kNum)) {
    const LdmatrixLayout smaller_layout = LdmatrixLayout::For(smaller);
    const Outcome prefix = execute(smaller, smaller_layout, memory, rows);
    if (ValuesOf(prefix) == nullptr) continue;  // fewer lanes' addresses are checked the same way
    if (auto violation = PrefixViolation(*ValuesOf(prefix), *values, smaller_layout.registers(), PrintForm(smaller.form()))) {
      violations.push_back(*violation);
    }
  }

  // .trans: the byte of (matrix, row, col) in one is that of (matrix, col,
  // row) in the other.
  const bool transposed = instruction.form().qualifiers.Present(ldmatrix::kTrans);
  const std::optional<CheckedInstruction> other =
      Sibling(instruction, ldmatrix::kTrans, transposed ? kAbsent : 0);
  if (!other.has_value()) return;
  const LdmatrixLayout other_layout = LdmatrixLayout::For(*other);
  const Outcome other_outcome = execute(*other, other_layout, memory, rows);
  if (ValuesOf(other_outcome) == nullptr) return;
  const auto mine = LoadedElementBytes(layout, *values);
  const auto theirs = LoadedElementBytes(other_layout, *ValuesOf(other_outcome));
  for (const auto& [element, byte] : mine) {
    const auto [matrix, row, col, part] = element;
    auto it = theirs.find({matrix, col, row, part});
    if (it == theirs.end() || it->second != byte) {
      violations.push_back({"trans", absl::StrCat("matrix ", matrix, " element (", row, ",", col, ") byte ", part,
                                                  " is not element (", col, ",", row, ") of ", PrintForm(other->form()))});
      return;
    }
  }
}

}  // namespace matload
