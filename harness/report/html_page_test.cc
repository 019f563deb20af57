#include "harness/report/html_page.h"

#include <string>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/embedded_templates.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(HtmlPageTest, EveryTemplateIsEmbedded) {
  for (const char* name : {"report.css", "report.js", "page_head.mustache", "filter_bar.mustache", "legend_box.mustache",
                           "matrix_legend_box.mustache", "run_report.mustache", "diff_report.mustache",
                           "support_matrix.mustache"}) {
    EXPECT_TRUE(EmbeddedTemplate(name).ok()) << name;
  }
  EXPECT_EQ(EmbeddedTemplate("no-such.mustache").status().code(), absl::StatusCode::kNotFound);
}

TEST(HtmlPageTest, InlinesItsStyleAndScriptAndLoadsNothing) {
  kainjow::mustache::data view;
  view.set("kind", "conform");
  absl::StatusOr<std::string> html = RenderPage("run_report.mustache", view);
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_THAT(*html, HasSubstr(".o-finding {"));
  EXPECT_THAT(*html, HasSubstr("applyFilters"));
  // Self-contained: no external script, style sheet or font, and the page forbids loading any.
  EXPECT_FALSE(absl::StrContains(*html, "<script src"));
  EXPECT_FALSE(absl::StrContains(*html, "<link"));
  EXPECT_FALSE(absl::StrContains(*html, "http://"));
  EXPECT_FALSE(absl::StrContains(*html, "https://"));
  EXPECT_THAT(*html, HasSubstr("default-src 'none'"));
}

TEST(HtmlPageTest, EscapesValues) {
  kainjow::mustache::data view;
  view.set("kind", "<script>alert(\"&'\")</script>");
  absl::StatusOr<std::string> html = RenderPage("run_report.mustache", view);
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_FALSE(absl::StrContains(*html, "<script>alert"));
  EXPECT_THAT(*html, HasSubstr("&lt;script&gt;alert(&quot;&amp;&apos;&quot;)&lt;/script&gt;"));
}

TEST(HtmlPageTest, AnUnknownTemplateIsNotFound) {
  EXPECT_EQ(RenderPage("no-such.mustache", {}).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace matload
