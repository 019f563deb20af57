// `matload support`: the per-target support matrix, model against compiler.
#ifndef MATLOAD_HARNESS_CLI_SUPPORT_COMMAND_H_
#define MATLOAD_HARNESS_CLI_SUPPORT_COMMAND_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/runs/baseline.h"
#include "harness/runs/case_filter.h"
#include "harness/runs/shard.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// SupportOptions are the command's inputs.
struct SupportOptions {
  std::vector<Target> targets;  // every target at `ptx` if empty
  // ptx: the version every module declares; absent, the newest that matload
  // and every compiler speak (harness/compile/ptx_dialect.h).
  std::optional<PtxVersion> ptx;
  std::string compiler = "ptxas";  // "ptxas", "nvjitlink" or "driver"
  std::vector<std::string> ptxas_paths;  // for "ptxas": one report each, and a comparison if several
  std::string out;                 // the run directory; runs/<run ID> if empty
  int threads = 2;
  std::string command;             // the command line, recorded in the report
  CaseFilter filter;               // the cases the run takes (--cases, --include, --exclude)
  std::string filter_text;         // the filter's flags as given, part of the run's options
  std::string db;                  // the results store
  std::string resume;              // the run to take back, or empty for a new run
  std::optional<Baseline> baseline;  // expected failures (--baseline)
  bool strict_baseline = false;      // a fixed baseline line is an error too
  // shard: sweep only the targets of this shard (--shard), as a shard of
  // the run ShardParent names from `parent` (--parent, or the Slurm
  // array's job ID; empty: derived from the options).
  std::optional<Shard> shard;
  std::string parent;
  bool no_cache = false;             // compile everything; the verdict cache is neither read nor written
  int progress_seconds = 10;         // off a terminal, a progress line this often (ProgressReporter)
};

// RunSupport sweeps as a run in the results store (harness/runs/
// run_journal.h), writes the report into the run directory and prints a
// summary to `out`, and returns the number of unexplained disagreements
// (findings: matload support exits 1 on any). Each target's share is
// recorded as it finishes, so a resumed run sweeps only the targets that
// were not. With several ptxas binaries it sweeps each, writes a report
// per toolkit in <tool>-<version>/ptx<V> under the run directory, and
// compare-ptx<V>.md comparing them; their case IDs start with the toolkit
// ("ptxas_12_9_86.sm_90.ldmatrix...").
// With a shard it sweeps the targets of that shard only (shard.h), and
// records itself as a shard of its parent; its reports cover those.
// Compilers' answers come from the verdict cache in the results store
// (harness/runs/verdict_cache.h) where an earlier sweep with the same
// toolchain kept them, and new ones are kept there, unless `no_cache`; a
// compiler with no identity (the driver's JIT, a script: toolchain_identity.h)
// is always asked, with a note on stderr.
// Progress goes to stderr (harness/cli/progress_reporter.h). It fails when the compiler
// cannot be opened or a report file cannot be written, and with an
// InfrastructureError (exit 4) when a compiler could not judge: it crashed,
// hung, printed what cannot be read, or left forms unjudged. A sweep that
// fails so writes no report, so that no verdict it could not reach is
// published.
int RunSupport(const SupportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_SUPPORT_COMMAND_H_
