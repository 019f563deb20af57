#include "harness/report/run_report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/platform/outside_text.h"
#include "harness/platform/without_home.h"
#include "harness/report/case_facets.h"
#include "harness/report/data_block.h"
#include "harness/report/fuzz_campaigns.h"
#include "harness/report/html_page.h"
#include "harness/report/outcome_class.h"
#include "harness/report/report_view.h"
#include "harness/report/root_causes.h"
#include "harness/report/sm_verdicts_view.h"
#include "harness/report/word_picture.h"
#include "harness/runs/case_counts.h"
#include "harness/runs/export_marker.h"

namespace matload {
namespace {

using kainjow::mustache::list;
using kainjow::mustache::object;

// Tally counts cases by outcome, overall and by one facet's value.
struct Tally {
  std::map<std::string, size_t> by_outcome;
  std::map<std::string, std::map<std::string, size_t>> by_value;  // value -> outcome -> cases
  std::map<std::string, OutcomeClass> classes;                    // outcome -> its class
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

// LinkTexts are `links` as one value of a data block: href, label, href, label, ...
std::vector<std::string> LinkTexts(const std::vector<Link>& links) {
  std::vector<std::string> texts;
  for (const Link& link : links) texts.insert(texts.end(), {link.href, link.label});
  return texts;
}

// SplitId splits a case's ID after its target ("ptxas_12_9_86.sm_90."),
// so that the rest, one form's on every target, is kept once (DataBlock).
std::pair<std::string, std::string> SplitId(const std::string& id, const std::string& target) {
  const size_t at = target.empty() ? std::string::npos : id.find(target + ".");
  if (at == std::string::npos) return {"", id};
  const size_t end = at + target.size() + 1;
  return {id.substr(0, end), id.substr(end)};
}

// CaseRows are the `listed` cases as the data block that templates/report.js
// renders as the rows of the case table (its "case" renderer).
DataBlock CaseRows(const std::vector<const CaseRecord*>& listed, const ReportPlace& place) {
  DataBlock block({"id_head", "id_tail", "outcome", "css", "disagreement", "target", "family", "shape", "type", "path",
                   "counts", "detail", "rule", "rule_label", "links"},
                  2);
  for (const CaseRecord* record : listed) {
    const OutcomeClass kind = ClassOf(record->outcome, record->finding);
    const CaseFacets facets = FacetsOf(record->id);
    const auto [id_head, id_tail] = SplitId(record->id, facets.target);
    // rule and rule_label (the two "") are where the support data's model rules and
    // their inferred/measured labels go once the store carries them (issue 20).
    block.AddRow({id_head, id_tail, std::string(CaseOutcomeWord(record->outcome)), LegendOf(kind).css,
                  IsDisagreement(kind) ? "1" : "0", facets.target, facets.family, facets.shape, facets.type,
                  facets.path, CountsText(*record, ", "), record->detail, "", "",
                  LinkTexts(BundleLinks(*record, place))});
  }
  return block;
}

// RunDirectoryText is the run's directory as the page shows it: relative to
// the page, so that no page names the machine's directories.
std::string RunDirectoryText(const ReportPlace& place) {
  const std::filesystem::path relative = place.run_directory.lexically_relative(place.page_directory);
  if (relative.empty()) return OutsideText(WithoutHome(place.run_directory.generic_string()));
  return relative == "." ? ". (this page's directory)" : OutsideText(relative.generic_string());
}

// RootCausesView is the root causes of the `listed` cases as the template's list.
list RootCausesView(const std::vector<const CaseRecord*>& listed, const ReportPlace& place) {
  list causes;
  for (const RootCause& cause : RootCauses(listed, place.run_directory)) {
    causes.push_back(object{{"signature", cause.signature},
                            {"cases", Thousands(cause.cases)},
                            {"case_word", cause.cases == 1 ? "case" : "cases"},
                            {"first_case", cause.first->id},
                            {"bundle_href", BundleLinks(*cause.first, place).front().href},
                            {"diagnosis", cause.diagnosis},
                            {"picture", cause.picture}});
  }
  return causes;
}

// FuzzCampaignsView is a fuzz run's campaigns as the template's list: the
// store's figures, the rate they give, and the coverage chart.
list FuzzCampaignsView(absl::Span<const CaseRecord> cases, const ReportPlace& place) {
  list campaigns;
  for (const FuzzCampaign& campaign : FuzzCampaigns(cases, place.run_directory)) {
    const double rate = campaign.seconds > 0 ? static_cast<double>(campaign.runs) / campaign.seconds : 0;
    campaigns.push_back(object{{"target", campaign.target},
                               {"outcome", std::string(CaseOutcomeWord(campaign.outcome))},
                               {"runs", Thousands(campaign.runs)},
                               {"seconds", WholeThousands(campaign.seconds)},
                               {"rate", campaign.seconds > 0 ? WholeThousands(rate) : "-"},
                               {"coverage", Thousands(campaign.coverage)},
                               {"corpus", Thousands(campaign.corpus)},
                               {"findings", Thousands(campaign.findings)},
                               {"crashes", Thousands(campaign.crashes)},
                               {"chart", CoverageChartSvg(campaign)}});
  }
  return campaigns;
}

// FacetLabel is a case's value of a facet, or "(none)" for an ID without it.
std::string FacetLabel(const std::string& value) { return value.empty() ? "(none)" : value; }

}  // namespace

// SmVerdictsView is the GPU judge's verdicts as the template's list, a
// GPU each.
list SmVerdictsView(const SmVerdicts& sm_verdicts) {
  list gpus;
  for (const GpuSms& gpu : ByGpu(sm_verdicts)) {
    gpus.push_back(object{{"gpu", std::to_string(gpu.gpu)}, {"sentence", SmSentence(gpu)}, {"strip", SmStripSvg(gpu)}});
  }
  return gpus;
}

// SoakRoundsView is a soak's rounds as the template's rows.
list SoakRoundsView(const std::vector<SoakRound>& rounds) {
  list rows;
  for (const SoakRound& round : rounds) {
    rows.push_back(object{{"round", std::to_string(round.index)},
                          {"seed", std::to_string(round.seed)},
                          // Rounds stored before they were sized apart ran the soak's --round_variants.
                          {"variants", round.variants > 0 ? Thousands(round.variants) : std::string("")},
                          {"seconds", absl::StrFormat("%.1f", round.seconds)},
                          {"executions", Thousands(static_cast<long long>(round.executions))},
                          {"rate", ExecutionRate(round.executions, round.seconds)},
                          {"judged_on_device", Thousands(static_cast<long long>(round.judged_on_device))},
                          {"findings", std::to_string(round.findings)}});
  }
  return rows;
}

absl::StatusOr<std::string> RunReportHtml(const RunRecord& run, absl::Span<const CaseRecord> cases,
                                          const ReportPlace& place, const RunExtras& extras) {
  std::vector<const CaseRecord*> listed;
  Tally by_target, by_family, by_path;
  size_t disagreements = 0, findings = 0, not_run = 0;
  std::vector<std::string> listed_ids, listed_outcomes;
  for (const CaseRecord& record : cases) {
    const OutcomeClass kind = ClassOf(record.outcome, record.finding);
    const CaseFacets facets = FacetsOf(record.id);
    const std::string outcome(CaseOutcomeWord(record.outcome));  // the tables list outcomes by their words
    for (auto [tally, value] : {std::pair{&by_target, &facets.target}, std::pair{&by_family, &facets.family},
                                std::pair{&by_path, &facets.path}}) {
      ++tally->by_outcome[outcome];
      ++tally->by_value[FacetLabel(*value)][outcome];
      tally->classes[outcome] = kind;
    }
    disagreements += IsDisagreement(kind);
    findings += record.finding;
    not_run += kind == OutcomeClass::kNotRun;
    if (kind == OutcomeClass::kAgree || kind == OutcomeClass::kNotRun) continue;
    listed.push_back(&record);
    listed_ids.push_back(record.id);
    listed_outcomes.push_back(outcome);
  }
  std::sort(listed.begin(), listed.end(),
            [](const CaseRecord* a, const CaseRecord* b) { return NaturalLess(a->id, b->id); });
  list outcome_totals;
  for (const auto& [outcome, count] : by_target.by_outcome) {
    outcome_totals.push_back(object{{"outcome", outcome},
                                    {"css", LegendOf(by_target.classes.at(outcome)).css},
                                    {"count", std::to_string(count)},
                                    {"count_text", Thousands(count)}});
  }
  kainjow::mustache::data view;
  view.set("kind", run.command);
  view.set("export_marker", ExportMarker(ExportKind::kRunPage, run.id));
  object run_view = RunView(run);
  run_view["directory"] = RunDirectoryText(place);
  view.set("run", run_view);
  view.set("total_cases", std::to_string(cases.size()));
  view.set("total_disagreements", std::to_string(disagreements));
  view.set("total_findings", std::to_string(findings));
  view.set("outcome_totals", outcome_totals);
  list breakdowns;
  for (const auto& [title, anchor, tally] :
       {std::tuple{"By target", "by-target", &by_target}, std::tuple{"By family", "by-family", &by_family},
        std::tuple{"By compile path", "by-path", &by_path}}) {
    // A facet no case ID has (a conform run's target, a support run's path) makes no table.
    if (!tally->by_value.empty() && !(tally->by_value.size() == 1 && tally->by_value.contains(FacetLabel("")))) {
      breakdowns.push_back(Breakdown(title, anchor, *tally));
    }
  }
  view.set("breakdowns", breakdowns);
  view.set("any_rounds", !extras.soak_rounds.empty());
  view.set("rounds", SoakRoundsView(extras.soak_rounds));
  view.set("any_sms", !extras.sm_verdicts.empty());
  view.set("gpus", SmVerdictsView(extras.sm_verdicts));
  const list campaigns = FuzzCampaignsView(cases, place);
  view.set("any_campaigns", !campaigns.empty());
  view.set("campaigns", campaigns);
  view.set("filters", FilterView(listed_ids, listed_outcomes));
  const list root_causes = RootCausesView(listed, place);
  view.set("any_root_causes", !root_causes.empty());
  view.set("root_causes", root_causes);
  view.set("word_picture_legend", WordPictureLegendHtml());
  view.set("listed_cases", std::to_string(listed.size()));
  view.set("not_run", Thousands(not_run));
  view.set("case_rows", CaseRows(listed, place).ScriptText());
  view.set("listed_any", !listed.empty());
  view.set("legend", LegendView());
  return RenderPage("run_report.mustache", view);
}

}  // namespace matload
