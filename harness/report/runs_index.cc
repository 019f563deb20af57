#include "harness/report/runs_index.h"

#include <algorithm>
#include <filesystem>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "harness/platform/without_home.h"
#include "harness/platform/xml_escape.h"
#include "harness/report/html_page.h"
#include "harness/report/report_view.h"
#include "harness/runs/export_marker.h"
#include "harness/runs/run_journal.h"

namespace matload {
namespace {

using kainjow::mustache::list;
using kainjow::mustache::object;

// kFailingListed is how many failing cases a series lists; the rest are counted.
constexpr size_t kFailingListed = 200;

// SeriesKey is what a series shares: command, GPU model, driver, toolkits.
using SeriesKey = std::tuple<std::string, std::string, std::string, std::string>;

SeriesKey KeyOf(const RunRecord& run) { return {run.command, run.gpu_name, run.driver, run.toolkits}; }

// Day is a run's start as the page shows it.
std::string Day(const RunRecord& run) { return absl::FormatTime("%Y-%m-%d %H:%MZ", run.started, absl::UTCTimeZone()); }

// Failing are the findings of the series' newest finished run (Finished,
// run_journal.h), or of its newest run where none finished, each with its
// streak, in ID order. A run that did not finish may not have reached a
// case, so its silence about a case is no pass and ends no streak.
std::vector<FailingCase> Failing(const std::vector<const IndexedRun*>& runs) {
  if (runs.empty()) return {};
  auto newest = std::find_if(runs.rbegin(), runs.rend(), [](const IndexedRun* run) { return Finished(run->run); });
  if (newest == runs.rend()) newest = runs.rbegin();
  std::vector<std::string> ids((*newest)->findings.begin(), (*newest)->findings.end());
  std::sort(ids.begin(), ids.end());
  std::vector<FailingCase> failing;
  for (std::string& id : ids) {
    FailingCase streak{.id = std::move(id), .since = *newest, .runs = 1};
    for (auto older = newest + 1; older != runs.rend(); ++older) {
      if (!Finished((*older)->run)) continue;
      if (!(*older)->findings.contains(streak.id)) break;
      streak.since = *older;
      ++streak.runs;
    }
    failing.push_back(std::move(streak));
  }
  return failing;
}

// BarTitle says what one run's bar shows, as plain text: the run's ID and
// status are the store's, so TrendChartSvg escapes it.
std::string BarTitle(const IndexedRun& run) {
  std::vector<std::string> counts;
  for (const LegendEntry& entry : Legend()) {
    const auto found = run.by_class.find(entry.kind);
    if (found != run.by_class.end()) counts.push_back(absl::StrCat(found->second, " ", entry.css + 2));
  }
  return absl::StrCat(run.run.id, ", ", Day(run.run), ": ", run.run.status, "; ", run.cases, " cases",
                      counts.empty() ? "" : ": ", absl::StrJoin(counts, ", "));
}

// kWrongSmsListed is how many SMs that called blocks wrong a run's row names.
constexpr size_t kWrongSmsListed = 4;

// SmsText says which SMs gave a run's device verdicts, and names those that
// called blocks wrong: "132, none wrong", "264; wrong: GPU 1 SM 17 (3
// blocks)". Empty for a run without them.
std::string SmsText(const SmVerdicts& verdicts) {
  if (verdicts.empty()) return "";
  std::vector<std::string> wrong;
  for (const auto& [place, counts] : verdicts) {
    if (counts.disagreed == 0) continue;
    if (wrong.size() == kWrongSmsListed) {
      wrong.push_back("...");
      break;
    }
    wrong.push_back(absl::StrFormat("GPU %d SM %d (%d blocks)", place.first, place.second, counts.disagreed));
  }
  return absl::StrCat(verdicts.size(), wrong.empty() ? ", none wrong" : "; wrong: ", absl::StrJoin(wrong, ", "));
}

// RunRows are a series' runs, newest first, as the template's table rows.
list RunRows(const RunSeries& series) {
  list rows;
  for (auto it = series.runs.rbegin(); it != series.runs.rend(); ++it) {
    const IndexedRun& run = **it;
    const auto count = [&](OutcomeClass kind) {
      const auto found = run.by_class.find(kind);
      return Thousands(found == run.by_class.end() ? 0 : static_cast<long long>(found->second));
    };
    rows.push_back(object{{"id", run.run.id},
                          {"day", Day(run.run)},
                          {"status", run.run.status},
                          {"finished", Finished(run.run)},
                          {"cases", Thousands(static_cast<long long>(run.cases))},
                          {"agree", count(OutcomeClass::kAgree)},
                          {"known", count(OutcomeClass::kKnown)},
                          // The store's findings (record.finding), flakes that need a person among them,
                          // as `matload runs` counts them: not the finding class, which leaves flakes out.
                          {"findings", Thousands(static_cast<long long>(run.findings.size()))},
                          {"flakes", count(OutcomeClass::kFlake)},
                          {"not_run", count(OutcomeClass::kNotRun)},
                          {"sms", SmsText(run.sm_verdicts)},
                          {"sms_wrong", std::any_of(run.sm_verdicts.begin(), run.sm_verdicts.end(),
                                                    [](const auto& sm) { return sm.second.disagreed > 0; })},
                          {"directory", WithoutHome(run.run.directory)}});
  }
  return rows;
}

// FailingRows are a series' failing cases, at most kFailingListed.
list FailingRows(const RunSeries& series) {
  list rows;
  for (size_t i = 0; i < std::min(series.failing.size(), kFailingListed); ++i) {
    const FailingCase& failing = series.failing[i];
    rows.push_back(object{{"id", failing.id},
                          {"since", failing.since->run.id},
                          {"since_day", Day(failing.since->run)},
                          {"runs", std::to_string(failing.runs)},
                          {"new", failing.runs == 1}});
  }
  return rows;
}

}  // namespace

void RunsIndex::Add(const RunRecord& run, absl::Span<const CaseRecord> cases, const SmVerdicts& sm_verdicts) {
  IndexedRun indexed{.run = run, .cases = cases.size(), .sm_verdicts = sm_verdicts};
  for (const CaseRecord& record : cases) {
    ++indexed.by_class[ClassOf(record.outcome, record.finding)];
    if (record.finding) indexed.findings.insert(record.id);
  }
  runs_.push_back(std::move(indexed));
}

std::vector<RunSeries> RunsIndex::Series() const {
  std::map<SeriesKey, RunSeries> by_key;
  std::vector<SeriesKey> newest_first;  // each key once, by its newest run
  for (auto it = runs_.rbegin(); it != runs_.rend(); ++it) {
    const SeriesKey key = KeyOf(it->run);
    auto [series, added] = by_key.try_emplace(key);
    if (added) {
      std::tie(series->second.command, series->second.gpu, series->second.driver, series->second.toolkits) = key;
      newest_first.push_back(key);
    }
    series->second.runs.insert(series->second.runs.begin(), &*it);
  }
  std::vector<RunSeries> series;
  for (const SeriesKey& key : newest_first) {
    RunSeries& one = by_key.at(key);
    one.failing = Failing(one.runs);
    series.push_back(std::move(one));
  }
  return series;
}

std::string TrendChartSvg(const RunSeries& series) {
  constexpr int kBar = 14, kGap = 4, kHeight = 100, kTop = 4, kLeft = 2;
  const int width = kLeft + static_cast<int>(series.runs.size()) * (kBar + kGap);
  std::string svg = absl::StrFormat(
      "<svg class=\"trend-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
      "aria-label=\"each run's cases by outcome, oldest on the left\">",
      width, kTop + kHeight + 2);
  for (size_t i = 0; i < series.runs.size(); ++i) {
    const IndexedRun& run = *series.runs[i];
    const int x = kLeft + static_cast<int>(i) * (kBar + kGap);
    absl::StrAppendFormat(&svg, "<g><title>%s</title>", XmlEscape(BarTitle(run)));
    double bottom = kTop + kHeight;
    // The legend lists the worst first; the bar stacks the best at its foot.
    for (auto entry = Legend().rbegin(); entry != Legend().rend() && run.cases > 0; ++entry) {
      const auto found = run.by_class.find(entry->kind);
      if (found == run.by_class.end()) continue;
      const double height = kHeight * static_cast<double>(found->second) / static_cast<double>(run.cases);
      bottom -= height;
      absl::StrAppendFormat(&svg, "<rect class=\"%s\" x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\"/>", entry->css,
                            x, bottom, kBar, height);
    }
    if (!Finished(run.run) || run.cases == 0) {
      absl::StrAppendFormat(&svg,
                            "<rect class=\"unfinished\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                            "stroke=\"#000\" stroke-dasharray=\"3 2\"/>",
                            x, kTop, kBar, kHeight);
    }
    svg += "</g>";
  }
  return svg + "</svg>";
}

absl::StatusOr<std::string> RunsIndexHtml(absl::Span<const RunSeries> series, const std::string& store_path) {
  list series_view;
  for (size_t at = 0; at < series.size(); ++at) {
    const RunSeries& one = series[at];
    series_view.push_back(
        object{{"anchor", absl::StrCat("series-", at + 1)},  // unique, where command and run count need not be
               {"command", one.command},
               {"gpu", one.gpu.empty() ? "no GPU" : one.gpu},
               {"driver", one.driver.empty() ? "no driver" : one.driver},
               {"toolkits", one.toolkits},
               {"runs", std::to_string(one.runs.size())},
               {"chart", TrendChartSvg(one)},
               {"run_rows", RunRows(one)},
               {"failing_count", std::to_string(one.failing.size())},
               {"any_failing", !one.failing.empty()},
               {"failing_rows", FailingRows(one)},
               // A section of an empty string still shows in kainjow's mustache: a bool decides.
               {"any_more", one.failing.size() > kFailingListed},
               {"failing_more", one.failing.size() > kFailingListed
                                    ? Thousands(static_cast<long long>(one.failing.size() - kFailingListed))
                                    : std::string()}});
  }
  kainjow::mustache::data view;
  view.set("export_marker", ExportMarker(ExportKind::kRunsIndex, store_path));
  view.set("store", WithoutHome(store_path));
  view.set("series", series_view);
  view.set("any_series", !series.empty());
  view.set("legend", LegendView());
  return RenderPage("runs_index.mustache", view);
}

}  // namespace matload
