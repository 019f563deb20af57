// CaseOutcome: what became of one case in a run, as every command records
// it (CaseRecord::outcome, case_record.h) and every report, export, diff
// and tally reads it. It is a word only where it leaves matload: in the
// results store, the exports and the reports. The store refuses to read
// back any other word, so that a damaged value (a byte flipped on disk:
// "pass" -> "pxss") is data lost (kDataLoss, exit status 4), never read as
// some other outcome: the JUnit export once made it a passing testcase. A
// new outcome is added here first, with its word.
#ifndef MATLOAD_HARNESS_RUNS_CASE_OUTCOME_H_
#define MATLOAD_HARNESS_RUNS_CASE_OUTCOME_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace matload {

// CaseOutcome is one case's outcome. kUnjudged comes first, so that a
// record nobody judged is never read as a pass; then conform's case
// classes (CaseClass, harness/judge/case_judge.h, which OutcomeOf maps);
// the rest are outcomes of whole cases that no variant has.
enum class CaseOutcome : unsigned char {
  kUnjudged,          // "unjudged": no command gave the case an outcome, a bug; no store holds it
  kPass,              // "pass": conform's, support's or a fuzz campaign's case agrees with the model
  kMismatch,          // "mismatch"
  kExpectedFault,     // "expected_fault"
  kKnownFault,        // "known_fault"
  kUnexpectedFault,   // "unexpected_fault"
  kMissingFault,      // "missing_fault"
  kUndefinedRan,      // "undefined_ran"
  kUndefinedFaulted,  // "undefined_faulted"
  kLegalRejected,     // "legal_rejected": also support's legal form the compiler rejects
  kIllegalRejected,   // "illegal_rejected"
  kIllegalAccepted,   // "illegal_accepted": also support's illegal form the compiler accepts
  kTimeout,           // "timeout"
  kUnsupported,       // "unsupported": also a fuzz campaign that could not run
  kFlake,             // "flake": conform's re-runs of the case disagreed
  kNotCompiled,       // "not_compiled": support's form the sweep did not compile
  kFinding,           // "finding": a fuzz campaign's finding, or a campaign that found one
  kCrash,             // "crash": the compiler crashed (support), or a fuzz target did
};

// CaseOutcomeWord spells an outcome as the results store, the exports and
// the reports write it: "pass", "unexpected_fault", "flake", ...
absl::string_view CaseOutcomeWord(CaseOutcome outcome);

// ParseCaseOutcome is the outcome `word` spells (CaseOutcomeWord); a word
// no matload writes, "unjudged" among them, is kDataLoss.
absl::StatusOr<CaseOutcome> ParseCaseOutcome(absl::string_view word);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_CASE_OUTCOME_H_
