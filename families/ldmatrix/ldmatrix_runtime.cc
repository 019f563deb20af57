// ldmatrix's run-time half: the kernel that runs one ldmatrix form, its test
// program, the invariants the reference fuzzer holds its model to, and the
// descriptor that hands them to conform, the bundle writer, the fuzzers and
// `matload model`. families/families.def registers it as ldmatrix::Runtime(),
// declared in harness/families/family_runtime.h.
#include "harness/families/family_runtime.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "families/ldmatrix/ldmatrix_semantics.h"
#include "families/ldmatrix/ldmatrix_table.h"
#include "harness/families/model_invariants.h"
#include "harness/families/runtime_inputs.h"
#include "harness/families/test_program.h"
#include "harness/families/thread_window.h"
#include "harness/kernels/data_pattern.h"
#include "harness/kernels/device_judge.h"
#include "harness/kernels/device_sweep.h"
#include "harness/kernels/kernel_text.h"
#include "harness/kernels/planted_bug.h"
#include "reference/enumerate.h"
#include "reference/form.h"
#include "reference/legality.h"
#include "reference/outcome.h"
#include "reference/printer.h"
#include "reference/run_geometry.h"
#include "reference/runtime_ub.h"

namespace matload {
namespace {

// kLdmatrixEntry is the kernel's name.
constexpr char kLdmatrixEntry[] = "matload_ldmatrix";

// The kernels: one variant per block (harness/kernels/kernel_text.h), and
// the sweep that draws and judges many per block (device_sweep.h).

// LdmatrixFrame is the kernel's geometry: a 4 KiB shared window, and a
// record whose operands are 32 .u64 row offsets into it, lane i's at byte
// 16 + 8i.
KernelFrame LdmatrixFrame(const CheckedInstruction& instruction, bool judged_on_device) {
  return {.record_bytes = kRecordHeaderBytes + 8 * kWarpLanes,
          .window_bytes = kLdmatrixWindowBytes,
          .output_bytes = kWarpLanes * instruction.signature().destination_count * 4,
          .has_shared_window = true,
          .judged_on_device = judged_on_device};
}

// kRowOffsetPtx is where a device judge's line starts (device_judge.h):
// the line is a lane, and its row's offset is the record's.
constexpr char kRowOffsetPtx[] =
    "  mul.wide.u32 %judge_line_at, %judge_line, 8;\n  add.u64 %judge_line_at, %record, %judge_line_at;\n"
    "  ld.global.u64 %judge_line_at, [%judge_line_at+16];\n";

// LdmatrixLoadText spells the form with %v0.. as its destination and its
// row address in the .b32 register `shared_row` (a form naming .shared) or
// the .b64 `generic_row` (one naming no state space).
std::string LdmatrixLoadText(const CheckedInstruction& instruction, absl::string_view shared_row,
                             absl::string_view generic_row) {
  const bool explicit_shared = instruction.form().qualifiers.Present(ldmatrix::kStateSpace);
  Form form = instruction.form();
  std::vector<std::string> destination;
  for (int i = 0; i < instruction.signature().destination_count; ++i) destination.push_back(absl::StrCat("%v", i));
  form.operands = {VectorOperand{destination},
                   AddressOperand{std::string(explicit_shared ? shared_row : generic_row), 0}};
  form.guard.reset();
  return PrintForm(form);
}

// LdmatrixKernel writes the kernel: lane i's row address is the shared
// window plus its row offset (through a generic pointer when the form names
// no state space); the warp executes the form once and stores every
// destination register, or with a `device_plan` judges them first
// (device_judge.h). `bug` plants a self-test bug (kNone for none).
std::string LdmatrixKernel(const CheckedInstruction& instruction, PlantedBug bug,
                           const std::optional<LoadPlan>& device_plan) {
  const int registers = instruction.signature().destination_count;
  std::string ptx = KernelPrologue(instruction, kLdmatrixEntry, LdmatrixFrame(instruction, device_plan.has_value()),
                                   device_plan.has_value() ? PlanTablePtx(*device_plan, kLdmatrixEntry) : "");
  absl::StrAppend(&ptx, "  .reg .b32 %shared_row;\n  .reg .b64 %offset, %generic_row, %shared_row64;\n",
                  "  .reg .b32 %v<", registers, ">;\n",
                  // This lane's row address.
                  "  mul.wide.u32 %block_at, %lane, 8;\n  add.u64 %block_at, %record, %block_at;\n",
                  "  ld.global.u64 %offset, [%block_at+", kRecordHeaderBytes, "];\n");
  if (bug == PlantedBug::kOffByOneRow) absl::StrAppend(&ptx, "  add.u64 %offset, %offset, 16;\n");
  absl::StrAppend(&ptx, "  add.u64 %generic_row, %window, %offset;\n",
                  "  cvta.to.shared.u64 %shared_row64, %generic_row;\n  cvt.u32.u64 %shared_row, %shared_row64;\n",
                  "  ", LdmatrixLoadText(instruction, "%shared_row", "%generic_row"), "\n");
  if (device_plan.has_value())
    absl::StrAppend(&ptx, DeviceJudgePtx(*device_plan, kLdmatrixEntry, registers, 32, kRowOffsetPtx, bug));
  absl::StrAppend(&ptx, StoreRegistersAndReturn(registers, 32, bug));
  return ptx;
}

// The test program: the variants, their records and the model's prediction
// (harness/families/test_program.h).

constexpr int kWindowRows = kLdmatrixWindowBytes / ldmatrix::kRowBytes;

// RowGenerator names the ways lanes' row addresses are drawn.
enum class RowGenerator { kContiguous, kScattered, kRepeated, kReversed, kMisaligned };

// RowGeneratorName is the variant kind a generator draws: "scattered-rows", ...
absl::string_view RowGeneratorName(RowGenerator generator) {
  switch (generator) {
    case RowGenerator::kContiguous: return "contiguous-rows";
    case RowGenerator::kScattered: return "scattered-rows";
    case RowGenerator::kRepeated: return "repeated-rows";
    case RowGenerator::kReversed: return "reversed-rows";
    case RowGenerator::kMisaligned: return "misaligned-row";
  }
  return "";
}

// The rows' draw. Lane L's own draw is the key's draw L (KeyDraw) and the warp's
// base row is the key's low word scaled into [0, rows - 32) (ScaledDraw), so that each
// lane's row depends on the key and its lane alone: a warp on the device
// draws all 32 at once, the same rows (LdmatrixDrawPtx).
static_assert((kWindowRows & (kWindowRows - 1)) == 0, "a scattered row masks the lane's draw");

// kRepeatedRowChoices is how many rows from the base a repeated-rows lane
// picks among; a power of two, so that the lane's draw is masked.
constexpr std::uint32_t kRepeatedRowChoices = 4;
static_assert((kRepeatedRowChoices & (kRepeatedRowChoices - 1)) == 0, "a repeated row masks the lane's draw");

// BaseRow is the warp's base row for variant key `key`.
std::uint64_t BaseRow(std::uint64_t key) { return ScaledDraw(key, kWindowRows - kWarpLanes); }

// RowOffsets draws each lane's row byte offset for variant key `key`. A
// scattered lane's row is any of the window's (two lanes may share one); a
// misaligned draw is a scattered one with one of lanes 0-7 moved 4, 8 or
// 12 bytes off its row (by the key's high bits).
std::array<std::uint64_t, kWarpLanes> RowOffsets(RowGenerator generator, std::uint64_t key) {
  std::array<std::uint64_t, kWarpLanes> rows;
  const std::uint64_t base = BaseRow(key);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    switch (generator) {
      case RowGenerator::kContiguous: rows[lane] = base + lane; break;
      case RowGenerator::kReversed: rows[lane] = base + kWarpLanes - 1 - lane; break;
      case RowGenerator::kRepeated: rows[lane] = base + (KeyDraw(key, lane) & (kRepeatedRowChoices - 1)); break;
      case RowGenerator::kScattered:
      case RowGenerator::kMisaligned: rows[lane] = KeyDraw(key, lane) & (kWindowRows - 1); break;
    }
  }
  for (std::uint64_t& row : rows) row *= ldmatrix::kRowBytes;
  if (generator == RowGenerator::kMisaligned) rows[(key >> 32) % 8] += 4 * (1 + (key >> 40) % 3);
  return rows;
}

// LdmatrixDrawPtx is RowOffsets on the device for the defined generators,
// index % 4 choosing as MakeVariant does: it sets %operand to this lane's
// row offset from %sweep_key, %sweep_index and %lane, and %fault_class to
// the generator (device_sweep.h).
std::string LdmatrixDrawPtx() {
  static_assert(static_cast<int>(RowGenerator::kContiguous) == 0 && static_cast<int>(RowGenerator::kScattered) == 1 &&
                    static_cast<int>(RowGenerator::kRepeated) == 2 && static_cast<int>(RowGenerator::kReversed) == 3,
                "index % 4 is the generator");
  return absl::StrCat(
      "  {\n  .reg .b64 %draw;\n  .reg .b32 %draw_low, %draw_base, %draw_row, %draw_other, %draw_kind;\n",
      "  .reg .pred %draw_is, %draw_own;\n  cvt.u32.u64 %draw_kind, %sweep_index;\n  and.b32 %draw_kind, %draw_kind, "
      "3;\n",
      // Only the scattered and repeated rows need the lane's own draw.
      "  setp.eq.u32 %draw_own, %draw_kind, 1;\n  setp.eq.or.u32 %draw_own, %draw_kind, 2, %draw_own;\n",
      "  mov.u32 %draw_low, 0;\n  @!%draw_own bra.uni LDMATRIX_DRAWN;\n", KeyDrawPtx("%sweep_key", "%lane", "%draw"),
      "  cvt.u32.u64 %draw_low, %draw;\nLDMATRIX_DRAWN:\n  cvt.u32.u64 %draw_base, %sweep_key;\n",
      "  mul.hi.u32 %draw_base, %draw_base, ", kWindowRows - kWarpLanes, ";\n",
      // contiguous: base + lane
      "  add.u32 %draw_row, %draw_base, %lane;\n",
      // scattered: the draw's low bits
      "  setp.eq.u32 %draw_is, %draw_kind, 1;\n  and.b32 %draw_other, %draw_low, ", kWindowRows - 1, ";\n",
      "  selp.b32 %draw_row, %draw_other, %draw_row, %draw_is;\n",
      // repeated: base + draw % kRepeatedRowChoices
      "  setp.eq.u32 %draw_is, %draw_kind, 2;\n  and.b32 %draw_other, %draw_low, ", kRepeatedRowChoices - 1, ";\n",
      "  add.u32 %draw_other, %draw_other, %draw_base;\n  selp.b32 %draw_row, %draw_other, %draw_row, %draw_is;\n",
      // reversed: base + 31 - lane
      "  setp.eq.u32 %draw_is, %draw_kind, 3;\n  sub.u32 %draw_other, ", kWarpLanes - 1, ", %lane;\n",
      "  add.u32 %draw_other, %draw_other, %draw_base;\n  selp.b32 %draw_row, %draw_other, %draw_row, %draw_is;\n",
      "  mul.lo.u32 %operand, %draw_row, ", ldmatrix::kRowBytes, ";\n  mov.u32 %fault_class, %draw_kind;\n  }\n");
}

// LdmatrixLoadPtx runs the form into %v0.. from this lane's row at
// %window + %operand (device_sweep.h), with the off-by-one-row bug where
// it is planted.
std::string LdmatrixLoadPtx(const CheckedInstruction& instruction, PlantedBug bug) {
  return absl::StrCat(
      "  {\n  .reg .b32 %load_shared;\n  .reg .b64 %load_generic, %load_shared64;\n",
      "  cvt.u64.u32 %load_generic, %operand;\n",
      bug == PlantedBug::kOffByOneRow ? "  add.u64 %load_generic, %load_generic, 16;\n" : "",
      "  add.u64 %load_generic, %load_generic, %window;\n",
      "  cvta.to.shared.u64 %load_shared64, %load_generic;\n  cvt.u32.u64 %load_shared, %load_shared64;\n", "  ",
      LdmatrixLoadText(instruction, "%load_shared", "%load_generic"), "\n  }\n");
}

// DevicePlan is the plan a kernel judges by, when `options` ask the device
// to judge and the expected form has one.
std::optional<LoadPlan> DevicePlan(const ProgramOptions& options, const CheckedInstruction& expected_form) {
  if (!options.judge_on_device) return std::nullopt;
  return LdmatrixLoadPlan(LdmatrixLayout::For(expected_form));
}

// LdmatrixProgram is the TestProgram of one ldmatrix form: each lane's row
// offsets drawn by a RowGenerator, the model run on the rows the lanes name.
class LdmatrixProgram : public TestProgram {
 public:
  LdmatrixProgram(const CheckedInstruction& instruction, const ProgramOptions& options,
                  const CheckedInstruction& expected_form)
      : TestProgram(instruction, options, LdmatrixFrame(instruction, DevicePlan(options, expected_form).has_value()),
                    LdmatrixKernel(instruction, options.bug, DevicePlan(options, expected_form)), kLdmatrixEntry),
        expected_form_(expected_form),
        expected_layout_(LdmatrixLayout::For(expected_form)),
        layout_(LdmatrixLayout::For(instruction)) {
    address_space_.shared.resize(frame().window_bytes);
  }

