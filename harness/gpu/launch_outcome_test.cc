#include "harness/gpu/launch_outcome.h"

#include "gtest/gtest.h"
#include "harness/gpu/cuda_result.h"

namespace matload {
namespace {

using Kind = LaunchOutcome::Kind;

ItemResult Failed(absl::Status error, WorkerPhase phase) {
  return {ItemResult::Kind::kFailed, error.ToString(), error, phase};
}

TEST(LaunchOutcomeTest, OnlyTypedRejectionsFaultsAndKernelHangsAreVerdicts) {
  EXPECT_EQ(ClassifyLaunch({ItemResult::Kind::kDone, "bytes", {}, WorkerPhase::kFinishing}).kind, Kind::kRan);
  EXPECT_EQ(ClassifyLaunch(Failed(CudaResultStatus(218, DriverCall::kModuleLoad, "ptxas fatal"),
                                  WorkerPhase::kCompiling))
                .kind,
            Kind::kCompileRejected);
  EXPECT_EQ(ClassifyLaunch(Failed(CudaResultStatus(716, DriverCall::kOther, "cuCtxSynchronize"),
                                  WorkerPhase::kRunningKernel))
                .kind,
            Kind::kKernelFault);
  EXPECT_EQ(ClassifyLaunch({ItemResult::Kind::kTimedOut, "no result", {}, WorkerPhase::kRunningKernel}).kind,
            Kind::kKernelHang);
}

TEST(LaunchOutcomeTest, ABusyGpuIsNeverALegalFormRejected) {
  // The old judge matched "FAILED_PRECONDITION" in the worker's text, so a
  // busy device (46) read as a compiler's rejection.
  const LaunchOutcome busy = ClassifyLaunch(
      Failed(CudaResultStatus(46, DriverCall::kOther, "cannot open device 0"), WorkerPhase::kStarting));
  EXPECT_EQ(busy.kind, Kind::kInfrastructure);
  EXPECT_EQ(busy.cause, InfrastructureCause::kGpuBusy);
}

TEST(LaunchOutcomeTest, AGpuThatVanishesAfterTheProbeIsLost) {
  const LaunchOutcome lost =
      ClassifyLaunch(Failed(NoGpuError("the CUDA driver sees no GPU"), WorkerPhase::kStarting));
  EXPECT_EQ(lost.kind, Kind::kInfrastructure);
  EXPECT_EQ(lost.cause, InfrastructureCause::kGpuLost);
}

TEST(LaunchOutcomeTest, HangsAndDeathsOutsideTheKernelAreInfrastructureByPhase) {
  EXPECT_EQ(ClassifyLaunch({ItemResult::Kind::kTimedOut, "", {}, WorkerPhase::kCompiling}).cause,
            InfrastructureCause::kCompilerHung);
  EXPECT_EQ(ClassifyLaunch({ItemResult::Kind::kTimedOut, "", {}, WorkerPhase::kStarting}).cause,
            InfrastructureCause::kHarnessTimeout);
  EXPECT_EQ(ClassifyLaunch({ItemResult::Kind::kCrashed, "", {}, WorkerPhase::kCompiling}).cause,
            InfrastructureCause::kCompilerCrashed);
  const LaunchOutcome died = ClassifyLaunch({ItemResult::Kind::kCrashed, "", {}, WorkerPhase::kRunningKernel});
  EXPECT_EQ(died.kind, Kind::kInfrastructure);
  EXPECT_EQ(died.cause, InfrastructureCause::kWorkerCrashed);
}

TEST(LaunchOutcomeTest, AnUntypedFailureIsTheHarnesssNotAFinding) {
  const LaunchOutcome outcome =
      ClassifyLaunch(Failed(absl::InternalError("ptxas wrote no cubin"), WorkerPhase::kCompiling));
  EXPECT_EQ(outcome.kind, Kind::kInfrastructure);
  EXPECT_EQ(outcome.cause, InfrastructureCause::kHarnessError);
}

}  // namespace
}  // namespace matload
