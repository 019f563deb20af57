#include "harness/platform/exit_status.h"

#include <signal.h>

#include "gtest/gtest.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"

namespace matload {
namespace {

TEST(ExitStatusTest, EveryKindOfFailureHasItsStatus) {
  EXPECT_EQ(ExitStatusFor(absl::OkStatus()), 0);
  EXPECT_EQ(ExitStatusFor(absl::InvalidArgumentError("--variants: -1")), 2);
  EXPECT_EQ(ExitStatusFor(absl::NotFoundError("no such file")), 2);
  EXPECT_EQ(ExitStatusFor(NoGpuError("the CUDA driver sees no GPU")), 3);
  EXPECT_EQ(ExitStatusFor(InfrastructureError(InfrastructureCause::kGpuLost, "cuInit: 100")), 4);
  EXPECT_EQ(ExitStatusFor(absl::InternalError("a bug in matload")), 4);
  EXPECT_EQ(ExitStatusFor(InterruptedError(SIGINT)), 130);
  EXPECT_EQ(ExitStatusFor(InterruptedError(SIGTERM)), 143);
}

TEST(ExitStatusTest, AnUnmarkedFailedPreconditionIsNotCompileOnly) {
  // A busy GPU once came back as kFailedPrecondition and was read as "no
  // GPU" or as a compiler rejection; only the explicit mark counts now.
  EXPECT_EQ(ExitStatusFor(absl::FailedPreconditionError("device busy")), 2);
  EXPECT_FALSE(IsNoGpu(absl::FailedPreconditionError("device busy")));
}

TEST(InfrastructureTest, TheCauseSurvivesAndIsNamed) {
  const absl::Status status = InfrastructureError(InfrastructureCause::kCompilerCrashed, "ptxas died of SIGSEGV");
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(InfrastructureCauseOf(status), InfrastructureCause::kCompilerCrashed);
  EXPECT_EQ(status.message(), "infrastructure failure (compiler crashed): ptxas died of SIGSEGV");
  EXPECT_EQ(InfrastructureCauseOf(absl::UnavailableError("unmarked")), std::nullopt);
  EXPECT_EQ(InfrastructureCauseOf(absl::OkStatus()), std::nullopt);
}

TEST(InterruptTest, TheFirstSignalIsRecorded) {
  InstallInterruptHandlers();
  EXPECT_EQ(PendingInterrupt(), 0);
  raise(SIGTERM);
  EXPECT_EQ(PendingInterrupt(), SIGTERM);
  EXPECT_EQ(InterruptSignalOf(InterruptedError(PendingInterrupt())), SIGTERM);
}

}  // namespace
}  // namespace matload
