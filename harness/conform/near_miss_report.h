// NearMissReport: what the near-miss sweep's worker (conform_near_miss.h)
// sends back to the run. The sweep compiles every near-miss illegal form
// and every legal form through the device's driver JIT in a worker
// process; the run counts its disagreements and records its compile cases.
// The report crosses the worker's pipe as JSON, as a worker's CaseSummary
// does (harness/judge/case_summary.h), each case's outcome as its word
// (case_outcome.h), which Decode parses back to the typed outcome.
#ifndef MATLOAD_HARNESS_CONFORM_NEAR_MISS_REPORT_H_
#define MATLOAD_HARNESS_CONFORM_NEAR_MISS_REPORT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/runs/case_record.h"

namespace matload {

struct NearMissReport {
  // Disagreement is a form the JIT judged otherwise than the model.
  struct Disagreement {
    // model_legal: the model calls the form legal and the JIT rejected it;
    // else the model calls it illegal and the JIT accepted it.
    bool model_legal = false;
    std::string registry_id;  // the registry entry that explains it; empty: a finding

    friend bool operator==(const Disagreement&, const Disagreement&) = default;
  };

  size_t near_miss = 0;                     // the near-miss illegal forms the sweep compiled
  std::vector<Disagreement> disagreements;  // in the sweep's order
  // cases: each compile case, its ID, outcome, finding, seconds and detail.
  std::vector<CaseRecord> cases;

  // Encode writes the report for the pipe (JSON).
  std::string Encode() const;
  // Decode reads what Encode wrote; a text that is not such a report, or
  // a case whose outcome is no outcome word, is kDataLoss.
  static absl::StatusOr<NearMissReport> Decode(absl::string_view text);

  friend bool operator==(const NearMissReport&, const NearMissReport&) = default;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_NEAR_MISS_REPORT_H_
