#include "harness/families/wmma/wmma_kernel.h"

#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "reference/enumerate.h"
#include "reference/printer.h"
#include "reference/wmma_load_table.h"

namespace matload {
namespace {

// Every legal sm_90 wmma.load form's kernel assembles; .shared forms with a
// 32-bit and a 64-bit shared address.
TEST(WmmaKernelTest, EveryLegalSm90FormsKernelAssembles) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const Target target{90};
  int kernels = 0;
  for (const QualifierSet& qualifiers : LegalQualifierSets(wmma::Spec(), {9, 0}, target)) {
    const std::optional<CheckedInstruction> instruction = StandardInstruction(wmma::Spec(), qualifiers, {9, 0}, target);
    ASSERT_TRUE(instruction.has_value());
    for (int address_bits : {32, 64}) {
      if (address_bits == 32 && instruction->signature().state_space != StateSpace::kShared) continue;
      const std::string kernel = WmmaKernel(*instruction, address_bits, PlantedBug::kNone);
      absl::StatusOr<AssembleResult> result = ptxas->Assemble(kernel, target);
      ASSERT_TRUE(result.ok()) << result.status();
      ASSERT_TRUE(result->accepted) << kernel << "\n"
                                    << (result->diagnostics.empty() ? "" : result->diagnostics[0].message);
      ++kernels;
    }
  }
  EXPECT_GT(kernels, 352);
}

// A .global form reads only global memory: its kernel declares no shared window.
TEST(WmmaKernelTest, GlobalFormsHaveNoSharedWindow) {
  const Target target{90};
  for (const QualifierSet& qualifiers : LegalQualifierSets(wmma::Spec(), {9, 0}, target)) {
    const std::optional<CheckedInstruction> instruction = StandardInstruction(wmma::Spec(), qualifiers, {9, 0}, target);
    ASSERT_TRUE(instruction.has_value());
    const bool global = instruction->signature().state_space == StateSpace::kGlobal;
    EXPECT_EQ(WmmaFrame(*instruction).has_shared_window, !global);
    EXPECT_EQ(WmmaKernel(*instruction, 64, PlantedBug::kNone).find(".shared .align") == std::string::npos, global);
  }
}

}  // namespace
}  // namespace matload
