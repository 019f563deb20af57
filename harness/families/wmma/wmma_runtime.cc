#include "harness/families/wmma/wmma_runtime.h"

#include "harness/families/wmma/wmma_invariants.h"
#include "harness/families/wmma/wmma_program.h"
#include "reference/runtime_ub.h"

namespace matload {
namespace {

// WmmaDescriptor: a variant's operands are p's offset and the stride
// (WmmaPointer). A form naming .shared is built at both address widths.
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
    const WmmaPointer& pointer = std::get<WmmaPointer>(variant.operands);
    return {{"offset", pointer.offset}, {"stride", pointer.stride}};
  }

  void SetOperands(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                   Variant& variant) const override {
    const auto default_stride = static_cast<std::uint32_t>(WmmaDefaultStride(instruction.form().qualifiers));
    variant.operands = WmmaPointer{.offset = runtime.offset, .stride = runtime.stride.value_or(default_stride)};
  }

  void SetInputs(const Variant& variant, RuntimeInputs& runtime) const override {
    const WmmaPointer& pointer = std::get<WmmaPointer>(variant.operands);
    runtime.offset = pointer.offset;
    runtime.stride = pointer.stride;
  }

  void CheckInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                       std::vector<InvariantViolation>& violations) const override {
    CheckWmmaInvariants(instruction, runtime, violations);
  }
};

}  // namespace

const FamilyRuntime& WmmaRuntime() {
  static const auto* const kDescriptor = new WmmaDescriptor;
  return *kDescriptor;
}

}  // namespace matload
