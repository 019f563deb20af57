#include "harness/report/fuzz_campaigns.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/platform/input_files.h"
#include "harness/platform/without_home.h"
#include "harness/platform/xml_escape.h"

namespace matload {
namespace {

// kCampaignPrefix starts a campaign case's ID (fuzz_command.cc's CampaignCaseId).
constexpr absl::string_view kCampaignPrefix = "fuzz.";

// ChartSize is the coverage chart's frame: the plot's origin at
// (left, top + height), its axes `width` and `height` long.
struct ChartSize {
  int left = 56, top = 10, width = 360, height = 120;
};

// Axis is the span an axis shows: round numbers around its values, so
// that a reader takes its ends in at a glance and a curve that grows by a
// few edges still rises visibly. It is worked out in double, as the chart
// is drawn: coverage.tsv's figures may be any int64, and their differences
// and round ends would overflow one.
struct Axis {
  double low = 0, high = 1;
};

// NiceStep is the smallest of 1, 2 and 5 times a power of ten that is at
// least `at_least` (finite).
double NiceStep(double at_least) {
  for (double scale = 1;; scale *= 10) {
    for (double step : {1.0, 2.0, 5.0}) {
      if (step * scale >= at_least) return step * scale;
    }
  }
}

// AxisAround spans `smallest` to `largest` in about four nice steps.
Axis AxisAround(std::int64_t smallest, std::int64_t largest) {
  const double low = static_cast<double>(smallest), high = static_cast<double>(largest);
  const double step = NiceStep(std::max(1.0, (high - low) / 4));
  Axis axis{.low = std::floor(low / step) * step, .high = std::ceil(high / step) * step};
  if (axis.high == axis.low) axis.high += step;
  return axis;
}

// IsTheStores says whether `last`, a target's last coverage.tsv row, holds
// the figures the store keeps of `campaign`: the fuzz command writes that
// row from the figures it then stores.
bool IsTheStores(const CoveragePoint& last, const FuzzCampaign& campaign) {
  return last.runs == campaign.runs && last.coverage == campaign.coverage && last.corpus == campaign.corpus;
}

// AddCurves gives each of `campaigns` its rows of `run_directory`/coverage.tsv
// where they are its own, or its no_curve.
void AddCurves(const std::filesystem::path& run_directory, std::vector<FuzzCampaign>& campaigns) {
  const absl::StatusOr<std::string> tsv = ReadFileBytes(run_directory / "coverage.tsv");
  if (!tsv.ok()) {
    const std::string why =
        absl::IsNotFound(tsv.status())
            ? "the run directory holds no coverage.tsv"
            : absl::StrCat("the run directory's coverage.tsv cannot be read: ", WithoutHome(tsv.status().message()));
    for (FuzzCampaign& campaign : campaigns) campaign.no_curve = why;
    return;
  }
  const std::map<std::string, std::vector<CoveragePoint>> over_time = ReadCoverageTsv(*tsv);
  for (FuzzCampaign& campaign : campaigns) {
    const auto rows = over_time.find(campaign.target);
    if (rows == over_time.end()) {
      campaign.no_curve = "coverage.tsv has no row for this target";
    } else if (const CoveragePoint& last = rows->second.back(); !IsTheStores(last, campaign)) {
      campaign.no_curve = absl::StrFormat(
          "coverage.tsv is another run's: its last row for this target (%d runs, coverage %d, corpus %d) is not "
          "what the store keeps of this campaign (%d, %d, %d)",
          last.runs, last.coverage, last.corpus, campaign.runs, campaign.coverage, campaign.corpus);
    } else {
      campaign.over_time = rows->second;
    }
  }
}

}  // namespace

std::map<std::string, std::vector<CoveragePoint>> ReadCoverageTsv(absl::string_view text) {
  std::map<std::string, std::vector<CoveragePoint>> rows;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<absl::string_view> fields = absl::StrSplit(line, '\t');
    CoveragePoint point;
    std::int64_t features = 0, findings = 0, signatures = 0;
    if (fields.size() != 8 || fields[1].empty() || !absl::SimpleAtoi(fields[0], &point.seconds) ||
        !absl::SimpleAtoi(fields[2], &point.runs) || !absl::SimpleAtoi(fields[3], &point.coverage) ||
        !absl::SimpleAtoi(fields[4], &features) || !absl::SimpleAtoi(fields[5], &point.corpus) ||
        !absl::SimpleAtoi(fields[6], &findings) || !absl::SimpleAtoi(fields[7], &signatures)) {
      continue;
    }
    rows[std::string(fields[1])].push_back(point);
  }
  return rows;
}

