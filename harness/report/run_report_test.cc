#include "harness/report/run_report.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/page_rows.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// kHostile is what a PTX text, a toolchain message or a path could hold:
// markup, both quotes and an ampersand.
constexpr char kHostile[] = "<script>pwn(\"x\")</script> & 'q' <img src=x onerror=pwn()>";
constexpr char kEscaped[] =
    "&lt;script&gt;pwn(&quot;x&quot;)&lt;/script&gt; &amp; &apos;q&apos; &lt;img src=x onerror=pwn()&gt;";

RunRecord HostileRun() {
  const std::string h = kHostile;
  return RunRecord{.id = "conform-1" + h,
                   .command = "conform" + h,
                   .command_line = "matload conform " + h,
                   .matload_version = h,
                   .git_commit = h,
                   .toolkits = "ptxas " + h,
                   .driver = h,
                   .gpu_name = h,
                   .gpu_uuid = h,
                   .host = h,
                   .directory = "/runs/" + h,
                   .options = h,
                   .parent = h,
                   .shard = h,
                   .status = "findings" + h};
}

// Page renders `cases` of a run placed in a directory that does not exist.
std::string Page(const RunRecord& run, const std::vector<CaseRecord>& cases) {
  absl::StatusOr<std::string> html =
      RunReportHtml(run, cases, {.page_directory = "/nowhere", .run_directory = "/nowhere"});
  EXPECT_TRUE(html.ok()) << html.status();
  return html.ok() ? *html : "";
}

// CaseRows reads the rows of the page's case table, from its data block.
std::vector<nlohmann::json> CaseRows(const std::string& html) {
  absl::StatusOr<std::vector<nlohmann::json>> rows = PageRows(html, "case-rows");
  EXPECT_TRUE(rows.ok()) << rows.status();
  return rows.ok() ? *rows : std::vector<nlohmann::json>{};
}

// CaseIds are the IDs of the page's case table's rows, in order: each
// row carries its ID as the part up to its target and the rest.
std::vector<std::string> CaseIds(const std::string& html) {
  std::vector<std::string> ids;
  for (const nlohmann::json& row : CaseRows(html)) {
    ids.push_back(row["id_head"].get<std::string>() + row["id_tail"].get<std::string>());
  }
  return ids;
}

TEST(RunReportTest, EscapesEveryField) {
  const std::string h = kHostile;
  const std::string html = Page(HostileRun(), {{.id = "sm_90.ldmatrix.x" + h,
                                                .outcome = CaseOutcome::kMismatch,
                                                .finding = true,
                                                .counts = {{CaseOutcome::kPass, 3}},
                                                .detail = "ptxas: " + h,
                                                .bundle = "bundles/" + h}});
  EXPECT_FALSE(absl::StrContains(html, "<script>pwn"));
  EXPECT_FALSE(absl::StrContains(html, "<img"));
  EXPECT_FALSE(absl::StrContains(html, "pwn(\"x\")"));
  EXPECT_FALSE(absl::StrContains(html, "'q'"));
  // The run's fields show, escaped.
  for (const std::string& shown : {absl::StrCat("matload conform ", kEscaped), absl::StrCat("ptxas ", kEscaped)}) {
    EXPECT_THAT(html, HasSubstr(shown));
  }
  // The case's fields (id, outcome, counts, detail, bundle), which the page's script writes as text, read back as they
  // were. Counts are matload's own words (case_counts.h), so only the text fields carry the hostile string.
  const std::vector<nlohmann::json> rows = CaseRows(html);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_THAT(CaseIds(html), ::testing::ElementsAre("sm_90.ldmatrix.x" + h));
  EXPECT_EQ(rows[0]["outcome"], "mismatch");
  EXPECT_EQ(rows[0]["counts"], "pass=3");
  EXPECT_EQ(rows[0]["detail"], "ptxas: " + h);
  EXPECT_EQ(rows[0]["links"], nlohmann::json({"bundles/" + h, "bundle"}));
}