  Variant MakeVariant(std::uint64_t seed, int index, bool undefined) const override {
    Variant variant{.index = index,
                    .kind = "",
                    .pattern = index == 0 ? DataPattern::kTagged : DataPattern::kRandom,
                    .stream = WindowStream(seed, index),
                    .placement = DataPlacement::kShared,
                    .operands = {}};
    const std::uint64_t key = DataStream(seed, index);
    RowGenerator generator = static_cast<RowGenerator>(index % 4);
    if (undefined && index % 4 == 3) generator = RowGenerator::kMisaligned;
    std::array<std::uint64_t, kWarpLanes>& offsets = variant.operands.lane_addresses;
    offsets = RowOffsets(generator, key);
    // The model has the last word: a draw whose definedness is not what
    // its generator meant falls back to contiguous rows from 0. Definedness
    // depends on the addresses alone, so the check reads no data.
    const bool defined = !LdmatrixAddressHazard(expected_form_, expected_layout_, address_space_,
                                                LdmatrixRowAddresses(expected_form_, address_space_, offsets))
                              .has_value();
    if (defined != (generator != RowGenerator::kMisaligned)) {
      generator = RowGenerator::kContiguous;
      for (int lane = 0; lane < kWarpLanes; ++lane) offsets[lane] = lane * ldmatrix::kRowBytes;
    }
    variant.kind = RowGeneratorName(generator);
    return variant;
  }

