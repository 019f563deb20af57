#include "harness/report/diff_report.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/report/case_facets.h"
#include "harness/report/html_page.h"
#include "harness/report/outcome_class.h"
#include "harness/report/report_view.h"
#include "harness/runs/export_marker.h"

namespace matload {
namespace {

using kainjow::mustache::list;
using kainjow::mustache::object;

// DiffList is one list of a RunDiff as the page shows it.
struct DiffList {
  const char* key;    // its id on the page: "new_failures"
  const char* title;  // "New failures"
  const std::vector<DiffEntry>* entries;
};

// OutcomeCss colours an outcome of one run: absent when the run lacks the case.
std::string OutcomeCss(const std::optional<CaseOutcome>& outcome, bool finding) {
  return outcome.has_value() ? LegendOf(ClassOf(*outcome, finding)).css : "o-absent";
}

// LinkList is `links` as the template's list of {href, label}.
list LinkList(const std::vector<Link>& links) {
  list shown;
  for (const Link& link : links) shown.push_back(object{{"href", link.href}, {"label", link.label}});
  return shown;
}

// DiffRow is one entry's row; `in_b` is B's record of the case, or null.
object DiffRow(const DiffEntry& entry, const CaseRecord* in_b, const ReportPlace& place_b) {
  const CaseFacets facets = FacetsOf(entry.id);
  const bool finding_b = in_b != nullptr && in_b->finding;
  const bool disagreement = in_b != nullptr && IsDisagreement(ClassOf(in_b->outcome, in_b->finding));
  return object{{"id", entry.id},
                {"outcome_a", OutcomeOrAbsent(entry.outcome_a)},
                {"css_a", OutcomeCss(entry.outcome_a, false)},
                {"outcome_b", OutcomeOrAbsent(entry.outcome_b)},
                {"outcome", OutcomeOrAbsent(entry.outcome_b)},
                {"css_b", OutcomeCss(entry.outcome_b, finding_b)},
                {"disagreement", disagreement},
                {"target", facets.target},
                {"family", facets.family},
                {"shape", facets.shape},
                {"type", facets.type},
                {"detail", entry.detail},
                {"links", in_b == nullptr ? list{} : LinkList(BundleLinks(*in_b, place_b))}};
}

}  // namespace

// SettingRows are the two runs' settings side by side, each marked where A
// and B differ (the start time always does and is not marked), so that a
// diff across a toolkit, driver, GPU, matload or registry says so first.
list SettingRows(const RunRecord& a, const RunRecord& b) {
  const object run_a = RunView(a), run_b = RunView(b);
  const auto shown = [](const object& run, const char* key) { return run.at(key).string_value(); };
  const auto registry = [](const RunRecord& run) {
    return run.registry_digest.empty() ? std::string("unknown") : run.registry_digest.substr(0, 16);
  };
  std::vector<std::tuple<std::string, std::string, std::string, bool>> settings;  // name, A, B, compared
  for (const auto& [name, key, compared] :
       {std::tuple{"run", "id", false}, std::tuple{"command", "command_line", true},
        std::tuple{"status", "status", true}, std::tuple{"started", "started", false},
        std::tuple{"machine", "host", true}, std::tuple{"GPU", "gpu", true}, std::tuple{"driver", "driver", true},
        std::tuple{"toolkits", "toolkits", true}}) {
    settings.emplace_back(name, shown(run_a, key), shown(run_b, key), compared);
  }
  settings.emplace_back("matload", absl::StrCat(shown(run_a, "version"), ", ", shown(run_a, "commit")),
                        absl::StrCat(shown(run_b, "version"), ", ", shown(run_b, "commit")), true);
  settings.emplace_back("registry", registry(a), registry(b), true);
  list rows;
  for (const auto& [name, value_a, value_b, compared] : settings) {
    rows.push_back(object{{"name", name}, {"a", value_a}, {"b", value_b}, {"differs", compared && value_a != value_b}});
  }
  return rows;
}

absl::StatusOr<std::string> DiffReportHtml(const RunRecord& a, const RunRecord& b, const RunDiff& diff,
                                           absl::Span<const CaseRecord> b_cases, const ReportPlace& place_b) {
  std::map<std::string, const CaseRecord*> by_id;
  for (const CaseRecord& record : b_cases) by_id[record.id] = &record;
  const DiffList lists[] = {{"new_failures", "New failures", &diff.new_failures},
                            {"fixed", "Fixed", &diff.fixed},
                            {"flaky", "Flaky", &diff.flaky},
                            {"changed", "Changed", &diff.changed},
                            {"added", "Added", &diff.added},
                            {"removed", "Removed", &diff.removed}};
  list counts, sections;
  std::vector<std::string> ids, outcomes;
  for (const DiffList& diff_list : lists) {
    std::vector<DiffEntry> entries = *diff_list.entries;
    std::sort(entries.begin(), entries.end(),
              [](const DiffEntry& x, const DiffEntry& y) { return NaturalLess(x.id, y.id); });
    list rows;
    for (const DiffEntry& entry : entries) {
      const auto found = by_id.find(entry.id);
      rows.push_back(DiffRow(entry, found == by_id.end() ? nullptr : found->second, place_b));
      ids.push_back(entry.id);
      outcomes.push_back(OutcomeOrAbsent(entry.outcome_b));
    }
    counts.push_back(object{{"key", diff_list.key}, {"title", diff_list.title},
                            {"count", std::to_string(entries.size())}});
    sections.push_back(object{{"key", diff_list.key}, {"title", diff_list.title},
                              {"count", std::to_string(entries.size())}, {"rows", rows}});
  }
  counts.push_back(object{{"key", "unchanged"}, {"title", "Unchanged"}, {"count", std::to_string(diff.unchanged)}});
  kainjow::mustache::data view;
  view.set("export_marker", ExportMarker(ExportKind::kDiffPage, absl::StrCat(a.id, " ", b.id)));
  view.set("settings", SettingRows(a, b));
  view.set("regressed", Regressed(diff));
  view.set("counts", counts);
  view.set("sections", sections);
  view.set("filters", FilterView(ids, outcomes));
  view.set("legend", LegendView());
  return RenderPage("diff_report.mustache", view);
}

}  // namespace matload
