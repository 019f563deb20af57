#include "harness/platform/exit_status.h"

#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/outside_text.h"

namespace matload {

int ExitStatusFor(const absl::Status& status) {
  if (status.ok()) return kExitClean;
  if (InfrastructureCauseOf(status).has_value()) return kExitInfrastructure;
  if (IsNoGpu(status)) return kExitCompileOnly;
  if (const int signal = InterruptSignalOf(status); signal != 0) return 128 + signal;
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kFailedPrecondition: return kExitUsage;
    default: return kExitInfrastructure;
  }
}

int ReportFailure(std::ostream& err, const absl::Status& status, absl::string_view who) {
  err << who << ": " << PrintedText(status.message()) << "\n";
  return ExitStatusFor(status);
}

}  // namespace matload