  Outcome Expect(const Variant& variant) const override {
    // Only the rows the lanes name are read.
    const std::array<std::uint64_t, kWarpLanes>& offsets = variant.operands.lane_addresses;
    MemoryImage memory;
    const ThreadWindow window(memory.shared, frame().window_bytes);
    for (std::uint64_t offset : offsets) {
      FillWindowRange(variant.pattern, variant.stream, absl::MakeSpan(memory.shared), offset, ldmatrix::kRowBytes);
    }
    return ExecuteLdmatrix(expected_form_, expected_layout_, memory,
                           LdmatrixRowAddresses(expected_form_, memory, offsets));
  }

  std::optional<LoadPlan> Plan() const override { return LdmatrixLoadPlan(expected_layout_); }

  std::optional<std::string> SweepKernel() const override {
    const std::optional<LoadPlan> plan = DevicePlan(options(), expected_form_);
    if (!plan.has_value()) return std::nullopt;
    // Line L is lane L's row.
    return SweepKernelPtx(instruction(), SweepEntry(kLdmatrixEntry), *plan,
                          {.window_bytes = kLdmatrixWindowBytes,
                           .registers = instruction().signature().destination_count,
                           .draw = LdmatrixDrawPtx(),
                           .load = LdmatrixLoadPtx(instruction(), options().bug),
                           .line_start = "  shfl.sync.idx.b32 %judge_at, %operand, %judge_line, 31, -1;\n",
                           .line_alignment = ldmatrix::kRowBytes},
                          options().bug);
  }

