#include "harness/report/report_view.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "harness/platform/without_home.h"
#include "harness/report/case_facets.h"

namespace matload {
namespace {

namespace fs = std::filesystem;
using kainjow::mustache::list;
using kainjow::mustache::object;

// TimeText writes a run's start or end, or "running" for the end of one that has not ended.
std::string TimeText(absl::Time time) {
  if (time == absl::InfinitePast()) return "not ended";
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", time, absl::UTCTimeZone());
}

// OrNone is `text`, or "none" where it is empty.
std::string OrNone(const std::string& text) { return text.empty() ? "none" : text; }

// kBundleFiles are the files of a bundle the table links when they exist:
// a conform bundle's (harness/conform/bundle_writer.h) and a fuzz finding's.
constexpr const char* kBundleFiles[] = {"case.json", "kernel.ptx", "repro.cpp", "diff.txt",
                                        "finding.md", "module.ptx", "repro.sh", "case.txt"};

// Href is the link from the page to `relative` under the run directory.
std::string Href(const ReportPlace& place, const fs::path& relative) {
  const fs::path target = place.run_directory / relative;
  const fs::path link = target.lexically_relative(place.page_directory);
  return (link.empty() ? target : link).generic_string();
}

}  // namespace

std::vector<Link> BundleLinks(const CaseRecord& record, const ReportPlace& place) {
  std::vector<Link> links;
  if (record.bundle.empty()) return links;
  links.push_back({Href(place, record.bundle), "bundle"});
  std::error_code error;
  const fs::path bundle = place.run_directory / record.bundle;
  if (fs::is_regular_file(bundle, error)) return links;
  for (const char* name : kBundleFiles) {
    if (fs::exists(bundle / name, error)) links.push_back({Href(place, fs::path(record.bundle) / name), name});
  }
  return links;
}

object RunView(const RunRecord& run) {
  return object{{"id", run.id},
                {"command_line", WithoutHome(run.command_line)},
                {"status", run.status},
                {"exit_status", std::to_string(run.exit_status)},
                {"started", TimeText(run.started)},
                {"ended", TimeText(run.ended)},
                {"host", OrNone(run.host)},
                {"gpu", run.gpu_name.empty() ? "none" : absl::StrCat(run.gpu_name, " (", run.gpu_uuid, ")")},
                {"driver", OrNone(run.driver)},
                {"toolkits", OrNone(WithoutHome(run.toolkits))},
                {"version", OrNone(run.matload_version)},
                {"commit", OrNone(run.git_commit)},
                {"shard", run.shard.empty() ? kainjow::mustache::data(false) : kainjow::mustache::data(run.shard)},
                {"parent", run.parent}};
}

list FilterView(const std::vector<std::string>& ids, const std::vector<std::string>& outcomes) {
  std::set<std::string> targets, families, shapes, types, paths;
  for (const std::string& id : ids) {
    const CaseFacets facets = FacetsOf(id);
    for (auto [values, value] : {std::pair{&targets, &facets.target}, std::pair{&families, &facets.family},
                                 std::pair{&shapes, &facets.shape}, std::pair{&types, &facets.type},
                                 std::pair{&paths, &facets.path}}) {
      if (!value->empty()) values->insert(*value);
    }
  }
  std::set<std::string> outcome_set(outcomes.begin(), outcomes.end());
  list filters;
  for (auto [name, values] : {std::pair{"family", &families}, std::pair{"shape", &shapes}, std::pair{"type", &types},
                              std::pair{"target", &targets}, std::pair{"path", &paths},
                              std::pair{"outcome", &outcome_set}}) {
    if (values->empty()) continue;
    std::vector<std::string> ordered(values->begin(), values->end());
    std::sort(ordered.begin(), ordered.end(), NaturalLess);
    list options;
    for (const std::string& value : ordered) options.push_back(object{{"value", value}});
    filters.push_back(object{{"name", name}, {"options", options}});
  }
  return filters;
}

list LegendView() {
  list legend;
  for (const LegendEntry& entry : Legend()) legend.push_back(object{{"css", entry.css}, {"meaning", entry.meaning}});
  return legend;
}

std::string Thousands(long long count) {
  // The magnitude is unsigned: -count overflows for the most negative count.
  const unsigned long long magnitude =
      count < 0 ? 0ULL - static_cast<unsigned long long>(count) : static_cast<unsigned long long>(count);
  std::string digits = std::to_string(magnitude);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
  return count < 0 ? "-" + digits : digits;
}

std::string WholeThousands(double value) {
  // 2^63, exact as a double: a value of smaller magnitude, rounded toward zero, is an int64.
  constexpr double kBeyond = 9223372036854775808.0;
  if (!(std::fabs(value) < kBeyond)) return absl::StrFormat("%g", value);
  return Thousands(static_cast<long long>(value));
}

std::string ExecutionRate(double executions, double seconds) {
  if (!(seconds > 0)) return "-";
  const double rate = executions / seconds;
  if (rate >= 1e6) return absl::StrFormat("%.1f M/s", rate / 1e6);
  if (rate >= 1e3) return absl::StrFormat("%.1f k/s", rate / 1e3);
  return absl::StrFormat("%.0f/s", rate);
}

}  // namespace matload