// The page names no home directory: paths under it start "~/", and the run
// directory is given relative to the page.
TEST(RunReportTest, ShowsPathsWithoutTheHomeDirectory) {
  ASSERT_EQ(setenv("HOME", "/home/alice", 1), 0);
  const RunRecord run{.id = "support-1",
                      .command = "support",
                      .command_line = "matload support --ptxas /home/alice/.cache/matload/p --out /home/alice/runs/r",
                      .toolkits = "ptxas 12.9.86 (/home/alice/.cache/matload/p)",
                      .directory = "/home/alice/runs/r"};
  absl::StatusOr<std::string> in_run =
      RunReportHtml(run, {}, {.page_directory = "/home/alice/runs/r", .run_directory = "/home/alice/runs/r"});
  ASSERT_TRUE(in_run.ok()) << in_run.status();
  EXPECT_FALSE(absl::StrContains(*in_run, "/home/alice"));
  EXPECT_THAT(*in_run, HasSubstr("<code>matload support --ptxas ~/.cache/matload/p --out ~/runs/r</code>"));
  EXPECT_THAT(*in_run, HasSubstr("ptxas 12.9.86 (~/.cache/matload/p)"));
  EXPECT_THAT(*in_run, HasSubstr("<dt>Run directory</dt><dd><code>. (this page&apos;s directory)</code></dd>"));
  absl::StatusOr<std::string> beside =
      RunReportHtml(run, {}, {.page_directory = "/home/alice/pages", .run_directory = "/home/alice/runs/r"});
  ASSERT_TRUE(beside.ok()) << beside.status();
  EXPECT_FALSE(absl::StrContains(*beside, "/home/alice"));
  EXPECT_THAT(*beside, HasSubstr("<dt>Run directory</dt><dd><code>../runs/r</code></dd>"));
}

// Counted reads the summary's count of `outcome`.
int Counted(const std::string& html, const std::string& outcome) {
  std::smatch match;
  const std::regex row("<tr data-outcome=\"" + outcome +
                       "\"><td class=\"[^\"]*\">[^<]*</td><td class=\"n\" data-count=\"([0-9]+)\"");
  return std::regex_search(html, match, row) ? std::stoi(match[1]) : -1;
}

TEST(RunReportTest, CountsByOutcomeAndListsOnlyWhatDidNotPass) {
  const RunRecord run{.id = "support-1", .command = "support"};
  const std::vector<CaseRecord> cases = {
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64", .outcome = CaseOutcome::kPass},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x2.shared.b16.addr64", .outcome = CaseOutcome::kPass},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.raw_0badf00d",
       .outcome = CaseOutcome::kIllegalAccepted,
       .detail = "known discrepancy ldmatrix-x"},
      {.id = "sm_75.wmma_load.a.sync.aligned.row.m16n16k16.shared.f16.addr32",
       .outcome = CaseOutcome::kLegalRejected,
       .finding = true},
  };
  const std::string html = Page(run, cases);
  EXPECT_EQ(Counted(html, "pass"), 2);
  EXPECT_EQ(Counted(html, "illegal_accepted"), 1);
  EXPECT_EQ(Counted(html, "legal_rejected"), 1);
  EXPECT_THAT(html, HasSubstr("<span id=\"total-cases\">4</span>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"total-disagreements\">2</span>"));
  // Listed: the two disagreements, not the passes.
  EXPECT_THAT(CaseIds(html), ::testing::ElementsAre("sm_75.wmma_load.a.sync.aligned.row.m16n16k16.shared.f16.addr32",
                                                    "sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.raw_0badf00d"));
  // Each facet is a filter with its values.
  EXPECT_THAT(html, HasSubstr("<label>family <select data-filter=\"family\"><option value=\"\">all</option>"
                              "<option value=\"ldmatrix\">ldmatrix</option><option value=\"wmma_load\">"));
  EXPECT_THAT(html, HasSubstr("<select data-filter=\"target\"><option value=\"\">all</option><option "
                              "value=\"sm_75\">sm_75</option><option value=\"sm_90\">sm_90</option></select>"));
  // Per-target totals head the by-target table's columns.
  EXPECT_THAT(html, HasSubstr("data-column=\"sm_75\">sm_75<br><span class=\"total\">1</span>"));
  EXPECT_THAT(html, HasSubstr("data-column=\"sm_90\">sm_90<br><span class=\"total\">3</span>"));
}