  std::string WordSource(int lane, int word) const override {
    std::string text;
    for (int byte = 0; byte < 4; ++byte) {
      const LdmatrixElement& element = layout_.At(lane, word, byte);
      if (element.byte != 0 && byte != 0) continue;  // one entry per element
      absl::StrAppend(
          &text, text.empty() ? "" : " ",
          absl::StrFormat("m%d(%d,%d) via lane %d", element.matrix, element.row, element.col, element.address_lane));
    }
    return text;
  }

  std::string FaultCaseText(const Variant& variant) const override {
    return absl::StrCat(opcode(), "; rows=", variant.kind);
  }

  // A swept variant's class is its row generator, index % 4 (MakeVariant).
  std::vector<std::string> FaultClassTexts() const override {
    std::vector<std::string> texts;
    for (RowGenerator generator :
         {RowGenerator::kContiguous, RowGenerator::kScattered, RowGenerator::kRepeated, RowGenerator::kReversed}) {
      texts.push_back(absl::StrCat(opcode(), "; rows=", RowGeneratorName(generator)));
    }
    return texts;
  }

  int FaultClassOf(const Variant& variant) const override { return variant.index % 4; }

 protected:
  void WriteOperands(const Variant& variant, absl::Span<std::uint8_t> operands) const override {
    const std::array<std::uint64_t, kWarpLanes>& offsets = variant.operands.lane_addresses;
    for (int lane = 0; lane < kWarpLanes; ++lane) StoreLittleEndian(offsets[lane], operands.subspan(8 * lane, 8));
  }

