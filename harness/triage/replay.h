// Replay: run one kernel image on one variant again and again, each run in
// a worker process (isolated_runner.h) and judged with the model as conform
// judges it, so that a triage can tell a failure that reproduces from a
// flaky one, and one GPU from another.
#ifndef MATLOAD_HARNESS_TRIAGE_REPLAY_H_
#define MATLOAD_HARNESS_TRIAGE_REPLAY_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/families/test_program.h"
#include "harness/judge/case_judge.h"

namespace matload {

// FailureSignature is how a run ended, as one comparable word: "pass",
// "mismatch/moved-128-words-87838a05", "unexpected fault/misaligned address
// (716)". Two runs fail the same way when their signatures are equal.
std::string FailureSignature(const CaseVerdict& verdict, const Outcome& expected);

// FailureKind is a signature without what ties it to one form: a
// mismatch's class and look ("mismatch/moved", with no word count and no
// slots), any other signature whole. A sibling form fails the same way as
// the form when their kinds are equal.
std::string FailureKind(absl::string_view signature);

// ReplayTally is what became of repeated runs: runs per signature.
struct ReplayTally {
  std::map<std::string, int> signatures;
  int runs = 0;
  // passes is how many runs passed (or ended as the model says they must).
  int passes() const;
  // Failures is how many runs ended with `signature`.
  int Failures(absl::string_view signature) const;
  // FailuresOfKind is how many runs ended with a signature of the same
  // FailureKind as `signature`.
  int FailuresOfKind(absl::string_view signature) const;
  // Verdict says in words how many runs failed with `signature`'s kind:
  // "reproducible (5 of 5 runs fail so)", "flaky (2 of 5 runs fail so)",
  // "does not reproduce (0 of 5 runs fail so)".
  std::string Verdict(absl::string_view signature) const;
  // Describe is "passes (5 runs)" where every run passed, else Verdict.
  std::string Describe(absl::string_view signature) const;
};

// ReplayRequest is one kernel image run `repeats` times on GPU `ordinal`.
struct ReplayRequest {
  const TestProgram* program = nullptr;
  std::string image;                 // PTX text for the driver JIT, or a cubin
  std::vector<std::uint8_t> record;  // the variant's record
  Outcome expected;                  // the model's prediction for it
  int repeats = 5;
  int ordinal = 0;
  std::chrono::milliseconds timeout{30000};
};

// Replay runs the request and tallies its runs. A failure of the harness or
// its environment (a lost GPU, a worker that crashed outside the kernel, a
// hang outside it) is the InfrastructureError it was, never a tally; SIGINT
// or SIGTERM is the interrupt (interrupt.h).
absl::StatusOr<ReplayTally> Replay(const ReplayRequest& request);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_REPLAY_H_
