// wmma's run-time half: the kernel that runs one wmma.load form, its test
// program, the invariants the reference fuzzer holds its model to, and the
// descriptor that hands them to conform, the bundle writer, the fuzzers and
// `matload model`. families/families.def registers it as wmma::Runtime(),
// declared in harness/families/family_runtime.h.
#include "harness/families/family_runtime.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "families/wmma/wmma_load_table.h"
#include "families/wmma/wmma_semantics.h"
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
#include "reference/memory_image.h"
#include "reference/outcome.h"
#include "reference/printer.h"
#include "reference/register_class.h"
#include "reference/run_geometry.h"
#include "reference/runtime_ub.h"

namespace matload {
namespace {

// kWmmaEntry is the kernel's name.
constexpr char kWmmaEntry[] = "matload_wmma_load";

// The kernel: one variant per block (harness/kernels/kernel_text.h).

// WmmaFrame is the kernel's geometry: a 16 KiB window, shared or global as
// each record says (a form naming .global has no shared window), and a
// record whose operands are p's byte offset into the window (.u64 at 16)
// and the stride in elements (.u32 at 24; the default stride for forms
// without a stride operand).
KernelFrame WmmaFrame(const CheckedInstruction& instruction, bool judged_on_device) {
  const OperandSignature& signature = instruction.signature();
  return {.record_bytes = kRecordHeaderBytes + 16,
          .window_bytes = kWmmaWindowBytes,
          .output_bytes = kWarpLanes * signature.destination_count * RegisterClassBits(signature.destination_class) / 8,
          .has_shared_window = signature.state_space != StateSpace::kGlobal,
          .judged_on_device = judged_on_device};
}

// LineOffsetPtx is where a device judge's line starts (device_judge.h) for
// elements of `element_bits`: the record's p plus the line's strides, the
// stride being the record's.
std::string LineOffsetPtx(int element_bits) {
  return absl::StrCat(
      "  ld.global.u32 %judge_data, [%record+", kRecordHeaderBytes + 8, "];\n",
      "  mul.lo.u32 %judge_data, %judge_data, ", element_bits, ";\n  shr.u32 %judge_data, %judge_data, 3;\n",
      "  mul.wide.u32 %judge_step, %judge_data, %judge_line;\n", "  ld.global.u64 %judge_line_at, [%record+",
      kRecordHeaderBytes, "];\n", "  add.u64 %judge_line_at, %judge_line_at, %judge_step;\n");
}

// WmmaAddresses names the registers p may sit in: a generic address, a
// .global one, a .shared one of 32 or of 64 bits.
struct WmmaAddresses {
  absl::string_view generic, global, shared32, shared64;
};

// WmmaLoadText spells the form with %v0.. as its destination, p in the
// register of `addresses` the form's state space takes (a .shared address
// of `shared_address_bits`) and, where the form has a stride operand, the
// stride in `stride`.
std::string WmmaLoadText(const CheckedInstruction& instruction, int shared_address_bits, const WmmaAddresses& addresses,
                         absl::string_view stride) {
  const OperandSignature& signature = instruction.signature();
  absl::string_view address = addresses.generic;
  if (signature.state_space == StateSpace::kGlobal) address = addresses.global;
  if (signature.state_space == StateSpace::kShared) {
    address = shared_address_bits == 32 ? addresses.shared32 : addresses.shared64;
  }
  Form form = instruction.form();
  std::vector<std::string> destination;
  for (int i = 0; i < signature.destination_count; ++i) destination.push_back(absl::StrCat("%v", i));
  form.operands = {VectorOperand{destination}, AddressOperand{std::string(address), 0}};
  if (signature.stride) form.operands.push_back(RegisterOperand{std::string(stride)});
  form.guard.reset();
  return PrintForm(form);
}

// AddressesPtx converts the generic p in addresses.generic (.b64) into the
// form's state space, into the register WmmaLoadText reads.
std::string AddressesPtx(const CheckedInstruction& instruction, const WmmaAddresses& addresses) {
  const StateSpace space = instruction.signature().state_space;
  if (space == StateSpace::kGlobal)
    return absl::StrCat("  cvta.to.global.u64 ", addresses.global, ", ", addresses.generic, ";\n");
  if (space != StateSpace::kShared) return "";
  return absl::StrCat("  cvta.to.shared.u64 ", addresses.shared64, ", ", addresses.generic, ";\n  cvt.u32.u64 ",
                      addresses.shared32, ", ", addresses.shared64, ";\n");
}

// OffByOneRowPtx plants the off-by-one-row bug: the .u64 register `offset`
// moves one row (or column) further on, `stride` (.u32) elements of the
// form's type.
std::string OffByOneRowPtx(const CheckedInstruction& instruction, absl::string_view offset, absl::string_view stride) {
  const int element_bits = wmma::ElementBits(static_cast<wmma::Type>(instruction.form().qualifiers.Get(wmma::kType)));
  return absl::StrCat("  {\n  .reg .b32 %pitch;\n  .reg .b64 %pitch64;\n  mul.lo.u32 %pitch, ", stride, ", ",
                      element_bits, ";\n  shr.u32 %pitch, %pitch, 3;\n  cvt.u64.u32 %pitch64, %pitch;\n  add.u64 ",
                      offset, ", ", offset, ", %pitch64;\n  }\n");
}

// kRecordAddresses are the record kernel's registers for p.
constexpr WmmaAddresses kRecordAddresses = {"%generic_p", "%global_p", "%shared_p32", "%shared_p64"};

// WmmaKernel writes the kernel: p is the window plus the offset, as a
// generic address when the form names no state space, else in the form's
// space (a .shared address in a register of `shared_address_bits`, 32 or
// 64). The warp executes the form once, with the record's stride where the
// form has a stride operand, and stores every destination register, or with
// a `device_plan` judges them first (device_judge.h). `bug` plants a
// self-test bug (kNone for none).
std::string WmmaKernel(const CheckedInstruction& instruction, int shared_address_bits, PlantedBug bug,
                       const std::optional<LoadPlan>& device_plan) {
  const OperandSignature& signature = instruction.signature();
  const int registers = signature.destination_count;
  const int register_bits = RegisterClassBits(signature.destination_class);
  std::string ptx = KernelPrologue(instruction, kWmmaEntry, WmmaFrame(instruction, device_plan.has_value()),
                                   device_plan.has_value() ? PlanTablePtx(*device_plan, kWmmaEntry) : "");
  absl::StrAppend(&ptx, "  .reg .b32 %stride, %shared_p32;\n",
                  "  .reg .b64 %offset, %generic_p, %global_p, %shared_p64;\n", "  .reg .b", register_bits, " %v<",
                  registers, ">;\n", "  ld.global.u64 %offset, [%record+", kRecordHeaderBytes, "];\n",
                  "  ld.global.u32 %stride, [%record+", kRecordHeaderBytes + 8, "];\n");
  if (bug == PlantedBug::kOffByOneRow) absl::StrAppend(&ptx, OffByOneRowPtx(instruction, "%offset", "%stride"));
  absl::StrAppend(&ptx, "  add.u64 %generic_p, %window, %offset;\n", AddressesPtx(instruction, kRecordAddresses), "  ",
                  WmmaLoadText(instruction, shared_address_bits, kRecordAddresses, "%stride"), "\n");
  if (device_plan.has_value()) {
    absl::StrAppend(&ptx, DeviceJudgePtx(*device_plan, kWmmaEntry, registers, register_bits,
                                         LineOffsetPtx(device_plan->line_stride_bits), bug));
  }
  absl::StrAppend(&ptx, StoreRegistersAndReturn(registers, register_bits, bug));
  return ptx;
}

// The test program: the variants, their records and the model's prediction
// (harness/families/test_program.h).

// PointerGenerator names the ways p and the stride are drawn.
enum class PointerGenerator { kDefault, kOffset, kWideStride, kMisalignedPointer, kShortStride };

// VariantKind names a variant by where its data sit and how its pointer
// was drawn: "shared-wide-stride". The names are in PointerGenerator's order.
absl::string_view VariantKind(DataPlacement placement, PointerGenerator generator) {
  static constexpr absl::string_view kGlobal[] = {"global-default", "global-offset", "global-wide-stride",
                                                  "global-misaligned-p", "global-short-stride"};
  static constexpr absl::string_view kShared[] = {"shared-default", "shared-offset", "shared-wide-stride",
                                                  "shared-misaligned-p", "shared-short-stride"};
  static_assert(std::size(kGlobal) == static_cast<size_t>(PointerGenerator::kShortStride) + 1);
  static_assert(std::size(kShared) == std::size(kGlobal));
  return (placement == DataPlacement::kShared ? kShared : kGlobal)[static_cast<int>(generator)];
}

// A defined variant's draws (KeyDraw, harness/families/test_program.h),
// made alike by MakeVariant and the sweep kernel (SweepDrawPtx): a wide
// stride takes 1 + ScaledDraw(draw kStrideDraw, kWiderStrides) options
// wider than the default (at most the widest), and p ScaledDraw(draw
// kAddressDraw, its aligned places) alignments into the window. Every
// kWideStrideEvery-th variant (index % kWideStrideEvery ==
// kWideStrideEvery - 1) of a form with a stride operand has a wide stride.
constexpr std::uint64_t kStrideDraw = 0;
constexpr std::uint64_t kAddressDraw = 1;
constexpr std::uint32_t kWiderStrides = 3;
constexpr int kWideStrideEvery = 3;

// StrideOption is a stride a variant may take, with the bytes from p that
// a load at that stride reads.
struct StrideOption {
  std::uint32_t stride = 0;
  std::uint64_t extent_bytes = 0;
};

// StrideOptions are the strides a wide-stride variant steps through: the
// default (the stride of forms without a stride operand), then up to three
// aligned steps wider (WmmaAlignedStrideAbove), as long as the matrix takes
// at most half of a `window_bytes` window. Worked out once per program, as
// every variant draws from them.
std::vector<StrideOption> StrideOptions(const CheckedInstruction& instruction, int window_bytes) {
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  const auto option = [&](std::uint32_t stride) { return StrideOption{stride, WmmaExtentBytes(qualifiers, stride)}; };
  std::vector<StrideOption> options = {option(static_cast<std::uint32_t>(WmmaDefaultStride(qualifiers)))};
  while (options.size() < 4 && instruction.signature().stride) {
    const StrideOption wider = option(WmmaAlignedStrideAbove(qualifiers, instruction.signature(), options.back().stride));
    if (wider.extent_bytes > static_cast<std::uint64_t>(window_bytes) / 2) break;
    options.push_back(wider);
  }
  return options;
}

// WmmaProgram is the TestProgram of one wmma.load form: p and the stride drawn
// by a PointerGenerator, the model run on the matrix's extent from p.
class WmmaProgram : public TestProgram {
 public:
  WmmaProgram(const CheckedInstruction& instruction, const ProgramOptions& options, WmmaFragment fragment,
              const CheckedInstruction& expected_form, WmmaFragment expected_fragment)
      : TestProgram(instruction, options, WmmaFrame(instruction, options.judge_on_device),
                    WmmaKernel(instruction, options.shared_address_bits, options.bug,
                               options.judge_on_device ? std::optional<LoadPlan>(WmmaLoadPlan(expected_fragment))
                                                       : std::nullopt),
                    kWmmaEntry),
        fragment_(fragment),
        expected_form_(expected_form),
        expected_fragment_(expected_fragment),
        strides_(StrideOptions(instruction, frame().window_bytes)) {
    for (const RuntimeCondition& condition : RuntimeConditions(instruction)) {
      if (condition.hazard == RuntimeHazard::kMisalignedAddress) alignment_ = *condition.alignment_bytes;
    }
    const StateSpace space = instruction.signature().state_space;
    if (space != StateSpace::kShared) placements_.push_back(DataPlacement::kGlobal);
    if (space != StateSpace::kGlobal) placements_.push_back(DataPlacement::kShared);
  }

