// The parts of a report's view (the data a template of templates/ names)
// that the run report and the diff report share: a run's description, a
// case's row, the filters and the legend.
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
// driver, toolkits, matload's version and the run directory.
kainjow::mustache::object RunView(const RunRecord& run);

// CaseRow is one case's row in a table of cases: its ID, facets
// (case_facets.h), outcome and class, whether it is a disagreement, its
// counts, detail and the links to its bundle's files.
kainjow::mustache::object CaseRow(const CaseRecord& record, OutcomeClass kind, const ReportPlace& place);

// BundleLinks links `record`'s bundle directory, then each file of it the
// table knows (a conform bundle's, a fuzz finding's) that exists.
kainjow::mustache::list BundleLinks(const CaseRecord& record, const ReportPlace& place);

// FilterView lists each facet's values among `ids`, in natural order
// (case_facets.h), and the outcomes among `outcomes`, for the filters.
kainjow::mustache::list FilterView(const std::vector<std::string>& ids, const std::vector<std::string>& outcomes);

// LegendView is the legend: every outcome class's colour and meaning.
kainjow::mustache::list LegendView();

// Thousands writes `count` with thousands separators: 18,761.
std::string Thousands(long long count);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_REPORT_VIEW_H_
