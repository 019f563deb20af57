#include "harness/report/run_report.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// kHostile is what a PTX text, a toolchain message or a path could hold:
// markup, both quotes and an ampersand.
constexpr char kHostile[] = "<script>pwn(\"x\")</script> & 'q' <img src=x onerror=pwn()>";
constexpr char kEscaped[] =
    "&lt;script&gt;pwn(&quot;x&quot;)&lt;/script&gt; &amp; &apos;q&apos; &lt;img src=x onerror=pwn()&gt;";

RunRecord HostileRun() {
  const std::string h = kHostile;
  return RunRecord{.id = "conform-1" + h, .command = "conform" + h, .command_line = "matload conform " + h,
                   .matload_version = h, .git_commit = h, .toolkits = "ptxas " + h, .driver = h, .gpu_name = h,
                   .gpu_uuid = h, .host = h, .directory = "/runs/" + h, .options = h, .parent = h, .shard = h,
                   .status = "findings" + h};
}

// Page renders `cases` of a run placed in a directory that does not exist.
std::string Page(const RunRecord& run, const std::vector<CaseRecord>& cases) {
  absl::StatusOr<std::string> html = RunReportHtml(run, cases, {.page_directory = "/nowhere", .run_directory = "/nowhere"});
  EXPECT_TRUE(html.ok()) << html.status();
  return html.ok() ? *html : "";
}

TEST(RunReportTest, EscapesEveryField) {
  const std::string h = kHostile;
  const std::string html = Page(HostileRun(), {{.id = "sm_90.ldmatrix.x" + h, .outcome = "mismatch" + h,
                                                .finding = true, .counts = {{"pass" + h, 3}},
                                                .detail = "ptxas: " + h, .bundle = "bundles/" + h}});
  EXPECT_FALSE(absl::StrContains(html, "<script>pwn"));
  EXPECT_FALSE(absl::StrContains(html, "<img"));
  EXPECT_FALSE(absl::StrContains(html, "pwn(\"x\")"));
  EXPECT_FALSE(absl::StrContains(html, "'q'"));
  // Each field shows, escaped: id, outcome, counts, detail, bundle, and the run's fields.
  for (const std::string& shown : {absl::StrCat("sm_90.ldmatrix.x", kEscaped), absl::StrCat("mismatch", kEscaped),
                                    absl::StrCat("pass", kEscaped, "=3"), absl::StrCat("ptxas: ", kEscaped),
                                    absl::StrCat("bundles/", kEscaped), absl::StrCat("matload conform ", kEscaped),
                                    absl::StrCat("ptxas ", kEscaped), absl::StrCat("/runs/", kEscaped)}) {
    EXPECT_THAT(html, HasSubstr(shown));
  }
}

// Counted reads the summary's count of `outcome`.
int Counted(const std::string& html, const std::string& outcome) {
  std::smatch match;
  const std::regex row("<tr data-outcome=\"" + outcome + "\"><td class=\"[^\"]*\">[^<]*</td><td class=\"n\" data-count=\"([0-9]+)\"");
  return std::regex_search(html, match, row) ? std::stoi(match[1]) : -1;
}

TEST(RunReportTest, CountsByOutcomeAndListsOnlyWhatDidNotPass) {
  const RunRecord run{.id = "support-1", .command = "support"};
  const std::vector<CaseRecord> cases = {
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64", .outcome = "pass"},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x2.shared.b16.addr64", .outcome = "pass"},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.raw_0badf00d", .outcome = "illegal_accepted",
       .detail = "known discrepancy ldmatrix-x"},
      {.id = "sm_75.wmma_load.a.sync.aligned.row.m16n16k16.shared.f16.addr32", .outcome = "legal_rejected",
       .finding = true},
  };
  const std::string html = Page(run, cases);
  EXPECT_EQ(Counted(html, "pass"), 2);
  EXPECT_EQ(Counted(html, "illegal_accepted"), 1);
  EXPECT_EQ(Counted(html, "legal_rejected"), 1);
  EXPECT_THAT(html, HasSubstr("<span id=\"total-cases\">4</span>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"total-disagreements\">2</span>"));
  EXPECT_FALSE(absl::StrContains(html, "data-case=\"sm_90.ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64\""));
  EXPECT_THAT(html, HasSubstr("data-case=\"sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.raw_0badf00d\""));
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
                     .outcome = "mismatch", .finding = true});
  }
  const std::string html = Page(run, cases);
  const size_t x2 = html.find("data-case=\"tcgen05_ld.sync.aligned.16x64b.x2.");
  const size_t x16 = html.find("data-case=\"tcgen05_ld.sync.aligned.16x64b.x16.");
  const size_t x128 = html.find("data-case=\"tcgen05_ld.sync.aligned.16x64b.x128.");
  ASSERT_NE(x128, std::string::npos);
  EXPECT_LT(x2, x16);
  EXPECT_LT(x16, x128);
}

TEST(RunReportTest, LinksTheBundleFilesThatExist) {
  const std::filesystem::path run_directory = std::filesystem::path(::testing::TempDir()) / "run_report_links";
  std::filesystem::remove_all(run_directory);
  std::filesystem::create_directories(run_directory / "bundles" / "b1");
  for (const char* name : {"kernel.ptx", "repro.cpp"}) std::ofstream(run_directory / "bundles" / "b1" / name) << "x";
  const RunRecord run{.id = "conform-1", .command = "conform", .directory = run_directory.string()};
  absl::StatusOr<std::string> html =
      RunReportHtml(run, {{.id = "ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64.driver_jit", .outcome = "mismatch",
                           .finding = true, .bundle = "bundles/b1"}},
                    {.page_directory = run_directory, .run_directory = run_directory});
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_THAT(*html, HasSubstr("<a href=\"bundles/b1\">bundle</a>"));
  EXPECT_THAT(*html, HasSubstr("<a href=\"bundles/b1/kernel.ptx\">kernel.ptx</a>"));
  EXPECT_THAT(*html, HasSubstr("<a href=\"bundles/b1/repro.cpp\">repro.cpp</a>"));
  EXPECT_FALSE(absl::StrContains(*html, "diff.txt"));
}

}  // namespace
}  // namespace matload