  Variant MakeVariant(std::uint64_t seed, int index, bool undefined) const override {
    const QualifierSet& qualifiers = instruction().form().qualifiers;
    const bool has_stride = instruction().signature().stride;
    Variant variant{.index = index,
                    .kind = "",
                    .pattern = index == 0 ? DataPattern::kTagged : DataPattern::kRandom,
                    .stream = WindowStream(seed, index),
                    .placement = placements_[index % placements_.size()],
                    .operands = {}};
    const std::uint64_t key = DataStream(seed, index);
    PointerGenerator generator = index == 0 ? PointerGenerator::kDefault
                                 : has_stride && index % kWideStrideEvery == kWideStrideEvery - 1
                                     ? PointerGenerator::kWideStride
                                     : PointerGenerator::kOffset;
    if (undefined && index % 4 == 3) {
      generator = has_stride && index % 8 == 7 ? PointerGenerator::kShortStride : PointerGenerator::kMisalignedPointer;
    }
    VariantOperands& pointer = variant.operands;
    const size_t steps_wider =
        generator == PointerGenerator::kWideStride
            ? std::min<size_t>(1 + ScaledDraw(KeyDraw(key, kStrideDraw), kWiderStrides), strides_.size() - 1)
            : 0;
    pointer.stride = strides_[steps_wider].stride;
    std::uint64_t extent = strides_[steps_wider].extent_bytes;
    if (generator == PointerGenerator::kShortStride) {
      pointer.stride = strides_.front().stride - 1;
      extent = WmmaExtentBytes(qualifiers, pointer.stride);
    }
    if (generator != PointerGenerator::kDefault) {
      pointer.address = alignment_ * ScaledDraw(KeyDraw(key, kAddressDraw), AddressChoices(extent));
    }
    if (generator == PointerGenerator::kMisalignedPointer)
      pointer.address = (pointer.address | 2) % frame().window_bytes;
    variant.kind = VariantKind(variant.placement, generator);
    return variant;
  }