 private:
  CheckedInstruction expected_form_;
  LdmatrixLayout expected_layout_;
  LdmatrixLayout layout_;
  // address_space_ is a window of zeros: where the generator's definedness
  // check resolves row addresses (it reads no data).
  MemoryImage address_space_;
};

// NewLdmatrixProgram builds the program. With the transposed planted bug it
// fails (kInvalidArgument) when the form has no legal .trans twin.
absl::StatusOr<std::unique_ptr<TestProgram>> NewLdmatrixProgram(const CheckedInstruction& instruction,
                                                                const ProgramOptions& options) {
  std::optional<CheckedInstruction> expected_form = instruction;
  if (options.bug == PlantedBug::kTransposedExpectation) {
    QualifierSet transposed = instruction.form().qualifiers;
    transposed.Set(ldmatrix::kTrans, transposed.Present(ldmatrix::kTrans) ? kAbsent : 0);
    expected_form = StandardInstruction(ldmatrix::Spec(), transposed, instruction.ptx(), instruction.target());
    if (!expected_form.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(Opcode(instruction), " has no legal .trans twin to plant"));
    }
  }
  return std::make_unique<LdmatrixProgram>(instruction, options, *expected_form);
}

// The reference fuzzer's invariants (harness/families/model_invariants.h).

// CheckLdmatrixInvariants runs the model on a legal form at a case's inputs and
// adds every invariant it breaks to `violations`. A form the model cannot
// predict, or inputs it calls undefined, add nothing.
void CheckLdmatrixInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                             std::vector<InvariantViolation>& violations) {
  constexpr size_t kWindowBytes = kLdmatrixWindowBytes;
  MemoryImage memory;
  memory.shared.resize(kWindowBytes);
  FillWindow(runtime.pattern, runtime.stream, absl::MakeSpan(memory.shared));
  const std::array<std::uint64_t, kWarpLanes> rows = VariantFor(instruction, runtime).operands.lane_addresses;
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
    if (auto violation =
            PrefixViolation(*ValuesOf(prefix), *values, smaller_layout.registers(), PrintForm(smaller.form()))) {
      violations.push_back(*violation);
    }
  }

  // .trans: the byte of (matrix, row, col) in one is that of (matrix, col,
  // row) in the other.
  const bool transposed = instruction.form().qualifiers.Present(ldmatrix::kTrans);
  const std::optional<CheckedInstruction> other = Sibling(instruction, ldmatrix::kTrans, transposed ? kAbsent : 0);
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
      violations.push_back(
          {"trans", absl::StrCat("matrix ", matrix, " element (", row, ",", col, ") byte ", part, " is not element (",
                                 col, ",", row, ") of ", PrintForm(other->form()))});
      return;
    }
  }
}

