#include "harness/compile/compiler_run.h"

#include <string.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/outside_text.h"

namespace matload {
namespace {

// kQuotedOutput bounds how much of a compiler's output a message quotes.
constexpr size_t kQuotedOutput = 400;

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
    return InfrastructureError(InfrastructureCause::kCompilerCrashed,
                               absl::StrCat(what, " died of signal ", run.signal, " (", strsignal(run.signal),
                                            "): ", said));
  }
  if (std::find(verdict_exit_codes.begin(), verdict_exit_codes.end(), run.exit_code) == verdict_exit_codes.end()) {
    return InfrastructureError(InfrastructureCause::kCompilerCrashed,
                               absl::StrCat(what, " exited with status ", run.exit_code,
                                            ", which it never uses for a verdict: ", said));
  }
  return absl::OkStatus();
}

}  // namespace matload
