// ConformReport: the renderers of a conformance run (conformance_run.h):
// what it has counted, as the summary table a person reads (summary.md),
// as data (summary.json), as one line per case (results.tsv), and as the
// totals a resumed run takes back from the results store. They read
// ConformanceOptions and ConformanceResult and change nothing.
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_REPORT_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "harness/conform/conformance_run.h"
#include "harness/runs/case_record.h"
#include "nlohmann/json.hpp"

namespace matload {

// ConformanceSummaryMarkdown is the summary table a run ends with.
std::string ConformanceSummaryMarkdown(const ConformanceOptions& options, const ConformanceResult& result);

// ConformanceTotalsMarkdown is that table without its heading and the line
// naming the seed and the variants, from the compile paths on: a soak
// (harness/cli/soak_command.h) heads it with its rounds.
std::string ConformanceTotalsMarkdown(const ConformanceOptions& options, const ConformanceResult& result);

// SummaryJson is summary.json: the options that decide the results, and
// every total.
nlohmann::json SummaryJson(const ConformanceOptions& options, const ConformanceResult& result);

// WriteSummaries writes summary.md and summary.json into the run
// directory, each atomically (output_files.h); a disk that takes neither
// is an infrastructure failure.
absl::Status WriteSummaries(const ConformanceOptions& options, const ConformanceResult& result);

// CaseTable is results.tsv: a header naming the device (`identity`), then
// one line per case in the order given: its ID, outcome, variants by
// outcome ("pass=14,known_fault=2"), first failing variants, the first
// failure's message and its bundle.
std::string CaseTable(const std::string& identity, const std::vector<CaseRecord>& cases);

// TsvField keeps a message on one line of a table: tabs and line breaks
// become spaces.
std::string TsvField(absl::string_view text);

// AddPhase adds `phase` to the phase of the same name, or appends it: a
// run's chunks each pass through the same phases.
void AddPhase(const ConformancePhase& phase, std::vector<ConformancePhase>& phases);

// TotalsJson is what a run has counted so far, and AddTotals adds such
// totals into `result`: a resumed run's summary counts what the earlier
// attempts judged too, and a merged run's (harness/cli/merge_command.h)
// counts what every shard judged. Counts and times add up; the lists of
// registry misses and of what was not run are joined without repeats.
// What the GPU cannot run is planned, not judged, so every attempt and
// every shard counts all of it: its count ("not supported here") is taken
// once, not added.
// Totals that do not read back are kDataLoss.
nlohmann::json TotalsJson(const ConformanceResult& result);
absl::Status AddTotals(const nlohmann::json& json, ConformanceResult& result);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_REPORT_H_
