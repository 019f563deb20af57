#include "harness/families/ldmatrix/ldmatrix_runtime.h"

#include <algorithm>

#include "harness/families/ldmatrix/ldmatrix_invariants.h"
#include "harness/families/ldmatrix/ldmatrix_program.h"

namespace matload {
namespace {

// LdmatrixDescriptor: a variant's operands are each lane's row offset
// (LdmatrixRows); ldmatrix reads shared memory only.
class LdmatrixDescriptor final : public FamilyRuntime {
 public:
  Family family() const override { return Family::kLdmatrix; }

  absl::StatusOr<std::unique_ptr<TestProgram>> NewProgram(const CheckedInstruction& instruction,
                                                          const ProgramOptions& options) const override {
    return NewLdmatrixProgram(instruction, options);
  }

  nlohmann::json OperandsJson(const Variant& variant) const override {
    return {{"row_offsets", std::get<LdmatrixRows>(variant.operands).offsets}};
  }

  void SetOperands(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                   Variant& variant) const override {
    LdmatrixRows rows;
    const std::vector<std::uint64_t> padded = PaddedRows(runtime);
    std::copy_n(padded.begin(), kWarpLanes, rows.offsets.begin());
    variant.operands = rows;
    variant.placement = DataPlacement::kShared;
  }

  void SetInputs(const Variant& variant, RuntimeInputs& runtime) const override {
    const LdmatrixRows& rows = std::get<LdmatrixRows>(variant.operands);
    runtime.rows.assign(rows.offsets.begin(), rows.offsets.end());
  }

  void CheckInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                       std::vector<InvariantViolation>& violations) const override {
    CheckLdmatrixInvariants(instruction, runtime, violations);
  }
};

}  // namespace

const FamilyRuntime& LdmatrixRuntime() {
  static const auto* const kDescriptor = new LdmatrixDescriptor;
  return *kDescriptor;
}

}  // namespace matload