  std::optional<LoadPlan> Plan() const override { return WmmaLoadPlan(expected_fragment_); }

  std::optional<std::string> SweepKernel() const override {
    if (!options().judge_on_device) return std::nullopt;
    const OperandSignature& signature = instruction().signature();
    const auto places = [&](DataPlacement placement) {
      return std::find(placements_.begin(), placements_.end(), placement) != placements_.end();
    };
    // Line L starts L strides past p.
    const LoadPlan plan = WmmaLoadPlan(expected_fragment_);
    return SweepKernelPtx(instruction(), SweepEntry(kWmmaEntry), plan,
                          {.window_bytes = frame().window_bytes,
                           .shared_window = places(DataPlacement::kShared),
                           .global_window = places(DataPlacement::kGlobal),
                           .registers = signature.destination_count,
                           .register_bits = RegisterClassBits(signature.destination_class),
                           .draw = SweepDrawPtx(),
                           .load = SweepLoadPtx(),
                           .line_start = "  mad.lo.u32 %judge_at, %judge_line, %wmma_line_bytes, %wmma_address;\n",
                           .line_alignment = LineAlignment(plan)},
                          options().bug);
  }

  Outcome Expect(const Variant& variant) const override {
    const VariantOperands& pointer = variant.operands;
    MemoryImage memory;
    const StateSpace named = instruction().signature().state_space;
    const bool shared = variant.placement == DataPlacement::kShared;
    const std::uint64_t address = !shared                        ? memory.global_base + pointer.address
                                  : named == StateSpace::kShared ? pointer.address
                                                                 : memory.shared_generic_base + pointer.address;
    std::vector<std::uint8_t>& space = shared ? memory.shared : memory.global;
    const ThreadWindow window(space, frame().window_bytes);
    FillMatrixLines(variant, absl::MakeSpan(space));
    const int address_bits = named == StateSpace::kShared ? options().shared_address_bits : 64;
    return ExecuteWmmaLoad(
        expected_form_, expected_fragment_, memory,
        {{address, address_bits},
         instruction().signature().stride ? std::optional<std::uint32_t>(pointer.stride) : std::nullopt});
  }

