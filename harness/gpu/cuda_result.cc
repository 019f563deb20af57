#include "harness/gpu/cuda_result.h"

#include "harness/platform/infrastructure.h"

namespace matload {

absl::Status CudaResultStatus(int result, DriverCall call, absl::string_view description) {
  switch (result) {
    case 200:
    case 209:
    case 218:
    case 222:
      if (call == DriverCall::kModuleLoad) return absl::FailedPreconditionError(description);
      return InfrastructureError(InfrastructureCause::kDriverError, description);
    case 700:
    case 702:
    case 714:
    case 715:
    case 716:
    case 717:
    case 718:
    case 719:
      return absl::AbortedError(description);
    case 46:
      return InfrastructureError(InfrastructureCause::kGpuBusy, description);
    case 3:
    case 4:
    case 100:
    case 101:
    case 214:
    case 709:
    case 802:
    case 803:
    case 999:
      return InfrastructureError(InfrastructureCause::kGpuLost, description);
    default:
      return InfrastructureError(InfrastructureCause::kDriverError, description);
  }
}

bool IsKernelFault(const absl::Status& status) {
  return status.code() == absl::StatusCode::kAborted && !InfrastructureCauseOf(status).has_value();
}

}  // namespace matload
