// CaseCounts: a case's counts (CaseRecord::counts, or a fuzz campaign's
// CampaignFigures) as words, where they leave matload: results.tsv, the
// run's page, JUnit and the results store. The store keeps them in one
// JSON object of words in its counts column, as it always has
// ({"known_fault": 2, "pass": 14}, or a campaign's {"corpus": 80,
// "coverage": 512, "crashes": 0, "findings": 1, "runs": 100000}), so that
// a store that an older matload wrote reads back. Words are in their
// alphabetical order everywhere, as the store's JSON has them.
#ifndef MATLOAD_HARNESS_RUNS_CASE_COUNTS_H_
#define MATLOAD_HARNESS_RUNS_CASE_COUNTS_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "harness/runs/case_record.h"

namespace matload {

// CountWords is the record's counts by word: its outcomes'
// (CaseOutcomeWord), or its campaign's figures by name.
std::map<std::string, std::int64_t> CountWords(const CaseRecord& record);

// CountsText is CountWords as "word=count" pairs joined by `separator`:
// "known_fault=2, pass=14".
std::string CountsText(const CaseRecord& record, absl::string_view separator);

// ReadCountWords sets the record's counts, or its campaign's figures when
// `words` name a campaign's runs, from what CountWords wrote. A word that
// is neither an outcome nor, with "runs", a campaign's figure is
// kDataLoss: no matload wrote it.
absl::Status ReadCountWords(const std::map<std::string, std::int64_t>& words, CaseRecord& record);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_CASE_COUNTS_H_