  std::string WordSource(int lane, int word) const override {
    const int words_per_register = fragment_.register_bits() / 32;
    const int reg = word / words_per_register;
    const int first_bit = (word % words_per_register) * 32;
    const char matrix = "ABC"[fragment_.Provenance(lane, reg, first_bit).matrix];
    std::string text;
    const int step = std::max(1, fragment_.element_bits());
    for (int bit = first_bit; bit < first_bit + 32 && bit < fragment_.register_bits(); bit += step) {
      const WmmaBitSource source = fragment_.Provenance(lane, reg, bit);
      if (source.bit != 0) continue;
      if (bit - first_bit >= 4 * step) {
        absl::StrAppend(&text, " ...");
        break;
      }
      absl::StrAppend(&text, text.empty() ? "" : " ",
                      absl::StrFormat("%c(%d,%d)", matrix, source.element.row, source.element.col));
    }
    return text;
  }

  std::string FaultCaseText(const Variant& variant) const override {
    return AddressingText(variant.operands.address % 16, variant.operands.stride);
  }

  // A swept variant's class is its stride option and p mod 16: 16 * the
  // option + p % 16.
  std::vector<std::string> FaultClassTexts() const override {
    std::vector<std::string> texts;
    for (const StrideOption& option : strides_) {
      for (std::uint64_t p_mod16 = 0; p_mod16 < 16; ++p_mod16) texts.push_back(AddressingText(p_mod16, option.stride));
    }
    return texts;
  }

