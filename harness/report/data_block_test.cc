#include "harness/report/data_block.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/page_rows.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::ElementsAre;

// InPage is `block` as a page carries it, between two other elements.
std::string InPage(const DataBlock& block) {
  return absl::StrCat("<p>before</p><script type=\"application/json\" id=\"rows\">", block.ScriptText(),
                      "</script><p>after</p>");
}

TEST(DataBlockTest, KeepsEachTextOnceAndRowsReadBack) {
  DataBlock block({"id", "outcome", "links"}, 1);
  block.AddRow({"sm_90.ldmatrix.a", "legal_rejected", std::vector<std::string>{"a/case.json", "case.json"}});
  block.AddRow({"sm_90.ldmatrix.b", "legal_rejected", std::vector<std::string>{}});
  block.AddRow({"sm_90.ldmatrix.c", "legal_rejected", std::vector<std::string>{}});
  const nlohmann::json parsed = nlohmann::json::parse(block.ScriptText());
  EXPECT_EQ(parsed["strings"].size(), 6u) << "legal_rejected is kept once";
  EXPECT_EQ(parsed["shared"].size(), 2u) << "b and c share their outcome and links";
  absl::StatusOr<std::vector<nlohmann::json>> rows = PageRows(InPage(block), "rows");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_THAT(
      *rows,
      ElementsAre(
          nlohmann::json(
              {{"id", "sm_90.ldmatrix.a"}, {"outcome", "legal_rejected"}, {"links", {"a/case.json", "case.json"}}}),
          nlohmann::json(
              {{"id", "sm_90.ldmatrix.b"}, {"outcome", "legal_rejected"}, {"links", nlohmann::json::array()}}),
          nlohmann::json(
              {{"id", "sm_90.ldmatrix.c"}, {"outcome", "legal_rejected"}, {"links", nlohmann::json::array()}})));
}

// No text can end the <script> element or open markup: the block holds no
// '<', '>', '&' or '\'', and every text reads back as it was.
TEST(DataBlockTest, NoTextBreaksOutOfItsScriptElement) {
  const std::string hostile = "</script><script>alert('x')</script><!-- \"&amp;\" -->";
  DataBlock block({"id", "detail"}, 1);
  block.AddRow({hostile, hostile});
  EXPECT_EQ(block.ScriptText().find_first_of("<>&'"), std::string::npos) << block.ScriptText();
  absl::StatusOr<std::vector<nlohmann::json>> rows = PageRows(InPage(block), "rows");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_THAT(*rows, ElementsAre(nlohmann::json({{"id", hostile}, {"detail", hostile}})));
}

}  // namespace
}  // namespace matload
