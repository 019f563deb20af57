#include "harness/test_program.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/ldmatrix_program.h"
#include "harness/tcgen05_program.h"
#include "harness/wmma_program.h"
#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {

absl::StatusOr<std::unique_ptr<TestProgram>> TestProgram::For(const CheckedInstruction& instruction,
                                                              const ProgramOptions& options) {
  switch (instruction.form().family) {
    case Family::kLdmatrix: return NewLdmatrixProgram(instruction, options);
    case Family::kWmmaLoad: return NewWmmaProgram(instruction, options);
    case Family::kTcgen05Ld: return NewTcgen05Program(instruction, options);
  }
  return absl::InternalError("unknown family");
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
  if (instruction().form().family == Family::kWmmaLoad &&
      instruction().signature().state_space == StateSpace::kShared) {
    return absl::StrCat(Opcode(instruction()), " [", options().shared_address_bits, "-bit address]");
  }
  return Opcode(instruction());
}

std::vector<std::uint8_t> TestProgram::Record(const Variant& variant) const {
  std::vector<std::uint8_t> record = RecordHeader(variant.stream, variant.pattern, variant.placement);
  AppendOperands(variant, record);
  return record;
}

std::uint64_t DrawBelow(std::mt19937_64& random, std::uint64_t bound) { return random() % bound; }

std::string Opcode(const CheckedInstruction& instruction) {
  return PrintOpcode(instruction.form().family, instruction.form().qualifiers);
}

}  // namespace matload
