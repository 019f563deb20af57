// `matload history`: the support history across toolkits
// (harness/support/support_history.h), as a run in the results store whose
// directory holds its report (harness/support/support_history_report.h).
#ifndef MATLOAD_HARNESS_CLI_HISTORY_COMMAND_H_
#define MATLOAD_HARNESS_CLI_HISTORY_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include "harness/runs/case_filter.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// HistoryOptions are the command's inputs.
struct HistoryOptions {
  std::vector<std::string> ptxas_paths;  // the toolkits, in any order
  PtxVersion common;                     // the version every toolkit that speaks it is swept at too
  std::vector<Target> targets;           // every target of each version if empty
  CaseFilter filter;                     // the cases each sweep takes (--cases, --include, --exclude)
  std::string filter_text;               // the filter's flags as given, part of the run's options
  std::string db;                        // the results store, which holds the verdict cache
  std::string out;                       // the run directory; runs/<run ID> if empty
  int threads = 2;                       // targets swept at once
  bool no_cache = false;                 // compile everything; the verdict cache is neither read nor written
  int progress_seconds = 10;             // off a terminal, a progress line this often
  std::string command;                   // the command line, recorded in the report
};

// RunHistory opens every ptxas, asks each which PTX ISA version it speaks
// (harness/compile/ptx_dialect.h), orders them by release and sweeps each,
// through the verdict cache, at the newest version it and matload both
// speak and at `common` where it speaks that, every target of the version
// (or those asked for that exist there). It prints a line per sweep to
// `out`, progress to `err`, and writes the history's report into the run
// directory. It returns the exit status: 0 when every disagreement falls
// under an entry of the registry on some toolchain and every misdiagnosis
// is registered; 1 (findings) otherwise; 2 for bad options, a --ptxas
// path that names no file, a release given twice or a filter that takes no
// case; 4 when a toolkit is truncated, for another platform or could not
// judge (crashed, hung, printed what cannot be read), with no report
// written; 130 or 143 when interrupted. A history run again finds its sweeps' answers in the cache.
int RunHistory(const HistoryOptions& options, std::ostream& out, std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_HISTORY_COMMAND_H_
