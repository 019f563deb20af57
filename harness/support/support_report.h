// Support reports: a SupportSweep written as Markdown, JSON, an HTML heat
// map, and one standalone reproducer per distinct disagreement.
#ifndef MATLOAD_HARNESS_SUPPORT_SUPPORT_REPORT_H_
#define MATLOAD_HARNESS_SUPPORT_SUPPORT_REPORT_H_

#include <string>

#include "absl/status/status.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/support/support_sweep.h"

namespace matload {

// ReportContext is what a report says about how it was made.
struct ReportContext {
  std::string command;   // the command line that made it
  std::string date;      // UTC, YYYY-MM-DD
  std::string machine;   // e.g. "x86_64, 2 cores, 2 threads used"
  std::string compiler_path;  // for the reproducers' commands
  double seconds = 0;         // wall time of the sweep
};

// WriteSupportReport writes into `directory` (created if missing):
//  - support.md: how it was made, per-target counts, the matrix per family,
//    and the disagreements grouped by registry entry;
//  - support.json: the same data (each cell with the compiler's first
//    message and how many it printed);
//  - support.html: the matrix as a page (support_matrix_page.h): qualifier
//    sets x targets, every disagreement with its reproducer;
//  - reproducers/<id>.ptx: one module per registry entry that occurred and
//    per unexplained disagreement, with the exact command in support.md.
// WriteSupportReport prints the command and compiler path WithoutHome
// (harness/without_home.h).
absl::Status WriteSupportReport(const SupportSweep& sweep, const DiscrepancyRegistry& registry,
                                const ReportContext& context, const std::string& directory);

}  // namespace matload

#endif  // MATLOAD_HARNESS_SUPPORT_SUPPORT_REPORT_H_
