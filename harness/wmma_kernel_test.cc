#include "harness/wmma_kernel.h"

#include "gtest/gtest.h"
#include "harness/ptxas.h"
#include "reference/enumerate.h"
#include "reference/printer.h"
#include "reference/wmma_load_table.h"

namespace matload {
namespace {

// Every legal sm_90 wmma.load form's kernel assembles, in every placement
// its state space allows: .global data, and .shared data through a 32-bit
// and a 64-bit shared address or a generic one.
TEST(WmmaKernelTest, EveryLegalSm90FormsKernelAssembles) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const Target target{90};
  int kernels = 0;
  for (const QualifierSet& qualifiers : LegalQualifierSets(wmma::Spec(), {9, 0}, target)) {
    const std::optional<CheckedInstruction> instruction = StandardInstruction(wmma::Spec(), qualifiers, {9, 0}, target);
    ASSERT_TRUE(instruction.has_value());
    const OperandSignature& signature = instruction->signature();
    std::vector<WmmaPlacement> placements;
    if (signature.state_space != StateSpace::kShared) placements.push_back({StateSpace::kGlobal});
    if (signature.state_space == StateSpace::kShared) {
      placements.push_back({StateSpace::kShared, 4096, 32});
      placements.push_back({StateSpace::kShared, 4096, 64});
    }
    if (signature.state_space == StateSpace::kGeneric) placements.push_back({StateSpace::kShared, 4096, 64});
    for (const WmmaPlacement& placement : placements) {
      const std::string kernel = WmmaKernel(*instruction, placement);
      absl::StatusOr<AssembleResult> result = ptxas->Assemble(kernel, target);
      ASSERT_TRUE(result.ok()) << result.status();
      ASSERT_TRUE(result->accepted) << kernel << "\n"
                                    << (result->diagnostics.empty() ? "" : result->diagnostics[0].message);
      ++kernels;
    }
  }
  EXPECT_GT(kernels, 352);
}

TEST(WmmaKernelTest, ArgsAreLittleEndian) {
  const std::vector<std::uint8_t> args = WmmaKernelArgs(0x0102030405060708, 0x0a0b0c0d);
  EXPECT_EQ(args[0], 0x08);
  EXPECT_EQ(args[7], 0x01);
  EXPECT_EQ(args[8], 0x0d);
  EXPECT_EQ(args[11], 0x0a);
}

}  // namespace
}  // namespace matload
