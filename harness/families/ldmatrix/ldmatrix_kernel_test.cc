#include "harness/families/ldmatrix/ldmatrix_kernel.h"

#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "reference/enumerate.h"
#include "reference/ldmatrix_table.h"

namespace matload {
namespace {

// Every legal ldmatrix form's kernel assembles, for Hopper and for the
// Blackwell targets whose shapes no lent GPU can run.
TEST(LdmatrixKernelTest, EveryLegalFormsKernelAssembles) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  int kernels = 0;
  for (const char* name : {"sm_75", "sm_90", "sm_100a", "sm_120a"}) {
    const Target target = *ParseTarget(name);
    for (const QualifierSet& qualifiers : LegalQualifierSets(ldmatrix::Spec(), {9, 0}, target)) {
      const std::optional<CheckedInstruction> instruction = StandardInstruction(ldmatrix::Spec(), qualifiers, {9, 0}, target);
      ASSERT_TRUE(instruction.has_value());
      const std::string kernel = LdmatrixKernel(*instruction, PlantedBug::kNone);
      absl::StatusOr<AssembleResult> result = ptxas->Assemble(kernel, target);
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_TRUE(result->accepted) << name << ":\n" << kernel << "\n" << (result->diagnostics.empty() ? "" : result->diagnostics[0].message);
      ++kernels;
    }
  }
  EXPECT_EQ(kernels, 18 + 18 + 54 + 54);
}

// Every planted bug still gives a kernel ptxas accepts, and each kernel bug
// changes the text: the self-test runs real kernels, not broken modules.
TEST(LdmatrixKernelTest, EveryPlantedBugAssemblesAndChangesTheKernel) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const Target target{90};
  // A form with four destination registers, so that every bug shows.
  std::optional<CheckedInstruction> instruction;
  for (const QualifierSet& qualifiers : LegalQualifierSets(ldmatrix::Spec(), {9, 0}, target)) {
    instruction = StandardInstruction(ldmatrix::Spec(), qualifiers, {9, 0}, target);
    if (instruction.has_value() && instruction->signature().destination_count == 4) break;
  }
  ASSERT_TRUE(instruction.has_value());
  const std::string clean = LdmatrixKernel(*instruction, PlantedBug::kNone);
  std::vector<PlantedBug> bugs = AllPlantedBugs();
  bugs.push_back(PlantedBug::kHangingBlock);
  for (PlantedBug bug : bugs) {
    const std::string kernel = LdmatrixKernel(*instruction, bug);
    absl::StatusOr<AssembleResult> result = ptxas->Assemble(kernel, target);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_TRUE(result->accepted) << PlantedBugName(bug);
    // The transposed bug lives in the expected values, not in the kernel.
    EXPECT_EQ(kernel == clean, bug == PlantedBug::kTransposedExpectation) << PlantedBugName(bug);
  }
}

}  // namespace
}  // namespace matload
