// StoredWords: the values the results store keeps in a run's enumerated
// fields: its status and its exit status. (A case's outcome, and those of
// its attempts, are CaseOutcome's words: case_outcome.h.) The store refuses
// to write any other value and checks every one it reads back, so that a
// damaged value (a byte flipped on disk: "clean" -> "clexn") is data lost
// (kDataLoss, exit status 4), never read as some other status. A new
// status is added here first.
#ifndef MATLOAD_HARNESS_RUNS_STORED_WORDS_H_
#define MATLOAD_HARNESS_RUNS_STORED_WORDS_H_

#include "absl/strings/string_view.h"

namespace matload {

// IsRunStatusWord says whether `word` is a run's status: "running", one
// RunStatusWord gives (harness/runs/run_journal.h), or "killed".
bool IsRunStatusWord(absl::string_view word);

// IsRunExitStatus says whether `exit_status` is one a run is stored with:
// -1 while it runs, 0 to 4 (harness/platform/exit_status.h), or 128+N for
// a signal N.
bool IsRunExitStatus(int exit_status);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_STORED_WORDS_H_
