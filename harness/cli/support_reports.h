// Support reports of a run (`matload support`): each compiler's report
// (harness/support/support_report.h) in the run directory, and the comparison of
// several; written as a sweep ends, or rendered again from the results
// store alone, with no compiler at hand, for the merged run of a sharded
// sweep (`matload merge`). A run stores what that takes: each target's
// sweep (TargetSweepJson) and its compilers (CompilersArtifact).
#ifndef MATLOAD_HARNESS_CLI_SUPPORT_REPORTS_H_
#define MATLOAD_HARNESS_CLI_SUPPORT_REPORTS_H_

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/runs/run_journal.h"
#include "harness/support/support_sweep.h"

namespace matload {

// TodayUtc is the UTC date as the support and history reports give it
// ("2026-11-29").
std::string TodayUtc();

// SupportCompiler is one compiler as a run's reports name it: its report
// directory ("ptxas-13.0.88"), its toolchain ("ptxas 13.0.88") and its path
// as the reproducers' commands run it.
struct SupportCompiler {
  std::string name;
  std::string toolchain;
  std::string path;
};

// CompilerSweep is one compiler's sweep and how long it took.
struct CompilerSweep {
  SupportCompiler compiler;
  SupportSweep sweep;
  double seconds = 0;
};

// CompilersArtifact is the artifact, (key, text), that a support run
// keeps its compilers in.
std::pair<std::string, std::string> CompilersArtifact(const std::vector<SupportCompiler>& compilers);

// CasePrefix starts `compiler`'s case IDs and artifact keys when a run
// sweeps `several` compilers ("ptxas_13_0_88."), and is empty otherwise.
std::string CasePrefix(const SupportCompiler& compiler, bool several);

// WriteSupportReports writes each compiler's report, in `directory` for
// one and in <name>/ptx<V> under it for several (with compare-ptx<V>.md
// comparing them), saying so on `out`. `command` and `machine` say how they
// were made.
absl::Status WriteSupportReports(const std::vector<CompilerSweep>& sweeps, const DiscrepancyRegistry& registry,
                                 const std::string& command, const std::string& machine, const std::string& directory,
                                 std::ostream& out);

// RenderSupportRun writes the reports of the support run `journal` holds
// into its run directory, as the sweep writes them, from what the run
// stored alone: its options, target sweeps and compilers. `machine` says
// where it ran and `seconds` how long its sweeps took. A run that lacks a
// target's sweep or its compilers is kFailedPrecondition.
absl::Status RenderSupportRun(RunJournal& journal, const std::string& machine, double seconds, std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_SUPPORT_REPORTS_H_
