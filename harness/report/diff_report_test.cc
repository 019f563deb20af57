#include "harness/report/diff_report.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

constexpr char kHostile[] = "<script>pwn(\"x\")</script> & 'q'";
constexpr char kEscaped[] = "&lt;script&gt;pwn(&quot;x&quot;)&lt;/script&gt; &amp; &apos;q&apos;";

std::string Page(const RunDiff& diff, const std::vector<CaseRecord>& b_cases, const RunRecord& a = {.id = "a"},
                 const RunRecord& b = {.id = "b"}) {
  absl::StatusOr<std::string> html = DiffReportHtml(a, b, diff, b_cases, {"/nowhere", "/nowhere"});
  EXPECT_TRUE(html.ok()) << html.status();
  return html.ok() ? *html : "";
}

TEST(DiffReportTest, EscapesEveryField) {
  const std::string h = kHostile;
  const RunDiff diff =
      Diff({{.id = "c" + h, .outcome = CaseOutcome::kPass}},
           {{.id = "c" + h, .outcome = CaseOutcome::kMismatch, .finding = true, .detail = h, .bundle = h}});
  const std::string html =
      Page(diff, {{.id = "c" + h, .outcome = CaseOutcome::kMismatch, .finding = true, .bundle = h}},
           {.id = "a" + h, .command_line = h, .toolkits = h}, {.id = "b" + h, .driver = h});
  EXPECT_FALSE(absl::StrContains(html, "<script>pwn"));
  EXPECT_FALSE(absl::StrContains(html, "pwn(\"x\")"));
  for (const std::string& shown :
       {absl::StrCat("c", kEscaped), absl::StrCat("a", kEscaped), absl::StrCat("b", kEscaped)}) {
    EXPECT_THAT(html, HasSubstr(shown));
  }
}

// The runs' settings head the page, and those in which B differs from A are
// marked: a diff across a toolkit says so before its lists.
TEST(DiffReportTest, MarksTheSettingsInWhichTheRunsDiffer) {
  const RunRecord a{.id = "a",
                    .registry_digest = "0123456789abcdef0123",
                    .toolkits = "ptxas 13.0.88",
                    .gpu_name = "H100",
                    .gpu_uuid = "GPU-1"};
  RunRecord b = a;
  b.id = "b";
  b.toolkits = "ptxas 13.5.37";
  const std::string html = Page(Diff({}, {}), {}, a, b);
  EXPECT_THAT(html, HasSubstr("<tr class=\"differs\"><td>toolkits (differs)</td><td><code>ptxas 13.0.88</code></td>"
                              "<td><code>ptxas 13.5.37</code></td></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>GPU</td>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>registry</td><td><code>0123456789abcdef</code></td>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>run</td>")) << "the run IDs always differ and are not marked";
}

TEST(DiffReportTest, ShowsNewFailuresFixedAndFlakyBeforeTheRest) {
  const std::vector<CaseRecord> a = {{.id = "broken", .outcome = CaseOutcome::kPass},
                                     {.id = "mended", .outcome = CaseOutcome::kMismatch, .finding = true},
                                     {.id = "gone", .outcome = CaseOutcome::kPass}};
  const std::vector<CaseRecord> b = {{.id = "broken", .outcome = CaseOutcome::kMismatch, .finding = true},
                                     {.id = "mended", .outcome = CaseOutcome::kPass},
                                     {.id = "fresh", .outcome = CaseOutcome::kPass}};
  const std::string html = Page(Diff(a, b), b);
  const size_t new_failures = html.find("<h2 id=\"new_failures\">");
  const size_t fixed = html.find("<h2 id=\"fixed\">");
  const size_t flaky = html.find("<h2 id=\"flaky\">");
  const size_t changed = html.find("<h2 id=\"changed\">");
  const size_t added = html.find("<h2 id=\"added\">");
  const size_t removed = html.find("<h2 id=\"removed\">");
  ASSERT_NE(removed, std::string::npos);
  EXPECT_LT(new_failures, fixed);
  EXPECT_LT(fixed, flaky);
  EXPECT_LT(flaky, changed);
  EXPECT_LT(changed, added);
  EXPECT_LT(added, removed);
  EXPECT_THAT(html, HasSubstr("<tr data-list=\"new_failures\"><td><a href=\"#new_failures\">New failures</a></td>"
                              "<td class=\"n\" data-count=\"1\">"));
  EXPECT_THAT(html, HasSubstr("<tr data-list=\"removed\"><td><a href=\"#removed\">Removed</a></td>"
                              "<td class=\"n\" data-count=\"1\">"));
  EXPECT_THAT(html, HasSubstr("B regressed against A"));
  // The new failure is a disagreement in B; the fixed case is not.
  EXPECT_THAT(html, HasSubstr("data-case=\"broken\" data-outcome=\"mismatch\" data-target=\"\" data-family=\"\" "
                              "data-shape=\"\" data-type=\"\" data-disagreement=\"1\""));
  EXPECT_THAT(html, HasSubstr("data-case=\"mended\" data-outcome=\"pass\" data-target=\"\" data-family=\"\" "
                              "data-shape=\"\" data-type=\"\" data-disagreement=\"0\""));
}

}  // namespace
}  // namespace matload
