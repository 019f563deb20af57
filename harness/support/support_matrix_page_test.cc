#include "harness/support/support_matrix_page.h"

#include <string>
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

constexpr char kHostile[] = "<script>pwn(\"x\")</script> & 'q'";
constexpr char kEscaped[] = "&lt;script&gt;pwn(&quot;x&quot;)&lt;/script&gt; &amp; &apos;q&apos;";

// Row is a matrix row of `opcode` on sm_90, accepted by both.
SupportRow Row(const std::string& opcode) {
  return SupportRow{.family = "tcgen05.ld", .opcode = opcode, .instruction = opcode + " {r}, [t];",
                    .cells = {{"sm_90", SupportCell{.model_legal = true, .compiled = true, .compiler_accepted = true}}}};
}

SupportSweep Sweep() {
  SupportSweep sweep{.compiler = "ptxas 13.0.88", .targets = {"sm_90"}};
  for (const char* num : {"x128", "x2", "x16"}) sweep.rows.push_back(Row(absl::StrCat("tcgen05.ld.sync.aligned.16x64b.", num, ".b32")));
  sweep.summaries.push_back({.target = "sm_90", .explained = 2, .unexplained = 1});
  // An operand style of a row's qualifier set, and two near misses no row shows.
  sweep.disagreements = {
      {.target = "sm_90", .instruction = "tcgen05.ld.sync.aligned.16x64b.x2.b32 {r}, [t+4];", .model_legal = true,
       .compiler_messages = {"ptxas: error"}, .registry_id = "entry-a"},
      {.target = "sm_90", .instruction = "tcgen05.ld.sync.aligned.16x64b.x3.b32 {r}, [t];", .model_legal = false,
       .registry_id = "entry-b"},
      {.target = "sm_90", .instruction = "tcgen05.ld.sync.sync.aligned.16x64b.x2.b32 {r}, [t];", .model_legal = false}};
  return sweep;
}

// kRegistry explains entry-a by a rule the model infers (reference/inferred_rules.h), entry-b by one the
// PTX text states, and knows one misdiagnosis of ptxas 13.0.88, written as corpora/known_discrepancies.json is.
constexpr char kRegistry[] = R"({"discrepancies": [
  {"id": "entry-a", "pattern": "x2", "direction": "toolchain-rejects", "rule": "ldmatrix.infer.row-alignment-m8n16-m16n16",
   "toolchain_message": "m", "judgement": "j", "example": "e", "toolchains": ["ptxas 13.0.88"]},
  {"id": "entry-b", "pattern": "x3", "direction": "toolchain-accepts", "rule": "tcgen05.ld.syntax",
   "toolchain_message": "m", "judgement": "j", "example": "e", "toolchains": ["ptxas 13.0.88"]},
  {"id": "misdiagnosed-<&>", "pattern": "x256", "direction": "toolchain-misdiagnoses", "targets": ["sm_100a"],
   "rule": "tcgen05.ld.syntax", "toolchain_message": ".num modifier required <&>", "judgement": "Misdiagnosis",
   "example": "tcgen05.ld.sync.aligned.32x32b.x256.b32 {r}, [t];", "toolchains": ["ptxas 13.0.88"]}]})";

std::string Page(const SupportSweep& sweep, const MatrixPageContext& context = {}) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Parse(kRegistry);
  EXPECT_TRUE(registry.ok()) << registry.status();
  if (!registry.ok()) return "";
  absl::StatusOr<std::string> html = SupportMatrixHtml(sweep, *registry, context);
  EXPECT_TRUE(html.ok()) << html.status();
  return html.ok() ? *html : "";
}

// Rows reads the page's data block `id`: the family tcgen05.ld's matrix
// rows ("matrix-tcgen05_ld") or the disagreements ("disagreement-rows").
std::vector<nlohmann::json> Rows(const std::string& html, const std::string& id) {
  absl::StatusOr<std::vector<nlohmann::json>> rows = PageRows(html, id);
  EXPECT_TRUE(rows.ok()) << rows.status();
  return rows.ok() ? *rows : std::vector<nlohmann::json>{};
}

TEST(SupportMatrixPageTest, OrdersRowsAsAPersonCounts) {
  const std::vector<nlohmann::json> rows = Rows(Page(Sweep()), "matrix-tcgen05_ld");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["opcode"], "tcgen05.ld.sync.aligned.16x64b.x2.b32");
  EXPECT_EQ(rows[1]["opcode"], "tcgen05.ld.sync.aligned.16x64b.x16.b32");
  EXPECT_EQ(rows[2]["opcode"], "tcgen05.ld.sync.aligned.16x64b.x128.b32");
}