TEST(RunReportTest, ListsCasesInNaturalOrder) {
  const RunRecord run{.id = "conform-1", .command = "conform"};
  std::vector<CaseRecord> cases;
  for (const char* num : {"x128", "x2", "x16"}) {
    cases.push_back({.id = absl::StrCat("tcgen05_ld.sync.aligned.16x64b.", num, ".b32.taddr.driver_jit"),
                     .outcome = CaseOutcome::kMismatch,
                     .finding = true});
  }
  EXPECT_THAT(CaseIds(Page(run, cases)),
              ::testing::ElementsAre("tcgen05_ld.sync.aligned.16x64b.x2.b32.taddr.driver_jit",
                                     "tcgen05_ld.sync.aligned.16x64b.x16.b32.taddr.driver_jit",
                                     "tcgen05_ld.sync.aligned.16x64b.x128.b32.taddr.driver_jit"));
}

TEST(RunReportTest, LinksTheBundleFilesThatExist) {
  const std::filesystem::path run_directory = std::filesystem::path(::testing::TempDir()) / "run_report_links";
  std::filesystem::remove_all(run_directory);
  std::filesystem::create_directories(run_directory / "bundles" / "b1");
  for (const char* name : {"kernel.ptx", "repro.cpp"}) std::ofstream(run_directory / "bundles" / "b1" / name) << "x";
  const RunRecord run{.id = "conform-1", .command = "conform", .directory = run_directory.string()};
  absl::StatusOr<std::string> html = RunReportHtml(run,
                                                   {{.id = "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64.driver_jit",
                                                     .outcome = CaseOutcome::kMismatch,
                                                     .finding = true,
                                                     .bundle = "bundles/b1"}},
                                                   {.page_directory = run_directory, .run_directory = run_directory});
  ASSERT_TRUE(html.ok()) << html.status();
  const std::vector<nlohmann::json> rows = CaseRows(*html);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["links"], nlohmann::json({"bundles/b1", "bundle", "bundles/b1/kernel.ptx", "kernel.ptx",
                                              "bundles/b1/repro.cpp", "repro.cpp"}));
}

// The failing cases' bundles head the page as root causes, each with its
// signature, its case count and a link to its bundle (root_causes.h).
TEST(RunReportTest, RootCausesComeBeforeTheCases) {
  const std::filesystem::path run_directory = std::filesystem::path(::testing::TempDir()) / "run_report_causes";
  std::filesystem::remove_all(run_directory);
  std::filesystem::create_directories(run_directory / "bundles" / "b1");
  std::ofstream(run_directory / "bundles" / "b1" / "case.json") << R"({"signature": "ldmatrix/fault/misaligned"})";
  const RunRecord run{.id = "conform-1", .command = "conform", .directory = run_directory.string()};
  std::vector<CaseRecord> cases;
  for (const char* path : {"driver_jit", "ptxas_cubin"}) {
    cases.push_back({.id = absl::StrCat("ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64.", path),
                     .outcome = CaseOutcome::kUnexpectedFault,
                     .finding = true,
                     .detail = "unexpected fault/misaligned address (716)",
                     .bundle = "bundles/b1"});
  }
  absl::StatusOr<std::string> html =
      RunReportHtml(run, cases, {.page_directory = run_directory, .run_directory = run_directory});
  ASSERT_TRUE(html.ok()) << html.status();
  const size_t causes = html->find("<h2 id=\"root-causes\">");
  ASSERT_NE(causes, std::string::npos);
  EXPECT_LT(causes, html->find("<h2 id=\"cases\">"));
  EXPECT_THAT(*html, HasSubstr("<h3><code>ldmatrix/fault/misaligned</code>: 2 cases</h3>"));
  EXPECT_THAT(*html, HasSubstr("<p>unexpected fault/misaligned address (716)</p>"));
  EXPECT_THAT(*html, HasSubstr("<a href=\"bundles/b1\">bundle</a>"));
}

