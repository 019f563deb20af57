#include "harness/families/tcgen05/tcgen05_kernel.h"

#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "reference/enumerate.h"
#include "reference/tcgen05_ld_table.h"

namespace matload {
namespace {

// Every legal tcgen05.ld form's kernel (alloc, st, wait, ld, wait, dealloc)
// assembles for each Blackwell target that has Tensor Memory. No lent GPU
// can run them; this is as far as they get here.
TEST(Tcgen05KernelTest, EveryLegalFormsKernelAssemblesOnEveryTensorMemoryTarget) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  int kernels = 0;
  for (const char* name : {"sm_100a", "sm_103a", "sm_110a"}) {
    const Target target = *ParseTarget(name);
    for (const QualifierSet& qualifiers : LegalQualifierSets(tcgen05::Spec(), {9, 0}, target)) {
      const std::optional<CheckedInstruction> instruction = StandardInstruction(tcgen05::Spec(), qualifiers, {9, 0}, target);
      ASSERT_TRUE(instruction.has_value());
      const std::string kernel = Tcgen05Kernel(*instruction, PlantedBug::kNone);
      absl::StatusOr<AssembleResult> result = ptxas->Assemble(kernel, target);
      ASSERT_TRUE(result.ok()) << result.status();
      ASSERT_TRUE(result->accepted) << name << ":\n" << kernel << "\n"
                                    << (result->diagnostics.empty() ? "" : result->diagnostics[0].message);
      ++kernels;
    }
  }
  EXPECT_EQ(kernels, 558);
}

}  // namespace
}  // namespace matload
