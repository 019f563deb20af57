#include "harness/ldmatrix_program.h"

#include <random>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/ldmatrix_kernel.h"
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
std::vector<std::uint64_t> RowOffsets(RowGenerator generator, std::mt19937_64& random) {
  std::vector<std::uint64_t> rows(kWarpLanes);
  const std::uint64_t base = DrawBelow(random, kWindowRows - kWarpLanes);
  switch (generator) {
    case RowGenerator::kContiguous:
      for (int lane = 0; lane < kWarpLanes; ++lane) rows[lane] = base + lane;
      break;
    case RowGenerator::kReversed:
      for (int lane = 0; lane < kWarpLanes; ++lane) rows[lane] = base + kWarpLanes - 1 - lane;
      break;
    case RowGenerator::kRepeated:
      for (std::uint64_t& row : rows) row = base + DrawBelow(random, 4);
      break;
    case RowGenerator::kScattered:
    case RowGenerator::kMisaligned: {
      std::vector<std::uint64_t> all(kWindowRows);
      for (int i = 0; i < kWindowRows; ++i) all[i] = i;
      for (int lane = 0; lane < kWarpLanes; ++lane) std::swap(all[lane], all[lane + DrawBelow(random, kWindowRows - lane)]);
      for (int lane = 0; lane < kWarpLanes; ++lane) rows[lane] = all[lane];
      break;
    }
  }
  std::vector<std::uint64_t> offsets(kWarpLanes);
  for (int lane = 0; lane < kWarpLanes; ++lane) offsets[lane] = rows[lane] * ldmatrix::kRowBytes;
  if (generator == RowGenerator::kMisaligned) offsets[DrawBelow(random, 8)] += 4 * (1 + DrawBelow(random, 3));
  return offsets;
}

class LdmatrixProgram : public TestProgram {
 public:
  LdmatrixProgram(const CheckedInstruction& instruction, const ProgramOptions& options,
                  const CheckedInstruction& expected_form)
      : TestProgram(instruction, options, LdmatrixFrame(instruction), LdmatrixKernel(instruction, options.bug),
                    kLdmatrixEntry),
        expected_form_(expected_form),
        expected_layout_(LdmatrixLayout::For(expected_form)),
        layout_(LdmatrixLayout::For(instruction)) {}

  std::vector<Variant> Variants(int count, std::uint64_t seed, bool undefined) const override {
    std::vector<Variant> variants;
    variants.reserve(count);
    // Whether the model defines a load depends on the addresses alone, so
    // the check reads a window of zeros rather than the variant's data.
    MemoryImage zeros;
    zeros.shared.resize(frame().window_bytes);
    for (int index = 0; index < count; ++index) {
      Variant variant{.index = index,
                      .kind = "",
                      .pattern = index == 0 ? DataPattern::kTagged : DataPattern::kRandom,
                      .stream = DataStream(seed, index),
                      .placement = DataPlacement::kShared,
                      .operands = LdmatrixRows{}};
      std::mt19937_64 random(variant.stream);
      RowGenerator generator = static_cast<RowGenerator>(index % 4);
      if (undefined && index % 4 == 3) generator = RowGenerator::kMisaligned;
      // Redraw the rare defined draw that the model calls undefined (and
      // the reverse), then fall back to contiguous rows from 0.
      for (int attempt = 0; attempt < 8; ++attempt) {
        std::get<LdmatrixRows>(variant.operands).offsets = RowOffsets(generator, random);
        const std::vector<std::uint64_t>& offsets = std::get<LdmatrixRows>(variant.operands).offsets;
        const bool defined = std::holds_alternative<LaneValues>(ExecuteLdmatrix(
            expected_form_, expected_layout_, zeros, LdmatrixRowAddresses(expected_form_, zeros, offsets)));
        if (defined == (generator != RowGenerator::kMisaligned)) break;
        if (attempt == 7) {
          generator = RowGenerator::kContiguous;
          for (int lane = 0; lane < kWarpLanes; ++lane) {
            std::get<LdmatrixRows>(variant.operands).offsets[lane] = lane * ldmatrix::kRowBytes;
          }
        }
      }
      variant.kind = std::string(RowGeneratorName(generator));
      variants.push_back(std::move(variant));
    }
    return variants;
  }

  Outcome Expect(const Variant& variant) const override {
    // Only the rows the lanes name are read.
    const std::vector<std::uint64_t>& offsets = std::get<LdmatrixRows>(variant.operands).offsets;
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
    return absl::StrCat(Opcode(instruction()), "; rows=", variant.kind);
  }

 protected:
  void AppendOperands(const Variant& variant, std::vector<std::uint8_t>& record) const override {
    for (std::uint64_t offset : std::get<LdmatrixRows>(variant.operands).offsets) AppendLittleEndian(record, offset, 8);
  }

 private:
  CheckedInstruction expected_form_;
  LdmatrixLayout expected_layout_;
  LdmatrixLayout layout_;
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