// A fuzz run's page shows each campaign's figures from the store, its rate
// worked out, with the target's name escaped like every other field.
TEST(RunReportTest, AFuzzRunShowsItsCampaigns) {
  const std::vector<CaseRecord> cases = {{.id = "fuzz.text",
                                          .outcome = CaseOutcome::kPass,
                                          .campaign = CampaignFigures{.runs = 50000, .coverage = 812, .corpus = 61},
                                          .seconds = 10},
                                         {.id = absl::StrCat("fuzz.", kHostile),
                                          .outcome = CaseOutcome::kPass,
                                          .campaign = CampaignFigures{.runs = 7},
                                          .seconds = 0}};
  const std::string html = Page(RunRecord{.id = "fuzz-1", .command = "fuzz", .status = "clean"}, cases);
  EXPECT_THAT(html, HasSubstr("<a href=\"#campaigns\">Fuzz campaigns</a>"));
  EXPECT_THAT(html, HasSubstr("<tr data-campaign=\"text\"><td>text</td><td>pass</td><td class=\"n\">50,000</td>"
                              "<td class=\"n\">10</td><td class=\"n\">5,000</td><td class=\"n\">812</td>"
                              "<td class=\"n\">61</td>"));
  EXPECT_THAT(html, HasSubstr(kEscaped));
  EXPECT_THAT(html, Not(HasSubstr(kHostile)));
  EXPECT_THAT(html, HasSubstr("No coverage over time"));  // the run directory is not at hand
  const std::string conform =
      Page(RunRecord{.id = "conform-1", .command = "conform"}, {{.id = "a.b", .outcome = CaseOutcome::kPass}});
  EXPECT_THAT(conform, Not(HasSubstr("Fuzz campaigns")));
}

// A run the GPU judged says each GPU's SMs in a sentence and a strip, and
// the contents link to them; a run without verdicts has no such section.
TEST(RunReportTest, TheGpusJudgeIsShownSmBySm) {
  SmVerdicts verdicts;
  verdicts[{0, 3}] = {.blocks = 7, .disagreed = 1};
  verdicts[{1, 0}] = {.blocks = 9};
  const RunRecord run{.id = "conform-1", .command = "conform"};
  const std::vector<CaseRecord> cases = {{.id = "a.b", .outcome = CaseOutcome::kPass}};
  const absl::StatusOr<std::string> html =
      RunReportHtml(run, cases, {.page_directory = "/nowhere", .run_directory = "/nowhere"}, {.sm_verdicts = verdicts});
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_THAT(*html, HasSubstr("<a href=\"#gpu-judge\">The GPU's judge</a>"));
  EXPECT_THAT(*html, HasSubstr("<p data-gpu=\"0\">GPU 0: 1 SM gave verdicts, 7 to 7 blocks each; SMs that called "
                               "blocks wrong: SM 3 (1).</p>"));
  EXPECT_THAT(*html, HasSubstr("<p data-gpu=\"1\">GPU 1: 1 SM gave verdicts"));
  EXPECT_THAT(*html, HasSubstr("<svg class=\"sm-strip\""));
  EXPECT_THAT(Page(run, cases), Not(HasSubstr("gpu-judge")));
}

