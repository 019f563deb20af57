#include "harness/platform/infrastructure.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// The payload type URLs that mark a status; the cause travels as its number.
constexpr absl::string_view kCauseUrl = "matload/infrastructure-cause";
constexpr absl::string_view kNoGpuUrl = "matload/no-gpu";

}  // namespace

absl::string_view InfrastructureCauseName(InfrastructureCause cause) {
  switch (cause) {
    case InfrastructureCause::kGpuLost: return "GPU lost";
    case InfrastructureCause::kGpuBusy: return "GPU busy";
    case InfrastructureCause::kDriverError: return "driver error outside the case";
    case InfrastructureCause::kCompilerCrashed: return "compiler crashed";
    case InfrastructureCause::kCompilerHung: return "compiler hung";
    case InfrastructureCause::kCompilerOutputNotUnderstood: return "compiler output not understood";
    case InfrastructureCause::kHarnessTimeout: return "timeout in the harness";
    case InfrastructureCause::kWorkerCrashed: return "worker crashed";
    case InfrastructureCause::kOutOfDisk: return "out of disk";
    case InfrastructureCause::kHarnessError: return "harness error";
  }
  return "unknown infrastructure failure";
}

absl::Status InfrastructureError(InfrastructureCause cause, absl::string_view message) {
  return MarkInfrastructure(cause, absl::Status(absl::StatusCode::kUnavailable,
                                                absl::StrCat("infrastructure failure (", InfrastructureCauseName(cause),
                                                             "): ", message)));
}

absl::Status MarkInfrastructure(InfrastructureCause cause, absl::Status status) {
  status.SetPayload(kCauseUrl, absl::Cord(absl::StrCat(static_cast<int>(cause))));
  return status;
}

std::optional<InfrastructureCause> InfrastructureCauseOf(const absl::Status& status) {
  const absl::optional<absl::Cord> payload = status.GetPayload(kCauseUrl);
  int cause = 0;
  if (!payload.has_value() || !absl::SimpleAtoi(std::string(*payload), &cause)) return std::nullopt;
  if (cause < 0 || cause > static_cast<int>(InfrastructureCause::kHarnessError)) return std::nullopt;
  return static_cast<InfrastructureCause>(cause);
}

absl::Status NoGpuError(absl::string_view message) {
  absl::Status status(absl::StatusCode::kFailedPrecondition, message);
  status.SetPayload(kNoGpuUrl, absl::Cord("1"));
  return status;
}

bool IsNoGpu(const absl::Status& status) { return status.GetPayload(kNoGpuUrl).has_value(); }

}  // namespace matload
