#include "harness/report/run_report.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "harness/report/case_facets.h"
#include "harness/report/html_page.h"
#include "harness/report/outcome_class.h"
#include "harness/report/report_view.h"

namespace matload {
namespace {

using kainjow::mustache::list;
using kainjow::mustache::object;

// Tally counts cases by outcome, overall and by one facet's value.
struct Tally {
  std::map<std::string, size_t> by_outcome;
  std::map<std::string, std::map<std::string, size_t>> by_value;  // value -> outcome -> cases
  std::map<std::string, OutcomeClass> classes;                   // outcome -> its class
};

// Breakdown is one summary table: outcomes down, a facet's values across,
// each column headed by its total.
object Breakdown(const std::string& title, const std::string& anchor, const Tally& tally) {
  std::vector<std::string> values;
  for (const auto& [value, counts] : tally.by_value) values.push_back(value);
  std::sort(values.begin(), values.end(), NaturalLess);
  list columns;
  for (const std::string& value : values) {
    size_t total = 0;
    for (const auto& [outcome, count] : tally.by_value.at(value)) total += count;
    columns.push_back(object{{"name", value}, {"total", Thousands(total)}});
  }
  list rows;
  for (const auto& [outcome, count] : tally.by_outcome) {
    list cells;
    for (const std::string& value : values) {
      const auto& counts = tally.by_value.at(value);
      const auto found = counts.find(outcome);
      cells.push_back(object{{"count", found == counts.end() ? std::string() : Thousands(found->second)}});
    }
    rows.push_back(object{{"outcome", outcome}, {"css", LegendOf(tally.classes.at(outcome)).css}, {"cells", cells}});
  }
  return object{{"title", title}, {"anchor", anchor}, {"columns", columns}, {"rows", rows}};
}

// FacetLabel is a case's value of a facet, or "(none)" for an ID without it.
std::string FacetLabel(const std::string& value) { return value.empty() ? "(none)" : value; }

}  // namespace

absl::StatusOr<std::string> RunReportHtml(const RunRecord& run, absl::Span<const CaseRecord> cases,
                                          const ReportPlace& place) {
  std::vector<const CaseRecord*> listed;
  Tally by_target, by_family, by_path;
  size_t disagreements = 0, findings = 0;
  std::vector<std::string> listed_ids, listed_outcomes;
  for (const CaseRecord& record : cases) {
    const OutcomeClass kind = ClassOf(record.outcome, record.finding);
    const CaseFacets facets = FacetsOf(record.id);
    for (auto [tally, value] : {std::pair{&by_target, &facets.target}, std::pair{&by_family, &facets.family},
                                std::pair{&by_path, &facets.path}}) {
      ++tally->by_outcome[record.outcome];
      ++tally->by_value[FacetLabel(*value)][record.outcome];
      tally->classes[record.outcome] = kind;
    }
    disagreements += IsDisagreement(kind);
    findings += record.finding;
    if (kind == OutcomeClass::kAgree) continue;
    listed.push_back(&record);
    listed_ids.push_back(record.id);
    listed_outcomes.push_back(record.outcome);
  }
  std::sort(listed.begin(), listed.end(),
            [](const CaseRecord* a, const CaseRecord* b) { return NaturalLess(a->id, b->id); });
  list outcome_totals, rows;
  for (const auto& [outcome, count] : by_target.by_outcome) {
    outcome_totals.push_back(object{{"outcome", outcome},
                                    {"css", LegendOf(by_target.classes.at(outcome)).css},
                                    {"count", std::to_string(count)},
                                    {"count_text", Thousands(count)}});
  }
  for (const CaseRecord* record : listed) rows.push_back(CaseRow(*record, ClassOf(record->outcome, record->finding), place));
  kainjow::mustache::data view;
  view.set("kind", run.command);
  view.set("run", RunView(run));
  view.set("total_cases", std::to_string(cases.size()));
  view.set("total_disagreements", std::to_string(disagreements));
  view.set("total_findings", std::to_string(findings));
  view.set("outcome_totals", outcome_totals);
  list breakdowns;
  for (const auto& [title, anchor, tally] : {std::tuple{"By target", "by-target", &by_target},
                                             std::tuple{"By family", "by-family", &by_family},
                                             std::tuple{"By compile path", "by-path", &by_path}}) {
    // A facet no case ID has (a conform run's target, a support run's path) makes no table.
    if (!tally->by_value.empty() && !(tally->by_value.size() == 1 && tally->by_value.contains(FacetLabel("")))) {
      breakdowns.push_back(Breakdown(title, anchor, *tally));
    }
  }
  view.set("breakdowns", breakdowns);
  view.set("filters", FilterView(listed_ids, listed_outcomes));
  view.set("listed_cases", std::to_string(listed.size()));
  view.set("cases", rows);
  view.set("legend", LegendView());
  return RenderPage("run_report.mustache", view);
}

}  // namespace matload
