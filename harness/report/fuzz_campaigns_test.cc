#include "harness/report/fuzz_campaigns.h"

#include <filesystem>
#include <fstream>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// kTsv is coverage.tsv as fuzz_command.cc writes it, with a half row at
// its end (a campaign killed mid-line) and a row whose number is not one.
constexpr char kTsv[] =
    "# seconds\ttarget\truns\tcov\tft\tcorpus\tfindings\tsignatures\n"
    "0\ttext\t0\t0\t0\t0\t0\t0\n"
    "0\tcli\t12\t30\t40\t5\t0\t0\n"
    "10\ttext\t5000\t800\t900\t60\t0\t0\n"
    "10\tcli\t9000\t85\t99\t18\t1\t1\n"
    "20\ttext\tmany\t810\t901\t61\t0\t0\n"
    "20\ttext\t9100\t8";

TEST(FuzzCampaignsTest, ReadsEveryWholeRowByTarget) {
  const auto rows = ReadCoverageTsv(kTsv);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_THAT(rows.at("text"), ElementsAre(CoveragePoint{0, 0, 0, 0}, CoveragePoint{10, 5000, 800, 60}));
  EXPECT_THAT(rows.at("cli"), ElementsAre(CoveragePoint{0, 12, 30, 5}, CoveragePoint{10, 9000, 85, 18}));
}

TEST(FuzzCampaignsTest, CampaignsComeFromTheStoreAndTheirCurvesFromTheRunDirectory) {
  const std::filesystem::path directory = std::filesystem::path(testing::TempDir()) / "fuzz-campaigns";
  std::filesystem::create_directories(directory);
  std::ofstream(directory / "coverage.tsv") << kTsv;
  const std::vector<CaseRecord> cases = {
      {.id = "fuzz.cli",
       .outcome = CaseOutcome::kFinding,
       .finding = true,
       .campaign = CampaignFigures{.runs = 9000, .findings = 1, .crashes = 0, .coverage = 85, .corpus = 18},
       .seconds = 12},
      {.id = "fuzz.cli.finding.legality_1234", .outcome = CaseOutcome::kFinding, .finding = true},
      {.id = "fuzz.text",
       .outcome = CaseOutcome::kPass,
       .campaign = CampaignFigures{.runs = 5000, .coverage = 800, .corpus = 60},
       .seconds = 10}};
  const std::vector<FuzzCampaign> campaigns = FuzzCampaigns(cases, directory);
  ASSERT_EQ(campaigns.size(), 2u);
  EXPECT_EQ(campaigns[0].target, "cli");
  EXPECT_EQ(campaigns[0].runs, 9000);
  EXPECT_EQ(campaigns[0].findings, 1);
  EXPECT_EQ(campaigns[0].seconds, 12);
  EXPECT_EQ(campaigns[0].over_time.size(), 2u);
  EXPECT_EQ(campaigns[1].target, "text");
  EXPECT_EQ(campaigns[1].corpus, 60);
  // Elsewhere, without coverage.tsv, the figures stay and the curve goes.
  const std::vector<FuzzCampaign> moved = FuzzCampaigns(cases, directory / "not-here");
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved[1].runs, 5000);
  EXPECT_TRUE(moved[1].over_time.empty());
  EXPECT_THAT(CoverageChartSvg(moved[1]), HasSubstr("No coverage over time"));
}

// kCliCampaign is the store's record of the cli campaign whose rows kTsv holds.
const CaseRecord kCliCampaign = {.id = "fuzz.cli",
                                 .outcome = CaseOutcome::kPass,
                                 .campaign = CampaignFigures{.runs = 9000, .coverage = 85, .corpus = 18},
                                 .seconds = 12};

