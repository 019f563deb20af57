#include "harness/report/runs_index.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// Night is a finished conform run on GPU `gpu` on day `day`.
RunRecord Night(const std::string& id, int day, const std::string& gpu = "NVIDIA H100",
                const std::string& status = "findings") {
  return RunRecord{.id = id,
                   .command = "conform",
                   .toolkits = "ptxas 13.0",
                   .driver = "580",
                   .gpu_name = gpu,
                   .started = absl::FromUnixSeconds(1'790'000'000 + day * 86'400),
                   .status = status};
}

CaseRecord Finding(const std::string& id) { return {.id = id, .outcome = CaseOutcome::kMismatch, .finding = true}; }
CaseRecord Pass(const std::string& id) { return {.id = id, .outcome = CaseOutcome::kPass}; }

std::vector<std::string> Ids(const RunSeries& series) {
  std::vector<std::string> ids;
  for (const IndexedRun* run : series.runs) ids.push_back(run->run.id);
  return ids;
}

TEST(RunsIndexTest, ANewDriverStartsANewSeriesAndTheNewestSeriesComesFirst) {
  RunsIndex index;
  index.Add(Night("mon", 0), {Pass("a")});
  index.Add(Night("tue", 1), {Pass("a")});
  RunRecord wednesday = Night("wed", 2);
  wednesday.driver = "590";
  index.Add(wednesday, {Pass("a")});
  index.Add(Night("thu", 3, "NVIDIA H200"), {Pass("a")});
  const std::vector<RunSeries> series = index.Series();
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series[0].gpu, "NVIDIA H200");
  EXPECT_EQ(series[1].driver, "590");
  EXPECT_THAT(Ids(series[2]), ElementsAre("mon", "tue"));
}

TEST(RunsIndexTest, FailingSinceCountsTheUnbrokenStreakOfFinishedRuns) {
  RunsIndex index;
  index.Add(Night("d0", 0), {Finding("old"), Finding("fixed")});
  index.Add(Night("d1", 1), {Pass("old"), Finding("fixed"), Finding("long")});
  index.Add(Night("d2", 2), {Finding("old"), Pass("fixed"), Finding("long")});
  index.Add(Night("d3", 3, "NVIDIA H100", "killed"), {});  // stopped before any case: breaks no streak
  index.Add(Night("d4", 4), {Finding("old"), Finding("long"), Finding("new")});
  index.Add(Night("d5", 5, "NVIDIA H100", "infrastructure"), {Pass("long")});  // not finished: not "newest"
  const std::vector<RunSeries> series = index.Series();
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].failing.size(), 3u);
  EXPECT_EQ(series[0].failing[0].id, "long");
  EXPECT_EQ(series[0].failing[0].since->run.id, "d1");
  EXPECT_EQ(series[0].failing[0].runs, 3);
  EXPECT_EQ(series[0].failing[1].id, "new");
  EXPECT_EQ(series[0].failing[1].since->run.id, "d4");
  EXPECT_EQ(series[0].failing[1].runs, 1);
  EXPECT_EQ(series[0].failing[2].id, "old");
  EXPECT_EQ(series[0].failing[2].since->run.id, "d2");
  EXPECT_EQ(series[0].failing[2].runs, 2);
}

TEST(RunsIndexTest, TheChartHasABarPerRunStackedByClassAndOutlinesUnfinishedRuns) {
  RunsIndex index;
  index.Add(Night("d0", 0), {Pass("a"), Pass("b"), Pass("c"), Finding("d")});
  index.Add(Night("d1", 1, "NVIDIA H100", "interrupted"), {Pass("a")});
  const std::string svg = TrendChartSvg(index.Series().front());
  EXPECT_THAT(svg, HasSubstr("<rect class=\"o-agree\" x=\"2\" y=\"29.00\" width=\"14\" height=\"75.00\"/>"));
  EXPECT_THAT(svg, HasSubstr("<rect class=\"o-finding\" x=\"2\" y=\"4.00\" width=\"14\" height=\"25.00\"/>"));
  EXPECT_THAT(svg, HasSubstr("<title>d0, 2026-09-21 14:13Z: findings; 4 cases: 1 finding, 3 agree</title>"));
  EXPECT_THAT(svg, HasSubstr("<rect class=\"unfinished\" x=\"20\""));
  EXPECT_EQ(svg.find("class=\"unfinished\""), svg.rfind("class=\"unfinished\""));
}

// The runs table's findings are the store's (record.finding), as `matload
// runs` lists them: a flake that needs a person is one, and a flake too.
TEST(RunsIndexTest, TheFindingsColumnCountsTheStoresFindingsFlakesAmongThem) {
  RunsIndex index;
  index.Add(Night("d0", 0), {Finding("a"), {.id = "b", .outcome = CaseOutcome::kFlake, .finding = true}, Pass("c")});
  const absl::StatusOr<std::string> html = RunsIndexHtml(index.Series(), "/stores/nightly.sqlite");
  ASSERT_TRUE(html.ok()) << html.status();
  // cases, agree, known, findings, flakes, not run
  EXPECT_THAT(*html, HasSubstr("<td class=\"n\">3</td><td class=\"n\">1</td><td class=\"n\">0</td>"
                               "<td class=\"n\">2</td><td class=\"n\">1</td><td class=\"n\">0</td>"));
  EXPECT_THAT(*html, HasSubstr("Failing in the newest finished run: 2"));
  EXPECT_THAT(*html, Not(HasSubstr("more; <code>matload export</code>")));  // all are listed
}