  int FaultClassOf(const Variant& variant) const override {
    const auto option = std::find_if(strides_.begin(), strides_.end(),
                                     [&](const StrideOption& o) { return o.stride == variant.operands.stride; });
    return 16 * static_cast<int>(option - strides_.begin()) + static_cast<int>(variant.operands.address % 16);
  }

 protected:
  void WriteOperands(const Variant& variant, absl::Span<std::uint8_t> operands) const override {
    const VariantOperands& pointer = variant.operands;
    StoreLittleEndian(pointer.address, operands.subspan(0, 8));
    StoreLittleEndian(pointer.stride, operands.subspan(8));
  }

 private:
  // FillMatrixLines writes the data of every line (row, or column) of the
  // matrix the model loads for `variant` (expected_form_'s, which a planted
  // bug may transpose) into `window`: all the bytes the model reads, and
  // no more. A wide stride spreads a matrix over up to half the
  // window, so writing its whole extent would cost several times as much.
  // The lines are the rows or the columns, whichever are the shorter runs
  // of bytes, a pitch apart; lines that touch are written as one range.
  void FillMatrixLines(const Variant& variant, absl::Span<std::uint8_t> window) const {
    const QualifierSet& qualifiers = expected_form_.form().qualifiers;
    // The stride the model takes (ExecuteWmmaLoad): a form without a stride operand has its default.
    const std::uint32_t stride =
        instruction().signature().stride ? variant.operands.stride : WmmaDefaultStride(qualifiers);
    const MatrixCoord dims = WmmaMatrixDims(qualifiers);
    const auto offset = [&](int row, int col) { return WmmaElementOffsetBits(qualifiers, {row, col}, stride); };
    const bool by_rows = offset(0, dims.col - 1) < offset(dims.row - 1, 0);
    const int lines = by_rows ? dims.row : dims.col;
    const std::uint64_t length_bits =
        (by_rows ? offset(0, dims.col - 1) : offset(dims.row - 1, 0)) + expected_fragment_.element_bits();
    const std::uint64_t pitch_bits = by_rows ? offset(1, 0) : offset(0, 1);
    const auto fill_bits = [&](std::uint64_t first_bit, std::uint64_t end_bit) {
      FillWindowRange(variant.pattern, variant.stream, window, variant.operands.address + first_bit / 8,
                      (end_bit + 7) / 8 - first_bit / 8);
    };
    if (pitch_bits <= length_bits) return fill_bits(0, (lines - 1) * pitch_bits + length_bits);
    for (int line = 0; line < lines; ++line) fill_bits(line * pitch_bits, line * pitch_bits + length_bits);
  }

  // AddressingText is the fault case text of a variant whose p is
  // `p_mod16` past a multiple of 16, with `stride`.
  std::string AddressingText(std::uint64_t p_mod16, std::uint32_t stride) const {
    const std::uint64_t pitch = std::uint64_t{stride} * fragment_.element_bits() / 8;
    return absl::StrCat(opcode(), "; p-mod16=", p_mod16, "; row-pitch-bytes=", pitch, "; row-pitch-mod16=", pitch % 16);
  }

  // AddressChoices is how many aligned places p may take for a matrix of
  // `extent` bytes in the window.
  std::uint32_t AddressChoices(std::uint64_t extent) const {
    return static_cast<std::uint32_t>((frame().window_bytes - extent) / alignment_ + 1);
  }

