#include "harness/gpu/launch_outcome.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "harness/gpu/cuda_result.h"

namespace matload {
namespace {

LaunchOutcome Infrastructure(InfrastructureCause cause, std::string detail) {
  return {LaunchOutcome::Kind::kInfrastructure, cause, std::move(detail)};
}

}  // namespace

LaunchOutcome ClassifyLaunchError(const absl::Status& error) {
  const std::string detail(error.message());
  if (std::optional<InfrastructureCause> cause = InfrastructureCauseOf(error); cause.has_value()) {
    return Infrastructure(*cause, detail);
  }
  if (IsNoGpu(error)) {
    return Infrastructure(InfrastructureCause::kGpuLost, absl::StrCat("the GPU the run probed is gone: ", detail));
  }
  if (error.code() == absl::StatusCode::kFailedPrecondition) {
    return {LaunchOutcome::Kind::kCompileRejected, InfrastructureCause::kHarnessError, detail};
  }
  if (IsKernelFault(error)) return {LaunchOutcome::Kind::kKernelFault, InfrastructureCause::kHarnessError, detail};
  return Infrastructure(InfrastructureCause::kHarnessError, error.ToString());
}

LaunchOutcome ClassifyLaunch(const ItemResult& ran) {
  switch (ran.kind) {
    case ItemResult::Kind::kDone:
      return {LaunchOutcome::Kind::kRan, InfrastructureCause::kHarnessError, ""};
    case ItemResult::Kind::kFailed:
      return ClassifyLaunchError(ran.error);
    case ItemResult::Kind::kTimedOut:
      if (ran.phase == WorkerPhase::kRunningKernel) {
        return {LaunchOutcome::Kind::kKernelHang, InfrastructureCause::kHarnessError, ran.output};
      }
      return Infrastructure(ran.phase == WorkerPhase::kCompiling ? InfrastructureCause::kCompilerHung
                                                                 : InfrastructureCause::kHarnessTimeout,
                            ran.output);
    case ItemResult::Kind::kCrashed:
      return Infrastructure(ran.phase == WorkerPhase::kCompiling ? InfrastructureCause::kCompilerCrashed
                                                                 : InfrastructureCause::kWorkerCrashed,
                            ran.output);
    case ItemResult::Kind::kNotRun:
      break;  // the caller stops before judging it
  }
  return Infrastructure(InfrastructureCause::kHarnessError, "a launch that was not run");
}

}  // namespace matload
