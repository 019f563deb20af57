// matload triage BUNDLE_DIR | RUN:CASE_ID: from a finding to a report a
// toolchain team acts on. A conform finding (its bundle, or its case in the
// store, which names its bundle) is replayed on the GPU it needs
// (harness/triage/triage.h); a support case is taken through every ptxas
// release, on any machine (harness/triage/compile_triage.h).
#ifndef MATLOAD_HARNESS_CLI_TRIAGE_COMMAND_H_
#define MATLOAD_HARNESS_CLI_TRIAGE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace matload {

// TriageOptions are the command's inputs.
struct TriageOptions {
  std::string subject;                // the bundle directory, or RUN:CASE_ID
  std::string out;                    // the report's directory: new or empty
  std::string ptxas;                  // the toolkit's ptxas, for the -O3 and -O0 builds
  std::vector<std::string> releases;  // the ptxas releases to bisect over, any order; none: no range
  int repeats = 5;                    // runs per build, GPU and release
  std::string db;                     // the results store: RUN's, and the verdict cache
};

// RunTriageCommand triages and writes the report, printing its summary.
// Exit 0 with the report written; 2 for bad input (no bundle, no such run
// or case, a case with no bundle, an --out that is not empty); 3 without a
// GPU, after the compile-only parts ran and were written; 4 when the harness or its environment failed; 128+signal when
// interrupted.
int RunTriageCommand(const TriageOptions& options, std::ostream& out, std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_TRIAGE_COMMAND_H_
