// Exports: a run's results as CSV (`matload export RUN_ID --csv F.csv`), so
// that spreadsheets and deqp-runner-style scripts can read every case's
// outcome. The JUnit export is junit_export.h. It is pure: it turns
// records (case_record.h) into text; the caller writes the file.
#ifndef MATLOAD_HARNESS_RUNS_EXPORTS_H_
#define MATLOAD_HARNESS_RUNS_EXPORTS_H_

#include <string>

#include "absl/types/span.h"
#include "harness/runs/case_record.h"

namespace matload {

// ResultsCsv is every case as CSV in the manner of deqp-runner's
// results.csv: the header "case,outcome,duration_s", then one
// "ID,OUTCOME,SECONDS" line per case in the order given, seconds to the
// millisecond. A field holding a comma, quote, CR or LF is quoted as RFC
// 4180 says; lines end in LF, which every CSV reader accepts.
std::string ResultsCsv(absl::Span<const CaseRecord> cases);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_EXPORTS_H_
