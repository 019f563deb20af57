#include "harness/families/tcgen05/tcgen05_program.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/families/tcgen05/tcgen05_kernel.h"
#include "reference/tcgen05_semantics.h"

namespace matload {
namespace {

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
                    .operands = Tcgen05Address{}};
    SplitMix64 random = OperandRandom(variant.stream);
    const bool past_the_end = undefined && index % 4 == 3;
    std::uint32_t& column = std::get<Tcgen05Address>(variant.operands).column;
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
    const std::uint32_t column = std::get<Tcgen05Address>(variant.operands).column;
    return ExecuteTcgen05Ld(instruction(), layout_, tmem, column + AddressOffset(), /*warp=*/0);
  }

  std::string WordSource(int lane, int word) const override {
    if (word >= layout_.registers()) return "redval";
    std::string text;
    for (int half = 0; half < 2; ++half) {
      const Tcgen05Source& source = layout_.At(lane, word, half);
      absl::StrAppend(&text, half == 0 ? "" : " ",
                      absl::StrFormat("access %d lane +%d column +%d bits %d-%d", source.access, source.lane,
                                      source.column, source.cell_bit, source.cell_bit + 15));
    }
    return text;
  }

  std::string FaultCaseText(const Variant& variant) const override {
    return absl::StrCat(opcode(), "; column=", std::get<Tcgen05Address>(variant.operands).column);
  }

 protected:
  void WriteOperands(const Variant& variant, absl::Span<std::uint8_t> operands) const override {
    StoreLittleEndian(std::get<Tcgen05Address>(variant.operands).column, operands);
  }

 private:
  // AddressOffset is the offset written after the address register, if any.
  std::uint32_t AddressOffset() const {
    for (const Operand& operand : instruction().form().operands) {
      if (const auto* address = std::get_if<AddressOperand>(&operand)) return static_cast<std::uint32_t>(address->offset);
    }
    return 0;
  }

  Tcgen05Layout layout_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<TestProgram>> NewTcgen05Program(const CheckedInstruction& instruction,
                                                               const ProgramOptions& options) {
  if (options.bug == PlantedBug::kTransposedExpectation) {
    return absl::InvalidArgumentError(absl::StrCat(Opcode(instruction), ": tcgen05.ld has no transposed twin to plant"));
  }
  return std::make_unique<Tcgen05Program>(instruction, options);
}

}  // namespace matload
