// The support history's report (support_history.h): Markdown for people,
// JSON and tab-separated tables for machines, and a reproducer per distinct
// misdiagnosis no registry entry lists.
#ifndef MATLOAD_HARNESS_SUPPORT_SUPPORT_HISTORY_REPORT_H_
#define MATLOAD_HARNESS_SUPPORT_SUPPORT_HISTORY_REPORT_H_

#include <string>

#include "absl/status/status.h"
#include "harness/support/support_history.h"

namespace matload {

// HistoryContext is what the report says about how the history was made.
struct HistoryContext {
  std::string command;  // the command line
  std::string date;     // UTC, YYYY-MM-DD
  std::string machine;  // "x86_64, 2 cores, 2 threads used"
  std::string matload;  // matload's version and commit
  double seconds = 0;   // wall time of every sweep together
};

// WriteHistoryReport writes into `directory`, which exists:
//  - history.md: how it was made, the toolkits and what each speaks, every
//    sweep counted, the form classes' first and last accepting toolkits by
//    family and target, the disagreements' ranges by registry entry, what
//    changed between consecutive releases, and the misdiagnoses per
//    toolkit and distinct, each with its reproducer;
//  - history.json: the same, less the per-form lists;
//  - forms.tsv, disagreements.tsv, changes.tsv, misdiagnoses.tsv: every
//    form class, disagreement, change group and distinct misdiagnosis;
//  - reproducers/misdiagnosis-<n>.ptx: a module per distinct misdiagnosis
//    no entry lists, with its ptxas command in history.md.
// Paths and the command are printed WithoutHome (harness/platform/without_home.h).
absl::Status WriteHistoryReport(const SupportHistory& history, const HistoryContext& context,
                                const std::string& directory);

}  // namespace matload

#endif  // MATLOAD_HARNESS_SUPPORT_SUPPORT_HISTORY_REPORT_H_
