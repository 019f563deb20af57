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
  std::vector<std::string> ptxas_paths;  // for "ptxas": one report each, and a comparison if several
  std::string out;                 // reports/support/<tool>-<version>/ptx<V> if empty
  int threads = 2;
  std::string command;             // the command line, recorded in the report
};

// RunSupport sweeps, writes the report and prints a summary to `out`, and
// returns the number of unexplained disagreements (findings: matload
// support exits 1 on any). With several ptxas binaries it sweeps each,
// writes a report per toolkit under `out` (or reports/support/), each in
// <tool>-<version>/ptx<V>, and compare-ptx<V>.md comparing them.
// Progress goes to stderr when it is a terminal. It fails when the compiler
// cannot be opened or a report file cannot be written, and with an
// InfrastructureError (exit 4) when a compiler could not judge: it crashed,
// hung, printed what cannot be read, or left forms unjudged. A sweep that
// fails so writes no report, so that no verdict it could not reach is
// published.
absl::StatusOr<size_t> RunSupport(const SupportOptions& options, std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_SUPPORT_COMMAND_H_
