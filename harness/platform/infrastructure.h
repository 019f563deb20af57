// Infrastructure: a failure of the harness or of its environment (a lost
// or busy GPU, a compiler that crashed or hung, a full disk), marked on the
// absl::Status itself so that no caller can mistake it for a verdict or a
// finding. A finding means the GPU or the toolchain is wrong; an
// infrastructure failure means matload could not judge, and a run that
// meets one it cannot retry away stops with exit status 4
// (exit_status.h).
#ifndef MATLOAD_HARNESS_PLATFORM_INFRASTRUCTURE_H_
#define MATLOAD_HARNESS_PLATFORM_INFRASTRUCTURE_H_

#include <optional>

#include "absl/types/optional.h"

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace matload {

// InfrastructureCause is why matload could not judge.
enum class InfrastructureCause : unsigned char {
  kGpuLost,                       // the driver lost the device (cuInit or a call outside the kernel failed so)
  kGpuBusy,                       // the device is taken (exclusive-process mode, CUDA_ERROR_DEVICE_UNAVAILABLE)
  kDriverError,                   // a driver call outside the case failed (an allocation, a copy, a context)
  kCompilerCrashed,               // a compiler died of a signal or exited without a verdict
  kCompilerHung,                  // a compiler ran past its time limit
  kCompilerOutputNotUnderstood,   // a compiler's output could not be traced to a verdict
  kHarnessTimeout,                // a worker ran past its time limit outside the kernel
  kWorkerCrashed,                 // a worker process died outside the kernel
  kOutOfDisk,                     // a result could not be written
  kHarnessError,                  // matload itself failed (a bug, a missing tool it checked for)
};

// InfrastructureCauseName spells a cause for reports: "GPU lost",
// "compiler crashed", ...
absl::string_view InfrastructureCauseName(InfrastructureCause cause);

// InfrastructureError is a kUnavailable status marked with `cause`; its
// message says what failed, in words a person can act on.
absl::Status InfrastructureError(InfrastructureCause cause, absl::string_view message);

// MarkInfrastructure marks `status` (not OK) with `cause`, keeping its code
// and message: how a status that crossed a process boundary gets its mark
// back (isolated_runner.h).
absl::Status MarkInfrastructure(InfrastructureCause cause, absl::Status status);

// InfrastructureCauseOf is the cause `status` is marked with, or nullopt
// for a status that is not an infrastructure failure (OK included).
std::optional<InfrastructureCause> InfrastructureCauseOf(const absl::Status& status);

// NoGpuError is a kFailedPrecondition status marked as "this machine has
// no usable GPU": the command is compile-only here (exit status 3).
absl::Status NoGpuError(absl::string_view message);

// IsNoGpu says whether `status` is a NoGpuError.
bool IsNoGpu(const absl::Status& status);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_INFRASTRUCTURE_H_