TEST(SupportMatrixPageTest, ShowsTheDisagreementsTheRowsCannot) {
  const std::string html = Page(Sweep());
  // The operand style counts in its row's cell, linked to its line; the near misses in the family's last row.
  const nlohmann::json x2 = Rows(html, "matrix-tcgen05_ld").at(0);
  EXPECT_EQ(x2["css"], nlohmann::json({"m-both"}));
  EXPECT_EQ(x2["titles"], nlohmann::json({"sm_90: legal by the model, accepted by the compiler"}));
  EXPECT_EQ(x2["counts"], nlohmann::json({"1"}));
  EXPECT_EQ(x2["hrefs"], nlohmann::json({"d0"}));
  EXPECT_THAT(html, HasSubstr("<td class=\"cell has-disagreements o-known\"><a href=\"#d1\">2</a></td>"));
  // The target's column is headed by its accepted rows and disagreements; every disagreement is listed.
  EXPECT_THAT(html, HasSubstr("<span class=\"total\" title=\"accepted qualifier sets / disagreements\">3 / 3</span>"));
  const std::vector<nlohmann::json> disagreements = Rows(html, "disagreement-rows");
  ASSERT_EQ(disagreements.size(), 3u);
  for (size_t i = 0; i < disagreements.size(); ++i) EXPECT_EQ(disagreements[i]["anchor"], absl::StrCat("d", i));
  EXPECT_EQ(disagreements[2]["registry"], "unexplained");
}

TEST(SupportMatrixPageTest, NamesEachDisagreementsRuleAndWhereTheModelTookIt) {
  const std::vector<nlohmann::json> disagreements = Rows(Page(Sweep()), "disagreement-rows");
  ASSERT_EQ(disagreements.size(), 3u);
  EXPECT_EQ(disagreements[0]["rule"], "ldmatrix.infer.row-alignment-m8n16-m16n16");
  EXPECT_EQ(disagreements[0]["rule_label"], "inferred");
  EXPECT_EQ(disagreements[1]["rule"], "tcgen05.ld.syntax");
  EXPECT_EQ(disagreements[1]["rule_label"], "");
}

TEST(SupportMatrixPageTest, ListsTheCompilersMisdiagnoses) {
  const std::string html = Page(Sweep());
  EXPECT_THAT(html, HasSubstr("<td class=\"o-misdiagnosis\">misdiagnosed-&lt;&amp;&gt;</td><td>tcgen05.ld.syntax</td>"
                              "<td>sm_100a</td><td class=\"detail\">.num modifier required &lt;&amp;&gt;</td>"));
  SupportSweep other = Sweep();
  other.compiler = "nvJitLink 13.0";
  EXPECT_THAT(Page(other), HasSubstr("None known for this compiler."));
}

TEST(SupportMatrixPageTest, EscapesEveryField) {
  const std::string h = kHostile;
  SupportSweep sweep = Sweep();
  sweep.compiler += h;
  sweep.rows[0].cells["sm_90"].compiler_messages = {h};
  sweep.rows[0].cells["sm_90"].sass = h;
  sweep.disagreements[0].instruction += h;
  sweep.disagreements[0].compiler_messages = {h};
  sweep.disagreements[0].registry_id += h;
  const std::string html =
      Page(sweep, {.command = "matload support " + h, .machine = h, .compiler_path = h, .reproducers = {h}});
  EXPECT_FALSE(absl::StrContains(html, "<script>pwn"));
  EXPECT_FALSE(absl::StrContains(html, "pwn(\"x\")"));
  // What the page prints as HTML is escaped; what its data blocks carry reads back as it was.
  for (const std::string& shown :
       {absl::StrCat("ptxas 13.0.88", kEscaped), absl::StrCat("matload support ", kEscaped)}) {
    EXPECT_THAT(html, HasSubstr(shown));
  }
  const nlohmann::json row = Rows(html, "matrix-tcgen05_ld").at(2);  // rows[0], x128, comes last
  EXPECT_EQ(row["titles"][0], absl::StrCat("sm_90: legal by the model, accepted by the compiler\nSASS: ", h, "\n", h));
  const nlohmann::json disagreement = Rows(html, "disagreement-rows").at(0);
  EXPECT_EQ(disagreement["instruction"], sweep.disagreements[0].instruction);
  EXPECT_EQ(disagreement["registry"], absl::StrCat("entry-a", h));
  EXPECT_EQ(disagreement["message"], h);
  EXPECT_EQ(disagreement["reproducer"], h);
}

}  // namespace
}  // namespace matload
