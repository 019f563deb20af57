#include "harness/families/test_program.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/families/family_runtime.h"
#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {

absl::StatusOr<std::unique_ptr<TestProgram>> TestProgram::For(const CheckedInstruction& instruction,
                                                              const ProgramOptions& options) {
  if (!options.judge_on_device && PlantedInTheDeviceJudge(options.bug)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ", PlantedBugName(options.bug), " bug is planted in the device judge; plant it with the GPU judging"));
  }
  return RuntimeOf(instruction.form().family).NewProgram(instruction, options);
}

absl::StatusOr<std::unique_ptr<TestProgram>> TestProgram::ForOpcode(absl::string_view opcode, Target target,
                                                                    PtxVersion ptx, const ProgramOptions& options) {
  for (const CheckedInstruction& instruction : StandardInstructions(ptx, target)) {
    if (Opcode(instruction) == opcode) return For(instruction, options);
  }
  return absl::NotFoundError(
      absl::StrCat("no legal form on ", target.Name(), " at PTX ", ptx.ToString(), " is spelt '", opcode, "'"));
}

std::string TestProgram::Label() const {
  if (RuntimeOf(instruction().form().family).AddressWidths(instruction()).size() > 1) {
    return absl::StrCat(opcode(), " [", options().shared_address_bits, "-bit address]");
  }
  return opcode();
}

std::vector<Variant> TestProgram::Variants(int count, std::uint64_t seed, bool undefined) const {
  std::vector<Variant> variants;
  variants.reserve(count);
  for (int index = 0; index < count; ++index) variants.push_back(MakeVariant(seed, index, undefined));
  return variants;
}

void TestProgram::WriteRecord(const Variant& variant, absl::Span<std::uint8_t> record) const {
  WriteRecordHeader(variant.stream, variant.pattern, variant.placement, record.first(kRecordHeaderBytes));
  WriteOperands(variant, record.subspan(kRecordHeaderBytes));
}

std::vector<std::uint8_t> TestProgram::Record(const Variant& variant) const {
  std::vector<std::uint8_t> record(frame().record_bytes);
  WriteRecord(variant, absl::MakeSpan(record));
  return record;
}

std::uint64_t PlannedLineOffset(const LoadPlan& plan, const VariantOperands& operands, int line) {
  if (plan.lines == PlanLines::kLaneAddresses) return operands.lane_addresses[line];
  return operands.address + static_cast<std::uint64_t>(line) * operands.stride * plan.line_stride_bits / 8;
}

SplitMix64 OperandRandom(std::uint64_t stream) { return SplitMix64(SplitMix64Output(stream)); }

std::string Opcode(const CheckedInstruction& instruction) {
  return PrintOpcode(instruction.form().family, instruction.form().qualifiers);
}

}  // namespace matload
