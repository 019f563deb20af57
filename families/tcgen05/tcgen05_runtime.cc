// tcgen05's run-time half: the kernel that runs one tcgen05.ld form, its test
// program, the invariants the reference fuzzer holds its model to, and the
// descriptor that hands them to conform, the bundle writer, the fuzzers and
// `matload model`. families/families.def registers it as tcgen05::Runtime(),
// declared in harness/families/family_runtime.h.
#include "harness/families/family_runtime.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "families/tcgen05/tcgen05_ld_table.h"
#include "families/tcgen05/tcgen05_semantics.h"
#include "harness/families/model_invariants.h"
#include "harness/families/runtime_inputs.h"
#include "harness/families/test_program.h"
#include "harness/kernels/data_pattern.h"
#include "harness/kernels/kernel_text.h"
#include "harness/kernels/planted_bug.h"
#include "reference/form.h"
#include "reference/legality.h"
#include "reference/outcome.h"
#include "reference/printer.h"

namespace matload {
namespace {

// kTcgen05Entry is the kernel's name.
constexpr char kTcgen05Entry[] = "matload_tcgen05_ld";

// The kernel: one variant per block (harness/kernels/kernel_text.h).

// kFillColumns is how many columns one tcgen05.st of the fill writes. The
// fill loop spells out a data word for each of them, so this sets the
// kernel's size: with 32, each kernel was 1,151 lines and ptxas took about
// 80 ms a kernel, nine tenths of the test of every kernel at PTX 9.0; with
// 4, 199 lines and about 30 ms (ptxas 13.0, sm_110a, docs/build-time.md).
constexpr int kFillColumns = 4;

// OutputRegisters counts what a lane stores: the destinations (cdata with
// .spcompress), then .spcompress's mdata, then redval, as
// ExecuteTcgen05Ld predicts them.
int OutputRegisters(const CheckedInstruction& instruction) {
  const OperandSignature& signature = instruction.signature();
  return signature.destination_count + signature.metadata_count + (signature.redval ? 1 : 0);
}

// Tcgen05Frame is the kernel's geometry: no memory window, and a record
// whose operand is the load's TMEM address relative to the allocation
// (.u32 at 16: lane << 16 | column). The output holds OutputRegisters.
KernelFrame Tcgen05Frame(const CheckedInstruction& instruction) {
  return {.record_bytes = kRecordHeaderBytes + 16,
          .window_bytes = 0,
          .output_bytes = kWarpLanes * OutputRegisters(instruction) * 4,
          .has_shared_window = false};
}

// Tcgen05Kernel writes the kernel:
//  1. tcgen05.alloc of all 512 columns (so the allocation starts at column
//     0), and the permit relinquished;
//  2. lane t of warp 0 writes TMEM lane t, column c, with
//     DataWord(pattern, stream, 512 t + c), 32 columns per tcgen05.st;
//  3. the form, at the allocation's address plus the record's, then
//     tcgen05.wait::ld;
//  4. the registers stored, and the Tensor Memory deallocated.
std::string Tcgen05Kernel(const CheckedInstruction& instruction, PlantedBug bug) {
  const OperandSignature& signature = instruction.signature();
  // First output register of each role, in the order OutputRegisters counts.
  const auto first_output = [&signature](OperandRole role) {
    switch (role) {
      case OperandRole::kMetadataVector: return signature.destination_count;
      case OperandRole::kReductionValue: return signature.destination_count + signature.metadata_count;
      default: return 0;
    }
  };
  Form form = instruction.form();
  for (size_t i = 0; i < form.operands.size(); ++i) {
    const OperandRole role = signature.Operands()[i].role;
    Operand& operand = form.operands[i];
    if (auto* vector = std::get_if<VectorOperand>(&operand)) {
      for (size_t k = 0; k < vector->elements.size(); ++k) {
        vector->elements[k] = absl::StrCat("%v", first_output(role) + static_cast<int>(k));
      }
    } else if (auto* redval = std::get_if<RegisterOperand>(&operand)) {
      redval->name = absl::StrCat("%v", first_output(role));
    } else if (auto* address = std::get_if<AddressOperand>(&operand)) {
      *address = AddressOperand{"%taddr", address->offset};
    }
  }
  form.guard.reset();

  std::string ptx = KernelPrologue(instruction, kTcgen05Entry, Tcgen05Frame(instruction));
  std::vector<std::string> fill;
  for (int i = 0; i < kFillColumns; ++i) fill.push_back(absl::StrCat("%fill", i));
  absl::StrAppend(&ptx, "  .shared .align 16 .b32 tmem_slot;\n",
                  "  .reg .b32 %slot, %tmem, %taddr, %offset, %chunk, %index, %column_address, %fill<", kFillColumns,
                  ">;\n  .reg .b64 %slot64;\n  .reg .pred %more;\n  .reg .b32 %v<", OutputRegisters(instruction),
                  ">;\n",
                  // 1. All 512 columns, so that the allocation starts at column 0.
                  "  mov.u64 %slot64, tmem_slot;\n  cvt.u32.u64 %slot, %slot64;\n",
                  "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%slot], ", kTmemColumns, ";\n",
                  "  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n",
                  "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n",
                  "  ld.shared.b32 %tmem, [tmem_slot];\n",
                  // 2. Lane t, column c: DataWord(pattern, stream, 512 t + c).
                  "  mov.u32 %chunk, 0;\nFILL_TMEM:\n");
  for (int i = 0; i < kFillColumns; ++i) {
    absl::StrAppend(&ptx, "  mad.lo.u32 %index, %lane, ", kTmemColumns, ", %chunk;\n  add.u32 %index, %index, ", i,
                    ";\n", DataWordPtx("%index", "%pattern", "%stream", fill[i]));
  }
  absl::StrAppend(&ptx, "  add.u32 %column_address, %tmem, %chunk;\n", "  tcgen05.st.sync.aligned.32x32b.x",
                  kFillColumns, ".b32 [%column_address], {", absl::StrJoin(fill, ", "),
                  "};\n  add.u32 %chunk, %chunk, ", kFillColumns, ";\n", "  setp.lt.u32 %more, %chunk, ", kTmemColumns,
                  ";\n  @%more bra FILL_TMEM;\n", "  tcgen05.wait::st.sync.aligned;\n",
                  // 3. The form under test.
                  "  ld.global.u32 %offset, [%record+", kRecordHeaderBytes, "];\n");
  if (bug == PlantedBug::kOffByOneRow) absl::StrAppend(&ptx, "  add.u32 %offset, %offset, 1;\n");  // one column on
  absl::StrAppend(&ptx, "  add.u32 %taddr, %tmem, %offset;\n  ", PrintForm(form), "\n",
                  "  tcgen05.wait::ld.sync.aligned;\n",
                  // 4. Give the Tensor Memory back before storing.
                  "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n",
                  "  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %tmem, ", kTmemColumns, ";\n",
                  StoreRegistersAndReturn(OutputRegisters(instruction), 32, bug));
  return ptx;
}

// The test program: the variants, their records and the model's prediction
// (harness/families/test_program.h).

// SourcePieces says where each piece of output word `word` of `lane` comes
// from, naming a TMEM cell with `cell`: the two 16-bit halves of a loaded
// word, or with .spcompress one piece, the group of four a kept element is
// chosen from or the kept elements an mdata word indexes. redval, the
// reduction, has no pieces.
std::vector<BitSource> SourcePieces(const CheckedInstruction& instruction, const Tcgen05Layout& layout, int lane,
                                    int word, const std::function<std::string(const Tcgen05Source&)>& cell) {
  const OperandSignature& signature = instruction.signature();
  if (word >= signature.destination_count + signature.metadata_count) return {};
  if (!instruction.form().qualifiers.Present(tcgen05::kSpcompress)) {
    std::vector<BitSource> pieces;
    for (int half = 0; half < 2; ++half) {
      const Tcgen05Source& source = layout.At(lane, word, half);
      pieces.push_back({16 * half, 16 * half + 15,
                        absl::StrCat(cell(source), " bits ", source.cell_bit, "-", source.cell_bit + 15)});
    }
    return pieces;
  }
  if (word < signature.destination_count) {
    const int first = 4 * (word / 2);  // the group of four the kept element is chosen from
    return {{0, 31,
             absl::StrCat("kept element ", word % 2, " of ", cell(layout.At(lane, first, 0)), " .. ",
                          cell(layout.At(lane, first + 3, 0)))}};
  }
  const int indices = 16 * (word - signature.destination_count);  // the kept elements the word indexes
  return {{0, 31,
           absl::StrCat("the 2-bit indices of cdata ", indices, "..",
                        std::min(indices + 16, signature.destination_count) - 1)}};
}

// Tcgen05Program is the TestProgram of one tcgen05.ld form: a TMEM column drawn
// where the access fits, the model run on Tensor Memory filled from the data
// stream.
class Tcgen05Program : public TestProgram {
 public:
  Tcgen05Program(const CheckedInstruction& instruction, const ProgramOptions& options)
      : TestProgram(instruction, options, Tcgen05Frame(instruction), Tcgen05Kernel(instruction, options.bug),
                    kTcgen05Entry),
        layout_(Tcgen05Layout::For(instruction)) {}

