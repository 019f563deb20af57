// The parts of a report's view (the data a template of templates/ names)
// that the run report and the diff report share: a run's description, a
// case's bundle links, the filters and the legend.
#ifndef MATLOAD_HARNESS_REPORT_REPORT_VIEW_H_
#define MATLOAD_HARNESS_REPORT_REPORT_VIEW_H_

#include <filesystem>
#include <string>
#include <vector>

#include "harness/report/outcome_class.h"
#include "harness/report/run_report.h"
#include "harness/runs/case_record.h"
#include "kainjow/mustache.hpp"

namespace matload {

// RunView describes `run`: its command line, status, times, machine, GPU,
// driver, toolkits and matload's version, paths WithoutHome
// (harness/without_home.h).
kainjow::mustache::object RunView(const RunRecord& run);

// Link is one link of a case's row: where it goes, and its text.
struct Link {
  std::string href;
  std::string label;
};

// BundleLinks links `record`'s bundle directory, then each file of it the
// table knows (a conform bundle's, a fuzz finding's) that exists.
std::vector<Link> BundleLinks(const CaseRecord& record, const ReportPlace& place);

// FilterView lists each facet's values among `ids`, in natural order
// (case_facets.h), and the outcomes among `outcomes`, for the filters.
kainjow::mustache::list FilterView(const std::vector<std::string>& ids, const std::vector<std::string>& outcomes);

// LegendView is the legend: every outcome class's colour and meaning.
kainjow::mustache::list LegendView();

// Thousands writes `count` with thousands separators: 18,761; -1,000;
// -9,223,372,036,854,775,808 (every count, the most negative included).
std::string Thousands(long long count);

// WholeThousands writes `value` (seconds, a rate) rounded toward zero as
// Thousands does, where that is an int64, as every figure matload stores
// is; any other double (one a damaged store holds: 1e300, inf, NaN) is
// written as %g writes it, where casting it to an integer was undefined.
std::string WholeThousands(double value);

// ExecutionRate writes `executions` in `seconds` as a rate a person reads:
// "30.6 M/s", "12.5 k/s" or "640/s"; "-" for no time.
std::string ExecutionRate(double executions, double seconds);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_REPORT_VIEW_H_
