// LaunchOutcome: what one isolated launch (isolated_runner.h) means for
// the cases it carried. The launch either judged them (it ran, the
// compiler rejected the kernel, the kernel faulted, the kernel hung), or it
// could not (an infrastructure failure: the cases are neither passed nor
// findings, and the launch is retried in a fresh worker).
#ifndef MATLOAD_HARNESS_GPU_LAUNCH_OUTCOME_H_
#define MATLOAD_HARNESS_GPU_LAUNCH_OUTCOME_H_

#include <string>

#include "harness/gpu/isolated_runner.h"
#include "harness/platform/infrastructure.h"

namespace matload {

// LaunchOutcome is the class of one launch's ending, and its words.
struct LaunchOutcome {
  enum class Kind : unsigned char {
    kRan,              // every block ran to completion: judge the output
    kCompileRejected,  // the compiler (JIT or offline) rejected the kernel: a verdict on the form
    kKernelFault,      // the kernel faulted: the GPU's doing
    kKernelHang,       // the kernel ran past the watchdog: the GPU's doing
    kInfrastructure,   // matload could not judge: retry, never a finding
  };
  Kind kind = Kind::kRan;
  InfrastructureCause cause = InfrastructureCause::kHarnessError;  // for kInfrastructure
  std::string detail;  // the error, the fault, or what happened to the worker
};

// ClassifyLaunch reads a launch's ItemResult, given that the run's device
// probe succeeded: a worker that then finds no GPU has lost it. A failure
// is a verdict only when the worker said so in type (a rejection is
// kFailedPrecondition, a fault cuda_result.h's kAborted) or when the
// kernel phase hung; anything else is infrastructure, by phase: a hang or
// death while compiling is the compiler's, otherwise the harness's or the
// worker's. A launch that was not run (an interruption) has no verdict:
// callers stop before judging one.
LaunchOutcome ClassifyLaunch(const ItemResult& ran);

// ClassifyLaunchError reads the error of a launch made in this process (a
// fuzz job, say) as ClassifyLaunch reads a worker's kFailed result.
LaunchOutcome ClassifyLaunchError(const absl::Status& error);

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_LAUNCH_OUTCOME_H_