// LdmatrixSourceText says where one destination byte came from. Without
// decompression that is a byte of a 16-byte source row; with it, an element
// of the row's packed field (16 elements of `decompression` bits, LSB first
// from the row's first byte: ldmatrix.infer.decompress-padding), so it names
// the element and its bits, not a byte the decompressed row never had.
std::string LdmatrixSourceText(const LdmatrixElement& e, int decompression) {
  const std::string element = absl::StrCat("m", e.matrix, "(", e.row, ",", e.col, ")");
  if (decompression == 0) {
    return absl::StrCat(element, " byte ", e.byte, " from lane ", e.address_lane, "'s row byte ", e.source_byte);
  }
  const int first_bit = decompression * e.source_byte;
  return absl::StrCat(element, " from lane ", e.address_lane, "'s row element ", e.source_byte, " (", decompression,
                      "-bit, row bits ", first_bit, "-", first_bit + decompression - 1, ")");
}

// The descriptor (harness/families/family_runtime.h).

// LdmatrixDescriptor: a variant's operands are each lane's row offset
// (VariantOperands::lane_addresses); ldmatrix reads shared memory only.
class LdmatrixDescriptor final : public FamilyRuntime {
 public:
  Family family() const override { return Family::kLdmatrix; }

  absl::StatusOr<std::unique_ptr<TestProgram>> NewProgram(const CheckedInstruction& instruction,
                                                          const ProgramOptions& options) const override {
    return NewLdmatrixProgram(instruction, options);
  }

  nlohmann::json OperandsJson(const Variant& variant) const override {
    return {{"row_offsets", variant.operands.lane_addresses}};
  }

  void SetOperands(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                   Variant& variant) const override {
    const std::vector<std::uint64_t> padded = PaddedRows(runtime);
    variant.operands = {};
    std::copy_n(padded.begin(), kWarpLanes, variant.operands.lane_addresses.begin());
    variant.placement = DataPlacement::kShared;
  }

  void SetInputs(const Variant& variant, RuntimeInputs& runtime) const override {
    const std::array<std::uint64_t, kWarpLanes>& rows = variant.operands.lane_addresses;
    runtime.rows.assign(rows.begin(), rows.end());
  }

  absl::StatusOr<ModelExplanation> Explain(const CheckedInstruction& instruction, absl::Span<const std::uint8_t> window,
                                           const RuntimeInputs& inputs) const override {
    const LdmatrixLayout layout = LdmatrixLayout::For(instruction);
    std::vector<std::uint64_t> rows = inputs.rows;
    if (rows.empty()) {
      for (int lane = 0; lane < kWarpLanes; ++lane) rows.push_back(16 * lane);
    }
    if (rows.size() != kWarpLanes)
      return absl::InvalidArgumentError("--row-addresses needs 32 addresses, one per lane");
    MemoryImage memory;
    memory.shared.assign(window.begin(), window.end());
    ModelExplanation result{
        ExecuteLdmatrix(instruction, layout, memory, LdmatrixRowAddresses(instruction, memory, rows)), 32, {}};
    result.provenance.assign(kWarpLanes, std::vector<std::vector<BitSource>>(layout.registers()));
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      for (int reg = 0; reg < layout.registers(); ++reg) {
        for (int byte = 0; byte < 4; ++byte) {
          result.provenance[lane][reg].push_back(
              {8 * byte, 8 * byte + 7, LdmatrixSourceText(layout.At(lane, reg, byte), layout.decompression())});
        }
      }
    }
    return result;
  }

  void CheckInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                       std::vector<InvariantViolation>& violations) const override {
    CheckLdmatrixInvariants(instruction, runtime, violations);
  }
};

}  // namespace

namespace ldmatrix {

const FamilyRuntime& Runtime() {
  static const auto* const kDescriptor = new LdmatrixDescriptor;
  return *kDescriptor;
}

}  // namespace ldmatrix
}  // namespace matload
