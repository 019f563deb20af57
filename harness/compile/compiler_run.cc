#include "harness/compile/compiler_run.h"

#include <string.h>

#include <algorithm>
#include <csignal>
#include <optional>
#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/outside_text.h"

namespace matload {
namespace {

// kQuotedOutput bounds how much of a compiler's output a message quotes.
constexpr size_t kQuotedOutput = 400;

// kFaultSignalUrl marks a CheckCompilerRun error with the fault signal the
// compiler died of (CompilerFaultSignal).
constexpr absl::string_view kFaultSignalUrl = "matload/compiler-fault-signal";

// IsFaultSignal says whether `signal` is one a program raises on itself.
bool IsFaultSignal(int signal) {
  return signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE || signal == SIGABRT;
}

}  // namespace

std::string QuotedOutput(absl::string_view output) { return OutsideText(output.substr(0, kQuotedOutput)); }

absl::Status CheckCompilerRun(const ProcessResult& run, absl::string_view what,
                              std::initializer_list<int> verdict_exit_codes) {
  const std::string said = QuotedOutput(run.standard_error);
  if (run.timed_out) {
    return InfrastructureError(InfrastructureCause::kCompilerHung,
                               absl::StrCat(what, " ran past its time limit and was killed"));
  }
  if (run.signal != 0) {
    absl::Status crashed = InfrastructureError(
        InfrastructureCause::kCompilerCrashed,
        absl::StrCat(what, " died of signal ", run.signal, " (", strsignal(run.signal), "): ", said));
    if (IsFaultSignal(run.signal)) crashed.SetPayload(kFaultSignalUrl, absl::Cord(absl::StrCat(run.signal)));
    return crashed;
  }
  if (std::find(verdict_exit_codes.begin(), verdict_exit_codes.end(), run.exit_code) == verdict_exit_codes.end()) {
    return InfrastructureError(InfrastructureCause::kCompilerCrashed,
                               absl::StrCat(what, " exited with status ", run.exit_code,
                                            ", which it never uses for a verdict: ", said));
  }
  return absl::OkStatus();
}

std::optional<int> CompilerFaultSignal(const absl::Status& status) {
  const absl::optional<absl::Cord> payload = status.GetPayload(kFaultSignalUrl);
  int signal = 0;
  if (!payload.has_value() || !absl::SimpleAtoi(std::string(*payload), &signal)) return std::nullopt;
  return signal;
}

std::string CompilerFaultMessage(int signal) {
  return absl::StrCat("the compiler died of signal ", signal, " (", strsignal(signal), ")");
}

}  // namespace matload