// A soak's page lists its rounds, each with the seed and variants conform
// replays it by (none for a round stored before rounds were sized apart);
// a run without rounds has no such section.
TEST(RunReportTest, ASoaksRoundsAreListedWithTheirSeeds) {
  const RunRecord run{.id = "soak-1", .command = "soak"};
  const std::vector<CaseRecord> cases = {{.id = "a.b", .outcome = CaseOutcome::kPass}};
  const RunExtras extras{.soak_rounds = {{.index = 0,
                                          .seed = 18185588071367600234u,
                                          .variants = 1000000,
                                          .seconds = 43.7,
                                          .executions = 493138720,
                                          .judged_on_device = 493017806,
                                          .findings = 0},
                                         {.index = 1, .seed = 7, .seconds = 2, .executions = 1000, .findings = 1}}};
  const absl::StatusOr<std::string> html =
      RunReportHtml(run, cases, {.page_directory = "/nowhere", .run_directory = "/nowhere"}, extras);
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_THAT(*html, HasSubstr("<a href=\"#rounds\">Rounds</a>"));
  EXPECT_THAT(*html, HasSubstr("<tr><td class=\"n\">0</td><td class=\"n\">18185588071367600234</td><td "
                               "class=\"n\">1,000,000</td><td class=\"n\">43.7</td><td class=\"n\">493,138,720</td><td "
                               "class=\"n\">11.3 M/s</td>"));
  EXPECT_THAT(*html, HasSubstr("<td class=\"n\">7</td><td class=\"n\"></td><td class=\"n\">2.0</td>"));
  EXPECT_THAT(*html, HasSubstr("<td class=\"n\">500/s</td><td class=\"n\">0</td><td class=\"n\">1</td></tr>"));
  EXPECT_THAT(Page(run, cases), Not(HasSubstr("id=\"rounds\"")));
}

// A campaign's seconds from a damaged store (1e300) are written as they
// are, and its rate too, where casting them to an integer was undefined.
TEST(RunReportTest, ACampaignsSecondsBeyondInt64AreWrittenAsTheyAre) {
  const std::string html = Page(
      RunRecord{.id = "fuzz-1", .command = "fuzz"},
      {{.id = "fuzz.text", .outcome = CaseOutcome::kPass, .campaign = CampaignFigures{.runs = 5}, .seconds = 1e300}});
  EXPECT_THAT(html, HasSubstr("<td class=\"n\">5</td><td class=\"n\">1e+300</td><td class=\"n\">0</td>"));
}

// FuzzPage renders a fuzz run of one campaign, "text", whose store figures
// end at 50,000 runs, coverage 812 and corpus 61, placed at `place`.
std::string FuzzPage(const ReportPlace& place) {
  const std::vector<CaseRecord> cases = {{.id = "fuzz.text",
                                          .outcome = CaseOutcome::kPass,
                                          .campaign = CampaignFigures{.runs = 50000, .coverage = 812, .corpus = 61},
                                          .seconds = 10}};
  absl::StatusOr<std::string> html = RunReportHtml(RunRecord{.id = "fuzz-1", .command = "fuzz"}, cases, place);
  EXPECT_TRUE(html.ok()) << html.status();
  return html.ok() ? *html : "";
}

// The chart is the run's own coverage.tsv, from its run directory, even
// where the page is written beside another run's.
TEST(RunReportTest, AFuzzRunsChartIsItsOwnRunDirectorysCoverage) {
  const std::filesystem::path root = std::filesystem::path(testing::TempDir()) / "run_report_test_coverage";
  std::filesystem::remove_all(root);
  for (const auto& [name, first_row] :
       {std::pair{"run", "3\ttext\t200\t790\t1\t58"}, std::pair{"pages", "5\ttext\t100\t700\t1\t40"}}) {
    std::filesystem::create_directories(root / name);
    std::ofstream(root / name / "coverage.tsv") << first_row << "\t0\t0\n10\ttext\t50000\t812\t1\t61\t0\t0\n";
  }
  const std::string html = FuzzPage({.page_directory = root / "pages", .run_directory = root / "run"});
  EXPECT_THAT(html, HasSubstr("<title>after 3 s: 200 runs, coverage 790, corpus 58</title>"));
  EXPECT_THAT(html, Not(HasSubstr("after 5 s")));
}

// A coverage.tsv that is a directory is said on the page (it threw out of
// `matload export --html`, exit 134).
TEST(RunReportTest, AFuzzRunsUnreadableCoverageIsSaidOnItsPage) {
  const std::filesystem::path run = std::filesystem::path(testing::TempDir()) / "run_report_test_unreadable";
  std::filesystem::remove_all(run);
  std::filesystem::create_directories(run / "coverage.tsv");
  EXPECT_THAT(FuzzPage({.page_directory = run, .run_directory = run}),
              HasSubstr("coverage.tsv is a directory, not a regular file.</p>"));
}

}  // namespace
}  // namespace matload