  // Variant 0 loads from column 0; the others from a random column at
  // which the whole access stays inside warp 0's lane quarter, or with
  // `undefined`, a share from just past the last column.
  Variant MakeVariant(std::uint64_t seed, int index, bool undefined) const override {
    Variant variant{.index = index,
                    .kind = index == 0 ? "column-0" : "random-column",
                    .pattern = index == 0 ? DataPattern::kTagged : DataPattern::kRandom,
                    .stream = DataStream(seed, index),
                    .placement = DataPlacement::kGlobal,  // unused: the data sit in Tensor Memory
                    .operands = {}};
    SplitMix64 random = OperandRandom(variant.stream);
    const bool past_the_end = undefined && index % 4 == 3;
    std::uint64_t& column = variant.operands.address;
    if (past_the_end) {
      // At or just past the last column: every access runs off the end.
      column = static_cast<std::uint32_t>(kTmemColumns + random.Below(4));
      variant.kind = "column-past-the-end";
    }
    // Redraw until the access fits; a wide one that fits at no drawn
    // column falls back to column 0.
    for (int attempt = 0; index > 0 && !past_the_end; ++attempt) {
      column = attempt < 64 ? static_cast<std::uint32_t>(random.Below(kTmemColumns)) : 0;
      if (std::holds_alternative<LaneValues>(Expect(variant)) || attempt == 64) break;
    }
    return variant;
  }

