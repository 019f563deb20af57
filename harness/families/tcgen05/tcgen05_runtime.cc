#include "harness/families/tcgen05/tcgen05_runtime.h"

#include "harness/families/tcgen05/tcgen05_invariants.h"
#include "harness/families/tcgen05/tcgen05_program.h"

namespace matload {
namespace {

// Tcgen05Descriptor: a variant's operand is the TMEM column
// (Tcgen05Address); running it needs Tensor Memory.
class Tcgen05Descriptor final : public FamilyRuntime {
 public:
  Family family() const override { return Family::kTcgen05Ld; }

  absl::StatusOr<std::unique_ptr<TestProgram>> NewProgram(const CheckedInstruction& instruction,
                                                          const ProgramOptions& options) const override {
    return NewTcgen05Program(instruction, options);
  }

  nlohmann::json OperandsJson(const Variant& variant) const override {
    return {{"tmem_column", std::get<Tcgen05Address>(variant.operands).column}};
  }

  void SetOperands(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                   Variant& variant) const override {
    variant.operands = Tcgen05Address{runtime.column};
  }

  void SetInputs(const Variant& variant, RuntimeInputs& runtime) const override {
    runtime.column = std::get<Tcgen05Address>(variant.operands).column;
  }

  void CheckInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                       std::vector<InvariantViolation>& violations) const override {
    CheckTcgen05Invariants(instruction, runtime, violations);
  }

  std::optional<HardwareNeed> NeededHardware() const override {
    return HardwareNeed{.hardware = "Tensor Memory", .kernel_test = "tcgen05_kernel_test"};
  }
};

}  // namespace

const FamilyRuntime& Tcgen05Runtime() {
  static const auto* const kDescriptor = new Tcgen05Descriptor;
  return *kDescriptor;
}

}  // namespace matload
