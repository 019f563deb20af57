// StoredWords: the words the results store keeps in its enumerated fields:
// a case's outcome (and those of its attempts) and a run's status. The store refuses to write any other word and
// checks every one it reads back, so that a damaged value (a byte flipped
// on disk: "pass" -> "pxss") is data lost (kDataLoss, exit status 4), never
// read as some other outcome: the JUnit export once made it a passing
// testcase. A new outcome or status is added here first.
#ifndef MATLOAD_HARNESS_RUNS_STORED_WORDS_H_
#define MATLOAD_HARNESS_RUNS_STORED_WORDS_H_

#include "absl/strings/string_view.h"

namespace matload {

// IsOutcomeWord says whether `word` is a case outcome some command records:
// conform's case classes (CaseClassToken, harness/judge/case_judge.h) and
// "flake", support's "not_compiled", fuzz's "finding" and "crash".
bool IsOutcomeWord(absl::string_view word);

// IsRunStatusWord says whether `word` is a run's status: "running", one
// RunStatusWord gives (harness/runs/run_journal.h), or "killed".
bool IsRunStatusWord(absl::string_view word);

// IsRunExitStatus says whether `exit_status` is one a run is stored with:
// -1 while it runs, 0 to 4 (harness/platform/exit_status.h), or 128+N for
// a signal N.
bool IsRunExitStatus(int exit_status);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_STORED_WORDS_H_