  // SweepDrawPtx is MakeVariant's draw of a defined variant from index 1
  // on, for the sweep kernel (device_sweep.h): it sets p's offset
  // %wmma_address, the stride %wmma_stride, the bytes between lines
  // %wmma_line_bytes, %operand (where line %lane starts), %fault_class
  // (FaultClassOf) and %wmma_shared (whether the data sit in the shared
  // window), from %sweep_key and
  // %sweep_index. The stride options and their address choices are the
  // program's, written into the text.
  std::string SweepDrawPtx() const {
    std::string ptx = absl::StrCat(
        "  .reg .b32 %wmma_address, %wmma_stride, %wmma_line_bytes;\n  .reg .pred %wmma_shared;\n  {\n",
        "  .reg .b32 %wd_index, %wd_step, %wd_choices, %wd_low;\n  .reg .b64 %wd_draw;\n  .reg .pred %wd_is;\n",
        "  cvt.u32.u64 %wd_index, %sweep_index;\n  mov.u32 %wd_step, 0;\n");
    if (instruction().signature().stride && strides_.size() > 1) {
      // A wide stride: 1 + ScaledDraw(draw kStrideDraw, kWiderStrides) options wider, at most the widest.
      absl::StrAppend(&ptx, KeyDrawPtx("%sweep_key", absl::StrCat(kStrideDraw), "%wd_draw"),
                      "  cvt.u32.u64 %wd_low, %wd_draw;\n  mul.hi.u32 %wd_low, %wd_low, ", kWiderStrides, ";\n",
                      "  add.u32 %wd_low, %wd_low, 1;\n  min.u32 %wd_low, %wd_low, ", strides_.size() - 1, ";\n",
                      "  rem.u32 %wd_step, %wd_index, ", kWideStrideEvery, ";\n  setp.eq.u32 %wd_is, %wd_step, ",
                      kWideStrideEvery - 1, ";\n  selp.b32 %wd_step, %wd_low, 0, %wd_is;\n");
    }
    absl::StrAppend(&ptx, "  mov.u32 %wmma_stride, ", strides_[0].stride, ";\n  mov.u32 %wd_choices, ",
                    AddressChoices(strides_[0].extent_bytes), ";\n");
    for (size_t step = 1; step < strides_.size(); ++step) {
      absl::StrAppend(&ptx, "  setp.eq.u32 %wd_is, %wd_step, ", step, ";\n  selp.b32 %wmma_stride, ",
                      strides_[step].stride, ", %wmma_stride, %wd_is;\n  selp.b32 %wd_choices, ",
                      AddressChoices(strides_[step].extent_bytes), ", %wd_choices, %wd_is;\n");
    }
    // p: alignment * ScaledDraw(draw kAddressDraw, choices); the data's place: placements_[index % their number].
    absl::StrAppend(
        &ptx, KeyDrawPtx("%sweep_key", absl::StrCat(kAddressDraw), "%wd_draw"), "  cvt.u32.u64 %wd_low, %wd_draw;\n",
        "  mul.hi.u32 %wmma_address, %wd_low, %wd_choices;\n  mul.lo.u32 %wmma_address, %wmma_address, ", alignment_,
        ";\n  mul.lo.u32 %wmma_line_bytes, %wmma_stride, ", expected_fragment_.element_bits(),
        ";\n  shr.u32 %wmma_line_bytes, %wmma_line_bytes, 3;\n",
        "  mad.lo.u32 %operand, %lane, %wmma_line_bytes, %wmma_address;\n",
        "  and.b32 %fault_class, %wmma_address, 15;\n  mad.lo.u32 %fault_class, %wd_step, 16, %fault_class;\n",
        "  rem.u32 %wd_low, %wd_index, ", placements_.size(), ";\n  setp.eq.u32 %wmma_shared, %wd_low, ",
        placements_.back() == DataPlacement::kShared ? placements_.size() - 1 : placements_.size(), ";\n  }\n");
    return ptx;
  }

  // SweepLoadPtx runs the form for the sweep kernel: p in the window the
  // draw chose, the off-by-one-row bug planted where it is.
  std::string SweepLoadPtx() const {
    constexpr WmmaAddresses kSwept = {"%swept_generic", "%swept_global", "%swept_shared32", "%swept_shared64"};
    return absl::StrCat(
        "  {\n  .reg .b32 %swept_shared32;\n  .reg .b64 %swept_offset, %swept_generic, %swept_global, "
        "%swept_shared64;\n",
        "  cvt.u64.u32 %swept_offset, %wmma_address;\n",
        options().bug == PlantedBug::kOffByOneRow ? OffByOneRowPtx(instruction(), "%swept_offset", "%wmma_stride") : "",
        "  selp.b64 %swept_generic, %window, %global_window, %wmma_shared;\n",
        "  add.u64 %swept_generic, %swept_generic, %swept_offset;\n", AddressesPtx(instruction(), kSwept), "  ",
        WmmaLoadText(instruction(), options().shared_address_bits, kSwept, "%wmma_stride"), "\n  }\n");
  }

