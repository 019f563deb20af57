// CaseJudge: what became of one case (a form, a variant, a compile path),
// judged bit for bit against the reference model.
#ifndef MATLOAD_HARNESS_JUDGE_CASE_JUDGE_H_
#define MATLOAD_HARNESS_JUDGE_CASE_JUDGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/runs/case_outcome.h"
#include "reference/outcome.h"

namespace matload {

// CaseClass is the outcome class of one case.
enum class CaseClass : unsigned char {
  kPass,              // every register of every lane equals the model
  kMismatch,          // some register differs from the model
  kExpectedFault,     // the model says it must fault, and it faulted
  kKnownFault,        // the model predicts values, the GPU faults, and the registry explains it
  kUnexpectedFault,   // the model predicts values and the GPU faults
  kMissingFault,      // the model says it must fault, and it ran
  kUndefinedRan,      // the spec leaves it undefined; it ran (recorded, never compared)
  kUndefinedFaulted,  // the spec leaves it undefined; it faulted (recorded)
  kLegalRejected,     // the model says legal; the compiler rejected the kernel
  kIllegalRejected,   // a near-miss illegal form, rejected as it must be
  kIllegalAccepted,   // a near-miss illegal form the compiler accepted
  kTimeout,           // the kernel hung past the watchdog (a failure outside the kernel is infrastructure)
  kUnsupported,       // this device or toolkit cannot run it (tcgen05.ld off Blackwell)
};

// CaseClassName spells a class for reports: "pass", "unexpected fault", ...
absl::string_view CaseClassName(CaseClass kind);

// OutcomeOf is a class as a case record carries it (harness/runs/case_outcome.h):
// a case's outcome is its most severe variant's class.
CaseOutcome OutcomeOf(CaseClass kind);

// IsFinding says whether a class needs a human: a mismatch, an unexpected
// or missing fault, a legal form rejected, an illegal one accepted, or a
// kernel that hung. A failure of the harness is never a case class: it is
// an infrastructure failure (infrastructure.h).
bool IsFinding(CaseClass kind);

// Severity orders classes for a case's outcome: findings first, then the
// faults the model or the registry explain, then undefined cases, then pass.
int Severity(CaseClass kind);

// WordMismatch is one 32-bit register word that differs.
struct WordMismatch {
  int lane = 0;
  int word = 0;
  std::uint32_t expected = 0;
  std::uint32_t actual = 0;
};

// CaseVerdict is the judgement of one case.
struct CaseVerdict {
  CaseClass kind = CaseClass::kPass;
  std::vector<WordMismatch> mismatches;  // for kMismatch
  std::string detail;                    // the fault, the undefined reason, the compiler's message
};

// ExpectedBytes lays the model's registers out as the kernel stores them:
// lane-major, word after word, little-endian.
std::vector<std::uint8_t> ExpectedBytes(const LaneValues& values);

// JudgeOutput judges a block that ran to completion and wrote `output`.
CaseVerdict JudgeOutput(const Outcome& expected, absl::Span<const std::uint8_t> output);

// JudgeFault judges a block that faulted with `error`; `known_fault_id` is
// the registry entry that explains the fault, or empty.
CaseVerdict JudgeFault(const Outcome& expected, absl::string_view error, absl::string_view known_fault_id);

// MismatchPattern abstracts a mismatch for deduplication: which (lane,
// word) slots differ, hashed, and what the wrong words look like: "poison"
// (never stored), "moved" (each is the model's value of another slot), or
// "other".
std::string MismatchPattern(const CaseVerdict& verdict, const LaneValues& expected);

}  // namespace matload

#endif  // MATLOAD_HARNESS_JUDGE_CASE_JUDGE_H_