// A coverage.tsv that is no file (a directory, a FIFO) leaves the curves out
// and the page says why, its path escaped; it threw, or hung the export.
TEST(FuzzCampaignsTest, ACoverageTsvThatCannotBeReadIsSaidOnThePage) {
  const std::filesystem::path directory = std::filesystem::path(testing::TempDir()) / "fuzz-<b>campaigns";
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory / "coverage.tsv");
  const std::vector<FuzzCampaign> campaigns = FuzzCampaigns({kCliCampaign}, directory);
  ASSERT_EQ(campaigns.size(), 1u);
  EXPECT_EQ(campaigns[0].runs, 9000);
  EXPECT_TRUE(campaigns[0].over_time.empty());
  const std::string chart = CoverageChartSvg(campaigns[0]);
  EXPECT_THAT(chart, HasSubstr("No coverage over time: the run directory&apos;s coverage.tsv cannot be read: "));
  EXPECT_THAT(chart, HasSubstr("fuzz-&lt;b&gt;campaigns/coverage.tsv is a directory, not a regular file.</p>"));
}

// Rows whose last one is not what the store keeps of the campaign are
// another run's (a run directory a later run reused): they are not drawn.
TEST(FuzzCampaignsTest, AnotherRunsCoverageTsvIsNotDrawn) {
  const std::filesystem::path directory = std::filesystem::path(testing::TempDir()) / "fuzz-campaigns-reused";
  std::filesystem::create_directories(directory);
  std::ofstream(directory / "coverage.tsv") << kTsv;
  CaseRecord earlier = kCliCampaign;
  earlier.campaign->runs = 4000;
  const std::vector<FuzzCampaign> campaigns = FuzzCampaigns({earlier}, directory);
  ASSERT_EQ(campaigns.size(), 1u);
  EXPECT_TRUE(campaigns[0].over_time.empty());
  EXPECT_THAT(CoverageChartSvg(campaigns[0]),
              HasSubstr("coverage.tsv is another run&apos;s: its last row for this target (9000 runs, coverage 85, "
                        "corpus 18) is not what the store keeps of this campaign (4000, 85, 18)"));
  EXPECT_EQ(FuzzCampaigns({kCliCampaign}, directory)[0].over_time.size(), 2u);  // the store's own run: drawn
}

TEST(FuzzCampaignsTest, TheChartHasAPointPerRowWithExecutionsOnRoundAxes) {
  const FuzzCampaign campaign{
      .target = "text", .over_time = {{0, 0, 0, 0}, {10, 5000, 800, 60}, {20, 6000, 812, 62}, {53, 7000, 830, 64}}};
  const std::string svg = CoverageChartSvg(campaign);
  EXPECT_THAT(svg, HasSubstr("<polyline"));
  size_t points = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1)) ++points;
  EXPECT_EQ(points, 3u);  // the row before the first execution is no measurement
  EXPECT_THAT(svg, HasSubstr("<title>after 53 s: 7000 runs, coverage 830, corpus 64</title>"));
  EXPECT_THAT(svg, HasSubstr(">800</text>"));   // coverage from a round number at or below 800
  EXPECT_THAT(svg, HasSubstr(">830</text>"));   // to one at or above 830, in steps of 10
  EXPECT_THAT(svg, HasSubstr(">60 s</text>"));  // and time from 0 to a round number above 53 s
  EXPECT_EQ(svg.rfind("</svg>"), svg.size() - 6);
  EXPECT_THAT(CoverageChartSvg({.target = "cli", .over_time = {{0, 0, 0, 0}}}), HasSubstr("No coverage over time"));
}

// Figures at the ends of int64 (a crafted coverage.tsv) make a chart of
// round ends, where their differences overflowed.
TEST(FuzzCampaignsTest, TheChartTakesEveryInt64) {
  constexpr std::int64_t kLeast = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMost = std::numeric_limits<std::int64_t>::max();
  const std::string svg = CoverageChartSvg({.target = "text", .over_time = {{10, 1, kLeast, 0}, {kMost, 2, kMost, 0}}});
  EXPECT_THAT(svg, HasSubstr(">10000000000000000000</text>"));
  EXPECT_THAT(svg, HasSubstr(">-10000000000000000000</text>"));
  EXPECT_THAT(svg, HasSubstr(">10000000000000000000 s</text>"));
  EXPECT_THAT(svg, Not(HasSubstr("nan")));
  EXPECT_THAT(svg, Not(HasSubstr("inf")));
}

}  // namespace
}  // namespace matload
