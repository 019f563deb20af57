#include "harness/runs/case_outcome.h"

#include <iterator>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// kWords are the outcomes' words, in CaseOutcome's order.
constexpr absl::string_view kWords[] = {"unjudged",
                                        "pass",
                                        "mismatch",
                                        "expected_fault",
                                        "known_fault",
                                        "unexpected_fault",
                                        "missing_fault",
                                        "undefined_ran",
                                        "undefined_faulted",
                                        "legal_rejected",
                                        "illegal_rejected",
                                        "illegal_accepted",
                                        "timeout",
                                        "unsupported",
                                        "flake",
                                        "not_compiled",
                                        "finding",
                                        "crash"};
static_assert(std::size(kWords) == static_cast<size_t>(CaseOutcome::kCrash) + 1, "an outcome without a word");

}  // namespace

absl::string_view CaseOutcomeWord(CaseOutcome outcome) { return kWords[static_cast<size_t>(outcome)]; }

absl::StatusOr<CaseOutcome> ParseCaseOutcome(absl::string_view word) {
  for (size_t i = 0; i < std::size(kWords); ++i) {
    const auto outcome = static_cast<CaseOutcome>(i);
    if (kWords[i] == word && outcome != CaseOutcome::kUnjudged) return outcome;
  }
  return absl::DataLossError(absl::StrCat("'", word, "' is no case outcome"));
}

}  // namespace matload
