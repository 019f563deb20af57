#include "harness/families/ldmatrix/ldmatrix_program.h"

#include <array>
#include <bitset>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/families/ldmatrix/ldmatrix_kernel.h"
#include "reference/enumerate.h"
#include "reference/ldmatrix_semantics.h"
#include "reference/ldmatrix_table.h"

namespace matload {
namespace {

constexpr int kWindowRows = kLdmatrixWindowBytes / ldmatrix::kRowBytes;

// RowGenerator names the ways lanes' row addresses are drawn.
enum class RowGenerator { kContiguous, kScattered, kRepeated, kReversed, kMisaligned };

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


// RowOffsets draws each lane's row byte offset.
std::array<std::uint64_t, kWarpLanes> RowOffsets(RowGenerator generator, SplitMix64& random) {
  std::array<std::uint64_t, kWarpLanes> rows;
  const std::uint64_t base = random.Below(kWindowRows - kWarpLanes);
  switch (generator) {
    case RowGenerator::kContiguous:
      for (int lane = 0; lane < kWarpLanes; ++lane) rows[lane] = base + lane;
      break;
    case RowGenerator::kReversed:
      for (int lane = 0; lane < kWarpLanes; ++lane) rows[lane] = base + kWarpLanes - 1 - lane;
      break;
    case RowGenerator::kRepeated:
      for (std::uint64_t& row : rows) row = base + random.Below(4);
      break;
    case RowGenerator::kScattered:
    case RowGenerator::kMisaligned: {
      // Distinct rows, uniformly: redraw a row another lane holds.
      std::bitset<kWindowRows> taken;
      for (std::uint64_t& row : rows) {
        do {
          row = random.Below(kWindowRows);
        } while (taken[row]);
        taken[row] = true;
      }
      break;
    }
  }
  for (std::uint64_t& row : rows) row *= ldmatrix::kRowBytes;
  if (generator == RowGenerator::kMisaligned) rows[random.Below(8)] += 4 * (1 + random.Below(3));
  return rows;
}

class LdmatrixProgram : public TestProgram {
 public:
  LdmatrixProgram(const CheckedInstruction& instruction, const ProgramOptions& options,
                  const CheckedInstruction& expected_form)
      : TestProgram(instruction, options, LdmatrixFrame(instruction), LdmatrixKernel(instruction, options.bug),
                    kLdmatrixEntry),
        expected_form_(expected_form),
        expected_layout_(LdmatrixLayout::For(expected_form)),
        layout_(LdmatrixLayout::For(instruction)) {
    address_space_.shared.resize(frame().window_bytes);
  }

  Variant MakeVariant(std::uint64_t seed, int index, bool undefined) const override {
    Variant variant{.index = index,
                    .kind = "",
                    .pattern = index == 0 ? DataPattern::kTagged : DataPattern::kRandom,
                    .stream = DataStream(seed, index),
                    .placement = DataPlacement::kShared,
                    .operands = LdmatrixRows{}};
    SplitMix64 random = OperandRandom(variant.stream);
    RowGenerator generator = static_cast<RowGenerator>(index % 4);
    if (undefined && index % 4 == 3) generator = RowGenerator::kMisaligned;
    std::array<std::uint64_t, kWarpLanes>& offsets = std::get<LdmatrixRows>(variant.operands).offsets;
    // Redraw the rare defined draw that the model calls undefined (and the
    // reverse), then fall back to contiguous rows from 0. Definedness
    // depends on the addresses alone, so the check reads no data.
    for (int attempt = 0; attempt < 8; ++attempt) {
      offsets = RowOffsets(generator, random);
      const bool defined = !LdmatrixAddressHazard(expected_form_, expected_layout_, address_space_,
                                                  LdmatrixRowAddresses(expected_form_, address_space_, offsets))
                                .has_value();
      if (defined == (generator != RowGenerator::kMisaligned)) break;
      if (attempt == 7) {
        generator = RowGenerator::kContiguous;
        for (int lane = 0; lane < kWarpLanes; ++lane) offsets[lane] = lane * ldmatrix::kRowBytes;
      }
    }
    variant.kind = RowGeneratorName(generator);
    return variant;
  }

  Outcome Expect(const Variant& variant) const override {
    // Only the rows the lanes name are read.
    const std::array<std::uint64_t, kWarpLanes>& offsets = std::get<LdmatrixRows>(variant.operands).offsets;
    MemoryImage memory;
    memory.shared.resize(frame().window_bytes);
    for (std::uint64_t offset : offsets) {
      FillWindowRange(variant.pattern, variant.stream, absl::MakeSpan(memory.shared), offset, ldmatrix::kRowBytes);
    }
    return ExecuteLdmatrix(expected_form_, expected_layout_, memory,
                           LdmatrixRowAddresses(expected_form_, memory, offsets));
  }

  std::string WordSource(int lane, int word) const override {
    std::string text;
    for (int byte = 0; byte < 4; ++byte) {
      const LdmatrixElement& element = layout_.At(lane, word, byte);
      if (element.byte != 0 && byte != 0) continue;  // one entry per element
      absl::StrAppend(&text, text.empty() ? "" : " ",
                      absl::StrFormat("m%d(%d,%d) via lane %d", element.matrix, element.row, element.col,
                                      element.address_lane));
    }
    return text;
  }

  std::string FaultCaseText(const Variant& variant) const override {
    return absl::StrCat(opcode(), "; rows=", variant.kind);
  }

 protected:
  void WriteOperands(const Variant& variant, absl::Span<std::uint8_t> operands) const override {
    const std::array<std::uint64_t, kWarpLanes>& offsets = std::get<LdmatrixRows>(variant.operands).offsets;
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

}  // namespace

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

}  // namespace matload