// Each run's row says how many SMs the GPU judge heard from and names,
// in bold, those that called blocks wrong; a run judged on the host says
// nothing there.
TEST(RunsIndexTest, EachRunNamesTheSmsThatCalledBlocksWrong) {
  RunsIndex index;
  SmVerdicts clean, wrong;
  for (std::uint32_t sm = 0; sm < 132; ++sm) {
    clean[{0, sm}] = {.blocks = 1000};
    wrong[{0, sm}] = {.blocks = 1000};
    wrong[{1, sm}] = {.blocks = 1000};
  }
  wrong[{1, 17}].disagreed = 3;
  index.Add(Night("host", 0), {Pass("a")});
  index.Add(Night("clean", 1), {Pass("a")}, clean);
  index.Add(Night("wrong", 2), {Pass("a")}, wrong);
  const absl::StatusOr<std::string> html = RunsIndexHtml(index.Series(), "/stores/nightly.sqlite");
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_THAT(*html, HasSubstr("<td class=\"sms\">132, none wrong</td>"));
  EXPECT_THAT(*html, HasSubstr("<td class=\"sms\"><strong>264; wrong: GPU 1 SM 17 (3 blocks)</strong></td>"));
  EXPECT_THAT(*html, HasSubstr("<td class=\"sms\"></td>"));
}

// Two series of one command with as many runs each (two GPUs, a night
// each) have anchors of their own, and the contents link each.
TEST(RunsIndexTest, EverySeriesHasAnAnchorOfItsOwn) {
  RunsIndex index;
  index.Add(Night("h100", 0), {Pass("a")});
  index.Add(Night("h200", 1, "NVIDIA H200"), {Pass("a")});
  const absl::StatusOr<std::string> html = RunsIndexHtml(index.Series(), "/stores/nightly.sqlite");
  ASSERT_TRUE(html.ok()) << html.status();
  std::vector<std::string> anchors;
  for (size_t at = html->find("<h2 id=\"series-"); at != std::string::npos;
       at = html->find("<h2 id=\"series-", at + 1)) {
    const size_t start = at + 8;
    anchors.push_back(html->substr(start, html->find('"', start) - start));
  }
  ASSERT_EQ(anchors.size(), 2u);
  EXPECT_NE(anchors[0], anchors[1]);
  for (const std::string& anchor : anchors) EXPECT_THAT(*html, HasSubstr(absl::StrCat("<a href=\"#", anchor, "\">")));
}

// The chart's bar titles are written by hand, not by the template: a run ID
// and status from the store are escaped there too.
TEST(RunsIndexTest, TheChartEscapesTheRunIdAndStatusInItsTitles) {
  const std::string hostile = "x</title><script>alert(1)</script>";
  RunsIndex index;
  index.Add(Night(hostile, 0, "NVIDIA H100", hostile), {Pass("a")});
  const std::string svg = TrendChartSvg(index.Series().front());
  EXPECT_THAT(svg, Not(HasSubstr("<script>")));
  EXPECT_THAT(svg, HasSubstr("<title>x&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;, 2026-09-21 14:13Z: "
                             "x&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;; 1 cases: 1 agree</title>"));
  const absl::StatusOr<std::string> html = RunsIndexHtml(index.Series(), "/stores/nightly.sqlite");
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_THAT(*html, Not(HasSubstr("<script>alert(1)")));
}

TEST(RunsIndexTest, ThePageEscapesWhatTheStoreHoldsAndIsMarkedAsTheStoresIndex) {
  const std::string hostile = "<script>pwn()</script>";
  RunsIndex index;
  index.Add(Night("d0", 0, hostile), {Finding(hostile)});
  const absl::StatusOr<std::string> html = RunsIndexHtml(index.Series(), "/stores/nightly.sqlite");
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_THAT(*html, Not(HasSubstr(hostile)));
  EXPECT_THAT(*html, HasSubstr("&lt;script&gt;pwn()&lt;/script&gt;"));
  EXPECT_THAT(*html, HasSubstr("content=\"runs-index of store _stores_nightly.sqlite\""));
  EXPECT_THAT(*html, HasSubstr("Failing in the newest finished run: 1"));
  EXPECT_THAT(*html, HasSubstr("<strong>new</strong>"));
  const absl::StatusOr<std::string> empty = RunsIndexHtml({}, "/stores/nightly.sqlite");
  ASSERT_TRUE(empty.ok());
  EXPECT_THAT(*empty, HasSubstr("The store holds no run."));
}

}  // namespace
}  // namespace matload
