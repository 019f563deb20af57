#include "harness/families/wmma/wmma_program.h"

#include <iterator>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/families/wmma/wmma_kernel.h"
#include "reference/enumerate.h"
#include "reference/memory_image.h"
#include "reference/runtime_ub.h"
#include "reference/wmma_load_table.h"
#include "reference/wmma_semantics.h"

namespace matload {
namespace {

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

class WmmaProgram : public TestProgram {
 public:
  WmmaProgram(const CheckedInstruction& instruction, const ProgramOptions& options, WmmaFragment fragment,
              const CheckedInstruction& expected_form, WmmaFragment expected_fragment)
      : TestProgram(instruction, options, WmmaFrame(instruction),
                    WmmaKernel(instruction, options.shared_address_bits, options.bug), kWmmaEntry),
        fragment_(fragment),
        expected_form_(expected_form),
        expected_fragment_(expected_fragment),
        default_stride_(WmmaDefaultStride(instruction.form().qualifiers)) {
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
                    .stream = DataStream(seed, index),
                    .placement = placements_[index % placements_.size()],
                    .operands = WmmaPointer{}};
    SplitMix64 random = OperandRandom(variant.stream);
    PointerGenerator generator = index == 0                       ? PointerGenerator::kDefault
                                 : has_stride && index % 3 == 2 ? PointerGenerator::kWideStride
                                                                  : PointerGenerator::kOffset;
    if (undefined && index % 4 == 3) {
      generator = has_stride && index % 8 == 7 ? PointerGenerator::kShortStride : PointerGenerator::kMisalignedPointer;
    }
    WmmaPointer& pointer = std::get<WmmaPointer>(variant.operands);
    pointer.stride = default_stride_;
    if (generator == PointerGenerator::kWideStride) {
      for (std::uint64_t steps = 1 + random.Below(3); steps > 0; --steps) {
        const std::uint32_t wider = WmmaAlignedStrideAbove(qualifiers, instruction().signature(), pointer.stride);
        if (WmmaExtentBytes(qualifiers, wider) > static_cast<std::uint64_t>(frame().window_bytes) / 2) break;
        pointer.stride = wider;
      }
    }
    if (generator == PointerGenerator::kShortStride) pointer.stride = default_stride_ - 1;
    if (generator != PointerGenerator::kDefault) {
      const std::uint64_t room = frame().window_bytes - WmmaExtentBytes(qualifiers, pointer.stride);
      pointer.offset = alignment_ * random.Below(room / alignment_ + 1);
    }
    if (generator == PointerGenerator::kMisalignedPointer) pointer.offset = (pointer.offset | 2) % frame().window_bytes;
    variant.kind = VariantKind(variant.placement, generator);
    return variant;
  }

  Outcome Expect(const Variant& variant) const override {
    const WmmaPointer& pointer = std::get<WmmaPointer>(variant.operands);
    // Only the matrix's extent from p is read.
    std::vector<std::uint8_t> window(frame().window_bytes);
    FillWindowRange(variant.pattern, variant.stream, absl::MakeSpan(window), pointer.offset,
                    WmmaExtentBytes(instruction().form().qualifiers, pointer.stride));
    MemoryImage memory;
    const StateSpace named = instruction().signature().state_space;
    std::uint64_t address = memory.global_base + pointer.offset;
    if (variant.placement == DataPlacement::kShared) {
      memory.shared = std::move(window);
      address = named == StateSpace::kShared ? pointer.offset : memory.shared_generic_base + pointer.offset;
    } else {
      memory.global = std::move(window);
    }
    const int address_bits = named == StateSpace::kShared ? options().shared_address_bits : 64;
    return ExecuteWmmaLoad(expected_form_, expected_fragment_, memory,
                           {{address, address_bits},
                            instruction().signature().stride ? std::optional<std::uint32_t>(pointer.stride)
                                                             : std::nullopt});
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
      absl::StrAppend(&text, text.empty() ? "" : " ", absl::StrFormat("%c(%d,%d)", matrix, source.element.row,
                                                                      source.element.col));
    }
    return text;
  }

  std::string FaultCaseText(const Variant& variant) const override {
    const std::uint64_t pitch =
        std::uint64_t{std::get<WmmaPointer>(variant.operands).stride} * fragment_.element_bits() / 8;
    return absl::StrCat(opcode(), "; p-mod16=", std::get<WmmaPointer>(variant.operands).offset % 16,
                        "; row-pitch-bytes=", pitch, "; row-pitch-mod16=", pitch % 16);
  }

 protected:
  void WriteOperands(const Variant& variant, absl::Span<std::uint8_t> operands) const override {
    const WmmaPointer& pointer = std::get<WmmaPointer>(variant.operands);
    StoreLittleEndian(pointer.offset, operands.subspan(0, 8));
    StoreLittleEndian(pointer.stride, operands.subspan(8));
  }

 private:
  WmmaFragment fragment_;
  CheckedInstruction expected_form_;
  WmmaFragment expected_fragment_;
  std::uint32_t default_stride_;  // the stride of forms without a stride operand
  int alignment_ = 32;
  std::vector<DataPlacement> placements_;
};

}  // namespace

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

}  // namespace matload