  // LineAlignment is the bytes that every line start of a defined variant
  // is a multiple of: p's alignment and each stride's bytes a line, or 1
  // where a stride is not whole bytes.
  int LineAlignment(const LoadPlan& plan) const {
    int alignment = alignment_;
    for (const StrideOption& option : strides_) {
      const std::uint64_t bits = std::uint64_t{option.stride} * plan.line_stride_bits;
      alignment = bits % 8 == 0 ? static_cast<int>(std::gcd<std::uint64_t>(alignment, bits / 8)) : 1;
    }
    return alignment;
  }

  WmmaFragment fragment_;
  CheckedInstruction expected_form_;
  WmmaFragment expected_fragment_;
  std::vector<StrideOption> strides_;
  int alignment_ = 32;
  std::vector<DataPlacement> placements_;
};

// NewWmmaProgram builds the program. A form with no known layout on its
// target is kNotFound (the model cannot predict it).
absl::StatusOr<std::unique_ptr<TestProgram>> NewWmmaProgram(const CheckedInstruction& instruction,
                                                            const ProgramOptions& options) {
  absl::StatusOr<WmmaFragment> fragment = WmmaFragment::For(instruction);
  if (!fragment.ok()) return fragment.status();
  std::optional<CheckedInstruction> expected_form = instruction;
  if (options.bug == PlantedBug::kTransposedExpectation) {
    QualifierSet transposed = instruction.form().qualifiers;
    transposed.Set(wmma::kLayout, transposed.Has(wmma::kLayout, wmma::kRow) ? wmma::kCol : wmma::kRow);
    expected_form = StandardInstruction(wmma::Spec(), transposed, instruction.ptx(), instruction.target());
    if (!expected_form.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(Opcode(instruction), " has no legal transposed twin to plant"));
    }
  }
  absl::StatusOr<WmmaFragment> expected_fragment = WmmaFragment::For(*expected_form);
  if (!expected_fragment.ok()) return expected_fragment.status();
  return std::make_unique<WmmaProgram>(instruction, options, *fragment, *expected_form, *expected_fragment);
}

// The reference fuzzer's invariants (harness/families/model_invariants.h).

// CheckWmmaInvariants runs the model on a legal form at a case's inputs and
// adds every invariant it breaks to `violations`. A form the model cannot
// predict, or inputs it calls undefined, add nothing.
void CheckWmmaInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                         std::vector<InvariantViolation>& violations) {
  absl::StatusOr<WmmaFragment> fragment = WmmaFragment::For(instruction);
  if (!fragment.ok()) return;  // no layout known on this target: nothing to predict
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  const MatrixCoord dims = WmmaMatrixDims(qualifiers);
  for (const std::string& line : FragmentCoverageViolations(
           dims.row, dims.col, fragment->elements(), [&](int lane, int x) { return fragment->Element(lane, x); })) {
    violations.push_back({"coverage", line});
  }

  // The same random logical matrix, stored as the form's layout says at the
  // case's stride, offset and placement...
  const Variant variant = VariantFor(instruction, runtime);
  const VariantOperands pointer = variant.operands;
  // kLargestImage keeps a hand-written case's huge offset or stride from
  // allocating gigabytes; such loads only leave the window on a GPU anyway.
  constexpr std::uint64_t kLargestImage = 1 << 20;
  if (pointer.address + WmmaExtentBytes(qualifiers, pointer.stride) > kLargestImage) return;
  const int bits = fragment->element_bits();
  std::vector<std::uint64_t> matrix(static_cast<size_t>(dims.row * dims.col));
  for (size_t i = 0; i < matrix.size(); ++i) {
    const std::uint64_t word = RandomPair(runtime.stream, static_cast<std::uint32_t>(i));
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
    const Outcome outcome = ExecuteWmmaLoad(
        form, *layout, memory, {{address}, form.signature().stride ? std::optional(stride) : std::nullopt});
    if (const LaneValues* values = ValuesOf(outcome)) return *values;
    return std::nullopt;
  };
  const std::optional<LaneValues> as_case = load(instruction, pointer.stride, pointer.address, variant.placement);
  if (!as_case.has_value()) return;  // undefined at these inputs

  // ...and as the other layout says, at its default stride, at offset 0.
  // PTX promises no such equality: a fragment may feed wmma.mma only with
  // the layout it was loaded with (PTX 9.7.14.4.1). Volta's A and B fragments
  // do depend on it (docs/spec-decisions.md wmma.layout.*), so their table rows name a layout, and
  // only rows for both storage orders promise the same fragment.
  if (fragment->entry().layout.has_value()) return;
  const std::optional<CheckedInstruction> other =
      Sibling(instruction, wmma::kLayout, qualifiers.Has(wmma::kLayout, wmma::kRow) ? wmma::kCol : wmma::kRow);
  if (!other.has_value()) return;  // sub-byte A and B have one layout only
  const std::optional<LaneValues> as_other =
      load(*other, static_cast<std::uint32_t>(WmmaDefaultStride(other->form().qualifiers)), 0, variant.placement);
  if (as_other.has_value() && *as_other != *as_case) {
    violations.push_back(
        {"layout", absl::StrCat("the same matrix loaded by ", PrintForm(other->form()), " gives another fragment")});
  }
}

