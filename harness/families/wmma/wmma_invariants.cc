#include "harness/families/wmma/wmma_invariants.h"

#include <cstdint>
#include <optional>

#include "absl/strings/str_cat.h"
#include "harness/families/family_runtime.h"
#include "harness/kernels/data_pattern.h"
#include "reference/printer.h"
#include "reference/runtime_ub.h"
#include "reference/wmma_load_table.h"
#include "reference/wmma_semantics.h"

namespace matload {

void CheckWmmaInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
               std::vector<InvariantViolation>& violations) {
  absl::StatusOr<WmmaFragment> fragment = WmmaFragment::For(instruction);
  if (!fragment.ok()) return;  // no layout known on this target: nothing to predict
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  const MatrixCoord dims = WmmaMatrixDims(qualifiers);
  for (const std::string& line : FragmentCoverageViolations(dims.row, dims.col, fragment->elements(),
                                                            [&](int lane, int x) { return fragment->Element(lane, x); })) {
    violations.push_back({"coverage", line});
  }

  // The same random logical matrix, stored as the form's layout says at the
  // case's stride, offset and placement...
  const Variant variant = VariantFor(instruction, runtime);
  const WmmaPointer pointer = std::get<WmmaPointer>(variant.operands);
  // kLargestImage keeps a hand-written case's huge offset or stride from
  // allocating gigabytes; such loads only leave the window on a GPU anyway.
  constexpr std::uint64_t kLargestImage = 1 << 20;
  if (pointer.offset + WmmaExtentBytes(qualifiers, pointer.stride) > kLargestImage) return;
  const int bits = fragment->element_bits();
  std::vector<std::uint64_t> matrix(static_cast<size_t>(dims.row * dims.col));
  for (size_t i = 0; i < matrix.size(); ++i) {
    const std::uint64_t word = DataWord(DataPattern::kRandom, runtime.stream, static_cast<std::uint32_t>(2 * i)) |
                               std::uint64_t{DataWord(DataPattern::kRandom, runtime.stream, static_cast<std::uint32_t>(2 * i + 1))} << 32;
    matrix[i] = bits == 64 ? word : word & ((std::uint64_t{1} << bits) - 1);
  }
  const auto load = [&](const CheckedInstruction& form, std::uint32_t stride, std::uint64_t offset,
                        DataPlacement placement) -> std::optional<LaneValues> {
    const QualifierSet& q = form.form().qualifiers;
    MemoryImage memory;
    std::vector<std::uint8_t>& bytes = placement == DataPlacement::kShared ? memory.shared : memory.global;
    bytes.assign(offset + WmmaExtentBytes(q, stride), 0);
    StoreWmmaMatrix(q, stride, matrix, absl::MakeSpan(bytes).subspan(offset));
    const StateSpace named = form.signature().state_space;
    const std::uint64_t address = placement == DataPlacement::kGlobal ? memory.global_base + offset
                                  : named == StateSpace::kShared      ? offset
                                                                      : memory.shared_generic_base + offset;
    absl::StatusOr<WmmaFragment> layout = WmmaFragment::For(form);
    if (!layout.ok()) return std::nullopt;
    const Outcome outcome = ExecuteWmmaLoad(form, *layout, memory,
                                            {{address}, form.signature().stride ? std::optional(stride) : std::nullopt});
    if (const LaneValues* values = ValuesOf(outcome)) return *values;
    return std::nullopt;
  };
  const std::optional<LaneValues> as_case = load(instruction, pointer.stride, pointer.offset, variant.placement);
  if (!as_case.has_value()) return;  // undefined at these inputs

  // ...and as the other layout says, at its default stride, at offset 0.
  // PTX promises no such equality: a fragment may feed wmma.mma only with
  // the layout it was loaded with (PTX 9.7.14.4.1). Volta's A and B fragments
  // do depend on it (docs/spec-decisions.md wmma.layout.*), so their table rows name a layout, and
  // only rows for both storage orders promise the same fragment.
  if (fragment->entry().layout.has_value()) return;
  const std::optional<CheckedInstruction> other = Sibling(
      instruction, wmma::kLayout, qualifiers.Has(wmma::kLayout, wmma::kRow) ? wmma::kCol : wmma::kRow);
  if (!other.has_value()) return;  // sub-byte A and B have one layout only
  const std::optional<LaneValues> as_other =
      load(*other, static_cast<std::uint32_t>(WmmaDefaultStride(other->form().qualifiers)), 0, variant.placement);
  if (as_other.has_value() && *as_other != *as_case) {
    violations.push_back({"layout", absl::StrCat("the same matrix loaded by ", PrintForm(other->form()),
                                                 " gives another fragment")});
  }
}

}  // namespace matload
