// `matload support`: the per-target support matrix, model against compiler.
#ifndef MATLOAD_HARNESS_CLI_SUPPORT_COMMAND_H_
#define MATLOAD_HARNESS_CLI_SUPPORT_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// SupportOptions are the command's inputs.
struct SupportOptions {
  std::vector<Target> targets;  // every target at `ptx` if empty
  PtxVersion ptx;
  std::string compiler = "ptxas";  // "ptxas", "nvjitlink" or "driver"
  std::string ptxas_path;          // for "ptxas"
  std::string out;                 // reports/support/<tool>-<version> if empty
  int threads = 2;
  std::string command;             // the command line, recorded in the report
};

// RunSupport sweeps, writes the report and prints a summary to `out`.
// Progress goes to stderr when it is a terminal. It fails when the compiler
// cannot be opened or a report file cannot be written; disagreements are
// results, not failures.
absl::Status RunSupport(const SupportOptions& options, std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_SUPPORT_COMMAND_H_