// The descriptor (harness/families/family_runtime.h).

// WmmaDescriptor: a variant's operands are p's offset and the stride
// (VariantOperands::address and stride). A form naming .shared is built at both address widths.
class WmmaDescriptor final : public FamilyRuntime {
 public:
  Family family() const override { return Family::kWmmaLoad; }

  absl::StatusOr<std::unique_ptr<TestProgram>> NewProgram(const CheckedInstruction& instruction,
                                                          const ProgramOptions& options) const override {
    return NewWmmaProgram(instruction, options);
  }

  std::vector<int> AddressWidths(const CheckedInstruction& instruction) const override {
    if (instruction.signature().state_space == StateSpace::kShared) return {32, 64};
    return {64};
  }

  nlohmann::json OperandsJson(const Variant& variant) const override {
    const VariantOperands& pointer = variant.operands;
    return {{"offset", pointer.address}, {"stride", pointer.stride}};
  }

  void SetOperands(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                   Variant& variant) const override {
    const auto default_stride = static_cast<std::uint32_t>(WmmaDefaultStride(instruction.form().qualifiers));
    variant.operands = {.address = runtime.offset, .stride = runtime.stride.value_or(default_stride)};
  }

  void SetInputs(const Variant& variant, RuntimeInputs& runtime) const override {
    const VariantOperands& pointer = variant.operands;
    runtime.offset = pointer.address;
    runtime.stride = pointer.stride;
  }

  absl::StatusOr<ModelExplanation> Explain(const CheckedInstruction& instruction, absl::Span<const std::uint8_t> window,
                                           const RuntimeInputs& inputs) const override {
    absl::StatusOr<WmmaFragment> fragment = WmmaFragment::For(instruction);
    if (!fragment.ok()) return fragment.status();
    MemoryImage memory;
    memory.shared.assign(window.begin(), window.end());
    memory.global = memory.shared;
    const bool shared = instruction.signature().state_space == StateSpace::kShared;
    const std::uint64_t address = shared ? inputs.offset : memory.global_base + inputs.offset;
    ModelExplanation result{
        ExecuteWmmaLoad(instruction, *fragment, memory, {{address}, inputs.stride}), fragment->register_bits(), {}};
    result.provenance.assign(kWarpLanes, std::vector<std::vector<BitSource>>(fragment->registers()));
    const char* matrix = "abc";
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      for (int reg = 0; reg < fragment->registers(); ++reg) {
        for (int bit = 0; bit < fragment->register_bits(); bit += fragment->element_bits()) {
          const WmmaBitSource source = fragment->Provenance(lane, reg, bit);
          result.provenance[lane][reg].push_back({bit, bit + fragment->element_bits() - 1,
                                                  absl::StrCat(std::string(1, matrix[source.matrix]), "(",
                                                               source.element.row, ",", source.element.col, ")")});
        }
      }
    }
    return result;
  }

  void CheckInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                       std::vector<InvariantViolation>& violations) const override {
    CheckWmmaInvariants(instruction, runtime, violations);
  }
};

}  // namespace

namespace wmma {

const FamilyRuntime& Runtime() {
  static const auto* const kDescriptor = new WmmaDescriptor;
  return *kDescriptor;
}

}  // namespace wmma
}  // namespace matload