  Outcome Expect(const Variant& variant) const override {
    TensorMemory tmem;
    for (int lane = 0; lane < kTmemLanesPerWarp; ++lane) {
      for (int column = 0; column < kTmemColumns; ++column) {
        tmem.Set(lane, column, DataWord(variant.pattern, variant.stream, lane * kTmemColumns + column));
      }
    }
    const auto column = static_cast<std::uint32_t>(variant.operands.address);
    return ExecuteTcgen05Ld(instruction(), layout_, tmem, column + AddressOffset(), /*warp=*/0);
  }

  std::string WordSource(int lane, int word) const override {
    const std::vector<BitSource> pieces = SourcePieces(instruction(), layout_, lane, word, [](const Tcgen05Source& s) {
      return absl::StrFormat("access %d lane +%d column +%d", s.access, s.lane, s.column);
    });
    if (pieces.empty()) return "redval";
    return absl::StrJoin(pieces, " ", [](std::string* out, const BitSource& piece) { out->append(piece.source); });
  }

  std::string FaultCaseText(const Variant& variant) const override {
    return absl::StrCat(opcode(), "; column=", variant.operands.address);
  }

 protected:
  void WriteOperands(const Variant& variant, absl::Span<std::uint8_t> operands) const override {
    StoreLittleEndian(variant.operands.address, operands);
  }

 private:
  // AddressOffset is the offset written after the address register, if any.
  std::uint32_t AddressOffset() const {
    for (const Operand& operand : instruction().form().operands) {
      if (const auto* address = std::get_if<AddressOperand>(&operand))
        return static_cast<std::uint32_t>(address->offset);
    }
    return 0;
  }

