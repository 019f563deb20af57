#include "harness/gpu/cuda_driver.h"
#include "harness/platform/infrastructure.h"

#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/compile/ptxas.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/case_judge.h"
#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(CudaDriverTest, NoDriverIsSaidPlainly) {
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open("/nonexistent/libcuda.so.1");
  EXPECT_TRUE(IsNoGpu(driver.status())) << driver.status();
  EXPECT_THAT(std::string(driver.status().message()), HasSubstr("no CUDA driver"));
  EXPECT_THAT(std::string(driver.status().message()), HasSubstr("compile-only mode"));
}

TEST(CudaDriverTest, TheToolkitStubIsNotADriver) {
  const char* home = std::getenv("CUDA_HOME");
  const std::string stub = absl::StrCat(home != nullptr ? home : "/usr/local/cuda", "/lib64/stubs/libcuda.so");
  ASSERT_TRUE(std::filesystem::exists(stub)) << stub << " is part of the CUDA toolkit matload builds with";
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open(stub);
  EXPECT_TRUE(IsNoGpu(driver.status())) << driver.status();
  EXPECT_THAT(std::string(driver.status().message()), HasSubstr("stub, not a driver; compile-only mode"));
}

// On a GPU: every legal and near-miss form of the device's own targets, JIT
// compiled by the driver and assembled by ptxas; the verdicts must agree.
// A launch's output copied back into page-locked memory is the model's,
// as it is through ordinary memory; a buffer of the wrong size is refused.
TEST(CudaDriverTest, PinnedOutputReceivesALaunchsOutput) {
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
  if (!driver.ok()) GTEST_SKIP() << "needs a GPU: " << driver.status().message();
  absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, 0);
  ASSERT_TRUE(jit.ok()) << jit.status();
  const std::unique_ptr<TestProgram> program = *TestProgram::ForOpcode(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16", (*jit)->device().BaseTarget(), ProbePtxDialect(**jit)->Judged(), {});
  const std::vector<Variant> variants = program->Variants(64, 5, false);
  std::vector<std::uint8_t> records;
  std::vector<std::uint8_t> expected;
  for (const Variant& variant : variants) {
    const std::vector<std::uint8_t> record = program->Record(variant);
    records.insert(records.end(), record.begin(), record.end());
    const std::vector<std::uint8_t> bytes = ExpectedBytes(std::get<LaneValues>(program->Expect(variant)));
    expected.insert(expected.end(), bytes.begin(), bytes.end());
  }
  const DriverJit::KernelLaunch launch = KernelLaunchFor(*program, variants.size(), records);
  absl::StatusOr<absl::Span<std::uint8_t>> pinned = (*jit)->PinnedOutput(1, launch.output_bytes);
  ASSERT_TRUE(pinned.ok()) << pinned.status();
  ASSERT_TRUE((*jit)->LaunchInto(program->kernel(), launch, *pinned).ok());
  EXPECT_TRUE(std::equal(pinned->begin(), pinned->end(), expected.begin(), expected.end()));
  std::vector<std::uint8_t> pageable;
  ASSERT_TRUE((*jit)->LaunchInto(program->kernel(), launch, pageable).ok());
  EXPECT_EQ(pageable, expected);
  const absl::Status too_small = (*jit)->LaunchInto(program->kernel(), launch, pinned->first(16));
  EXPECT_EQ(too_small.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_small.message(), HasSubstr("the host output holds 16 bytes"));
}

TEST(CudaDriverTest, DriverJitAgreesWithPtxasOnTheDevice) {
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
  if (!driver.ok()) GTEST_SKIP() << "needs a GPU: " << driver.status().message();
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, 0);
  ASSERT_TRUE(jit.ok()) << jit.status();
  const DeviceInfo& device = (*jit)->device();
  std::cout << "device 0: " << device.name << ", sm_" << device.compute_major << device.compute_minor << ", "
            << device.uuid << "; " << (*jit)->Version() << "; ptxas " << ptxas->Version() << "\n";
  // At the newest version the JIT speaks (ptx_dialect.h).
  const PtxVersion ptx = ProbePtxDialect(**jit)->Judged();
  int compared_targets = 0;
  for (const TargetInfo& info : AllTargets()) {
    if (!(*jit)->Supports(info.target) || !TargetExistsIn(info.target, ptx)) continue;
    ++compared_targets;
    const Target target = info.target;
    std::vector<Snippet> snippets;
    for (const Form& form : LegalForms(ptx, target)) {
      snippets.push_back({StandardRegisterFile(), ToRaw(form)});
    }
    const size_t legal = snippets.size();
    for (RawInstruction& raw : NearMissInstructions(ptx, target)) {
      snippets.push_back({StandardRegisterFile(), raw});
    }
    absl::StatusOr<std::vector<CompilerVerdict>> from_driver = CheckSnippets(**jit, snippets, ptx, target);
    absl::StatusOr<std::vector<CompilerVerdict>> from_ptxas = CheckSnippets(*ptxas, snippets, ptx, target);
    ASSERT_TRUE(from_driver.ok()) << from_driver.status();
    ASSERT_TRUE(from_ptxas.ok()) << from_ptxas.status();
    int differences = 0;
    int accepted = 0;
    for (size_t i = 0; i < snippets.size(); ++i) {
      accepted += (*from_driver)[i].accepted ? 1 : 0;
      if ((*from_driver)[i].accepted == (*from_ptxas)[i].accepted) continue;
      if (++differences <= 20) {
        ADD_FAILURE() << target.Name() << ": driver JIT " << ((*from_driver)[i].accepted ? "accepts" : "rejects")
                      << ", ptxas " << ((*from_ptxas)[i].accepted ? "accepts" : "rejects") << ": "
                      << PrintRaw(snippets[i].instruction);
      }
    }
    std::cout << target.Name() << ": " << snippets.size() << " forms (" << legal << " legal, "
              << snippets.size() - legal << " near-miss) through the driver JIT and ptxas; driver accepted "
              << accepted << "; " << differences << " differences\n";
  }
  EXPECT_GT(compared_targets, 0) << device.name << " has no target matload models";
}

}  // namespace
}  // namespace matload
