// The `reference` fuzz target: the reference model's spec-layer invariants
// under random forms and random run-time inputs. Each invariant runs the
// model twice, on inputs the spec says must give related results, so a
// model bug shows as a contradiction with no GPU and no compiler involved:
//
//  - relocated rows (ldmatrix) and columns (tcgen05.ld): the same bytes at
//    another address load the same registers;
//  - .num prefixes (ldmatrix, tcgen05.ld): a smaller .num loads the first
//    registers of a larger one;
//  - .trans (ldmatrix): the transposed load holds the transpose;
//  - layout (wmma.load): a .row load of M and a .col load of M-transpose
//    give the same fragment, whatever the stride and placement, wherever
//    the layout's source says the storage order does not change it (not
//    Volta's A and B: docs/spec-decisions.md wmma.layout.*);
//  - coverage (wmma.load): every matrix element is in the fragment, equally
//    often.
//
// Cases that are illegal on their target, or undefined at run time, are
// checked for not crashing the model and go no further.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/finding_store.h"
#include "fuzz/fuzz_case.h"
#include "harness/data_pattern.h"
#include "harness/ldmatrix_kernel.h"
#include "reference/enumerate.h"
#include "reference/ldmatrix_semantics.h"
#include "reference/ldmatrix_table.h"
#include "reference/printer.h"
#include "reference/runtime_ub.h"
#include "reference/tcgen05_ld_table.h"
#include "reference/tcgen05_semantics.h"
#include "reference/wmma_load_table.h"
#include "reference/wmma_semantics.h"

namespace matload {
namespace {

// Violation is one broken invariant: a stable name and the details.
struct Violation {
  std::string invariant;
  std::string details;
};

const LaneValues* ValuesOf(const Outcome& outcome) { return std::get_if<LaneValues>(&outcome); }

// Sibling is the standard spelling of `instruction`'s form with `axis` set
// to `value`, if that is legal on the same target.
std::optional<CheckedInstruction> Sibling(const CheckedInstruction& instruction, int axis, int value) {
  QualifierSet qualifiers = instruction.form().qualifiers;
  qualifiers.Set(axis, value);
  return StandardInstruction(instruction.spec(), qualifiers, instruction.ptx(), instruction.target());
}

// PrefixViolation checks that `smaller` holds the first registers of
// `larger` in every lane.
std::optional<Violation> PrefixViolation(const LaneValues& smaller, const LaneValues& larger, int registers,
                                         absl::string_view what) {
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int reg = 0; reg < registers; ++reg) {
      if (smaller.lane(lane)[reg] != larger.lane(lane)[reg]) {
        return Violation{"num-prefix", absl::StrCat(what, ": lane ", lane, " register ", reg, " is 0x",
                                                    absl::Hex(smaller.lane(lane)[reg]), ", the larger .num has 0x",
                                                    absl::Hex(larger.lane(lane)[reg]))};
      }
    }
  }
  return std::nullopt;
}

// SmallerNums are the legal siblings of `instruction` with a smaller .num.
std::vector<CheckedInstruction> SmallerNums(const CheckedInstruction& instruction, int num_axis) {
  std::vector<CheckedInstruction> smaller;
  for (int value = 0; value < instruction.form().qualifiers.Get(num_axis); ++value) {
    if (std::optional<CheckedInstruction> sibling = Sibling(instruction, num_axis, value)) smaller.push_back(*sibling);
  }
  return smaller;
}

void CheckLdmatrix(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                   std::vector<Violation>& violations) {
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

void CheckWmma(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
               std::vector<Violation>& violations) {
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

void CheckTcgen05(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                  std::vector<Violation>& violations) {
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

}  // namespace
}  // namespace matload

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace matload;
  absl::StatusOr<FuzzCase> fuzz_case = DecodeFuzzInput(data, size);
  if (!fuzz_case.ok()) return -1;
  const Verdict verdict = Judge(fuzz_case->snippet, fuzz_case->ptx, fuzz_case->target);
  if (!verdict.legal()) return 0;
  const CheckedInstruction& instruction = *verdict.checked();
  std::vector<Violation> violations;
  switch (instruction.form().family) {
    case Family::kLdmatrix: CheckLdmatrix(instruction, fuzz_case->runtime, violations); break;
    case Family::kWmmaLoad: CheckWmma(instruction, fuzz_case->runtime, violations); break;
    case Family::kTcgen05Ld: CheckTcgen05(instruction, fuzz_case->runtime, violations); break;
  }
  if (violations.empty()) return 0;
  std::string summary = absl::StrCat("The reference model contradicts itself on ", PrintForm(instruction.form()),
                                     " for ", instruction.target().Name(), ":\n");
  for (const Violation& violation : violations) absl::StrAppend(&summary, "\n- ", violation.invariant, ": ", violation.details);
  ReportFinding({.signature = absl::StrCat("reference/", instruction.spec().MnemonicText(), "/", violations[0].invariant),
                 .summary = summary,
                 .case_text = EncodeFuzzCase(*fuzz_case),
                 .files = {}});
  return 0;
}