  Tcgen05Layout layout_;
};

// NewTcgen05Program builds the program. The transposed planted bug has no
// meaning here (kInvalidArgument).
absl::StatusOr<std::unique_ptr<TestProgram>> NewTcgen05Program(const CheckedInstruction& instruction,
                                                               const ProgramOptions& options) {
  if (options.bug == PlantedBug::kTransposedExpectation) {
    return absl::InvalidArgumentError(
        absl::StrCat(Opcode(instruction), ": tcgen05.ld has no transposed twin to plant"));
  }
  return std::make_unique<Tcgen05Program>(instruction, options);
}

// The reference fuzzer's invariants (harness/families/model_invariants.h).

// CheckTcgen05Invariants runs the model on a legal form at a case's inputs and
// adds every invariant it breaks to `violations`. A form the model cannot
// predict, or inputs it calls undefined, add nothing.
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
                 source < 0 ? 0
                            : DataWord(runtime.pattern, runtime.stream,
                                       static_cast<std::uint32_t>(lane * kTmemColumns + source)));
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
    if (auto violation = PrefixViolation(*ValuesOf(prefix), original, smaller.signature().destination_count,
                                         PrintForm(smaller.form()))) {
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

// The descriptor (harness/families/family_runtime.h).

// Tcgen05Descriptor: a variant's operand is the TMEM column
// (VariantOperands::address); running it needs Tensor Memory.
class Tcgen05Descriptor final : public FamilyRuntime {
 public:
  Family family() const override { return Family::kTcgen05Ld; }

  absl::StatusOr<std::unique_ptr<TestProgram>> NewProgram(const CheckedInstruction& instruction,
                                                          const ProgramOptions& options) const override {
    return NewTcgen05Program(instruction, options);
  }

  nlohmann::json OperandsJson(const Variant& variant) const override {
    return {{"tmem_column", variant.operands.address}};
  }

  void SetOperands(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                   Variant& variant) const override {
    variant.operands = {.address = runtime.column};
  }

  void SetInputs(const Variant& variant, RuntimeInputs& runtime) const override {
    runtime.column = static_cast<std::uint32_t>(variant.operands.address);
  }

  absl::StatusOr<ModelExplanation> Explain(const CheckedInstruction& instruction, absl::Span<const std::uint8_t> window,
                                           const RuntimeInputs& inputs) const override {
    TensorMemory tmem;
    for (int lane = 0; lane < kTmemLanes; ++lane) {
      for (int column = 0; column < kTmemColumns; ++column) {
        const size_t at = 4 * (static_cast<size_t>(lane) * kTmemColumns + column) % window.size();
        tmem.Set(
            lane, column,
            window[at] | window[at + 1] << 8 | window[at + 2] << 16 | static_cast<std::uint32_t>(window[at + 3]) << 24);
      }
    }
    const Tcgen05Layout layout = Tcgen05Layout::For(instruction);
    const auto taddr = inputs.column;
    ModelExplanation result{ExecuteTcgen05Ld(instruction, layout, tmem, taddr, /*warp=*/0), 32, {}};
    const std::int64_t split = HalfSplitOffset(instruction).value_or(0);
    const int registers = instruction.signature().destination_count + instruction.signature().metadata_count;
    result.provenance.assign(kWarpLanes, std::vector<std::vector<BitSource>>(registers));
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      for (int reg = 0; reg < registers; ++reg) {
        result.provenance[lane][reg] = SourcePieces(instruction, layout, lane, reg, [&](const Tcgen05Source& s) {
          const TmemCell cell = ResolveSource(s, taddr, split);
          return absl::StrCat("tmem(lane ", cell.lane, ", column ", cell.column, ")");
        });
      }
    }
    return result;
  }

  void CheckInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                       std::vector<InvariantViolation>& violations) const override {
    CheckTcgen05Invariants(instruction, runtime, violations);
  }

  std::optional<HardwareNeed> NeededHardware() const override { return HardwareNeed{.hardware = "Tensor Memory"}; }
};

}  // namespace

namespace tcgen05 {

const FamilyRuntime& Runtime() {
  static const auto* const kDescriptor = new Tcgen05Descriptor;
  return *kDescriptor;
}

}  // namespace tcgen05
}  // namespace matload
