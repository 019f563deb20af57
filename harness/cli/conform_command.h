// `matload conform` and `matload selftest`: the GPU differential, and the
// proof that it can fail.
#ifndef MATLOAD_HARNESS_CLI_CONFORM_COMMAND_H_
#define MATLOAD_HARNESS_CLI_CONFORM_COMMAND_H_

#include <ostream>
#include <string>

#include "harness/conformance_run.h"
#include "harness/exit_status.h"

namespace matload {

// RunConform runs a conformance run, with a progress bar on a terminal, and
// prints the summary table to `out`. It returns the exit status: 0 when
// nothing needs a human, 1 when there are findings, otherwise
// ExitStatusFor the failure (exit_status.h).
int RunConform(const ConformanceOptions& options, std::ostream& out, std::ostream& err);

// RunSelfTestCommand runs the self-test under `directory` and prints its
// table: 0 when every planted bug was detected and the control passed.
int RunSelfTestCommand(int device, const std::string& directory, std::ostream& out, std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_CONFORM_COMMAND_H_