std::vector<FuzzCampaign> FuzzCampaigns(absl::Span<const CaseRecord> cases,
                                        const std::filesystem::path& run_directory) {
  std::vector<FuzzCampaign> campaigns;
  for (const CaseRecord& record : cases) {
    absl::string_view target = record.id;
    // A finding or crash of a campaign ("fuzz.text.finding.X") is a case of its own, not a campaign.
    if (!absl::ConsumePrefix(&target, kCampaignPrefix) || target.empty() || absl::StrContains(target, '.')) continue;
    const CampaignFigures figures = record.campaign.value_or(CampaignFigures{});
    FuzzCampaign campaign{.target = std::string(target),
                          .outcome = record.outcome,
                          .runs = figures.runs,
                          .seconds = record.seconds,
                          .coverage = figures.coverage,
                          .corpus = figures.corpus,
                          .findings = figures.findings,
                          .crashes = figures.crashes};
    campaigns.push_back(std::move(campaign));
  }
  if (!campaigns.empty()) AddCurves(run_directory, campaigns);  // only a fuzz run's page reads coverage.tsv
  return campaigns;
}

std::string CoverageChartSvg(const FuzzCampaign& campaign) {
  // A row before the fuzzer's first status line (no executions yet) measures no coverage.
  std::vector<CoveragePoint> points;
  std::copy_if(campaign.over_time.begin(), campaign.over_time.end(), std::back_inserter(points),
               [](const CoveragePoint& point) { return point.runs > 0; });
  if (points.empty()) {
    const std::string why =
        campaign.no_curve.empty() ? "coverage.tsv has no row with executions for this target" : campaign.no_curve;
    return absl::StrCat("<p>No coverage over time: ", XmlEscape(why), ".</p>");
  }
  const ChartSize size;
  std::int64_t least = points.front().coverage, most = least;
  for (const CoveragePoint& point : points) {
    least = std::min(least, point.coverage);
    most = std::max(most, point.coverage);
  }
  const Axis x = AxisAround(0, points.back().seconds), y = AxisAround(least, most);
  const auto x_of = [&](std::int64_t seconds) {
    return size.left + size.width * static_cast<double>(seconds) / x.high;
  };
  const auto y_of = [&](std::int64_t coverage) {
    return size.top + size.height - size.height * (static_cast<double>(coverage) - y.low) / (y.high - y.low);
  };
  const int bottom = size.top + size.height;
  std::string svg = absl::StrFormat(
      "<svg class=\"coverage-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
      "aria-label=\"coverage (edges) over the campaign's seconds\"><g font-size=\"10\" font-family=\"sans-serif\">"
      "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#555\"/>"
      "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>"
      "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f s</text><text x=\"4\" y=\"%d\">cov</text>",
      size.left + size.width + 40, bottom + 28, size.left, size.top, bottom, size.left + size.width, size.left - 4,
      size.top + 8, y.high, size.left - 4, bottom, y.low, size.left + size.width, bottom + 14, x.high,
      size.top + size.height / 2);
  std::string line;
  for (const CoveragePoint& point : points) {
    absl::StrAppendFormat(&line, "%.1f,%.1f ", x_of(point.seconds), y_of(point.coverage));
  }
  absl::StrAppendFormat(&svg, "<polyline points=\"%s\" fill=\"none\" stroke=\"#1e88e5\" stroke-width=\"2\"/>", line);
  for (const CoveragePoint& point : points) {
    absl::StrAppendFormat(&svg,
                          "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1e88e5\"><title>after %d s: %d runs, "
                          "coverage %d, corpus %d</title></circle>",
                          x_of(point.seconds), y_of(point.coverage), point.seconds, point.runs, point.coverage,
                          point.corpus);
  }
  return svg + "</g></svg>";
}

}  // namespace matload
