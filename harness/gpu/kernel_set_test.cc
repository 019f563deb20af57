#include "harness/gpu/kernel_set.h"

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "reference/ptx_version.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::unique_ptr<TestProgram> Program(absl::string_view opcode, absl::string_view target) {
  absl::StatusOr<std::unique_ptr<TestProgram>> program =
      TestProgram::ForOpcode(opcode, *ParseTarget(target), {9, 0}, {});
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : nullptr;
}

// The combined module holds every kernel under its own name, and ptxas
// assembles it: the renaming left valid PTX.
TEST(KernelSetTest, CombinesKernelsUnderNamesOfTheirOwn) {
  const auto ldmatrix = Program("ldmatrix.sync.aligned.m8n8.x4.shared.b16", "sm_90");
  const auto wmma = Program("wmma.load.a.sync.aligned.row.m16n16k16.global.f16", "sm_90");
  absl::StatusOr<KernelSet> set = CombineKernels({ldmatrix.get(), wmma.get(), ldmatrix.get()}, "round 7");
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_THAT(set->entries, ElementsAre(ldmatrix->entry() + "_0", wmma->entry() + "_1", ldmatrix->entry() + "_2"));
  EXPECT_TRUE(absl::StartsWith(set->module, "// round 7\n.version "));
  for (const std::string& entry : set->entries) {
    EXPECT_THAT(set->module, HasSubstr(".visible .entry " + entry + "(.param"));
  }
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  absl::StatusOr<AssembleResult> assembled = ptxas->Assemble(set->module, *ParseTarget("sm_90"));
  ASSERT_TRUE(assembled.ok()) << assembled.status();
  EXPECT_TRUE(assembled->accepted) << (assembled->diagnostics.empty() ? "" : assembled->diagnostics[0].message);
}

TEST(KernelSetTest, RejectsKernelsOfDifferentTargets) {
  const auto sm90 = Program("ldmatrix.sync.aligned.m8n8.x4.shared.b16", "sm_90");
  const auto sm80 = Program("ldmatrix.sync.aligned.m8n8.x4.shared.b16", "sm_80");
  absl::StatusOr<KernelSet> set = CombineKernels({sm90.get(), sm80.get()});
  EXPECT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(set.status().message(), HasSubstr("another module header"));
}

TEST(KernelSetTest, RejectsAnEmptySet) {
  EXPECT_EQ(CombineKernels({}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
