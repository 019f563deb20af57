#include "harness/cli/check_command.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(CheckCommandTest, SinglePairPrintsTheBareVerdict) {
  std::ostringstream out;
  WriteCheck({{"argv", "ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"}}, {*ParseTarget("sm_90")}, {9, 0}, false, out);
  EXPECT_EQ(out.str(), "legal\n");
  std::ostringstream bad;
  WriteCheck({{"argv", "ldmatrix.sync.aligned.m16n16.x1.b8 {d}, [a];"}}, {*ParseTarget("sm_90")}, {9, 0}, false, bad);
  EXPECT_THAT(bad.str(), StartsWith("illegal: qualifier-combination (ldmatrix.trans-m16n16): .m16n16 requires .trans"));
  EXPECT_THAT(bad.str(), HasSubstr("target (ldmatrix.target.m16n16-m8n16)"));
}

TEST(CheckCommandTest, ManyPairsAreLabelled) {
  std::ostringstream out;
  WriteCheck({{"f:3", "tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t];"}},
             {*ParseTarget("sm_90"), *ParseTarget("sm_100a")}, {9, 0}, false, out);
  EXPECT_THAT(out.str(), HasSubstr("f:3\tsm_90\tillegal: target (tcgen05.ld.target)"));
  EXPECT_THAT(out.str(), HasSubstr("f:3\tsm_100a\tlegal\n"));
}

TEST(CheckCommandTest, JsonHasTheDocumentedShape) {
  std::ostringstream out;
  WriteCheck({{"argv", "ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];"}}, {*ParseTarget("sm_80")}, {8, 0}, true, out);
  nlohmann::json object = nlohmann::json::parse(out.str());
  EXPECT_EQ(object["instruction"], "ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];");
  EXPECT_EQ(object["target"], "sm_80");
  EXPECT_EQ(object["ptx"], "8.0");
  EXPECT_EQ(object["verdict"], "illegal");
  ASSERT_FALSE(object["reasons"].empty());
  EXPECT_EQ(object["reasons"][0]["code"], "unknown-qualifier");
  EXPECT_EQ(object["reasons"][0]["rule"], "ldmatrix");
  EXPECT_THAT(object["reasons"][0]["message"].get<std::string>(), HasSubstr("'.x3'"));
}

TEST(CheckCommandTest, ReadsOneSnippetPerLine) {
  const std::string path = ::testing::TempDir() + "/snippets.txt";
  std::ofstream(path) << "# a comment\n\nldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];\n  .reg .b32 d; x;\n";
  absl::StatusOr<std::vector<LabeledSnippet>> snippets = ReadSnippetFile(path);
  ASSERT_TRUE(snippets.ok()) << snippets.status();
  ASSERT_EQ(snippets->size(), 2u);
  EXPECT_EQ((*snippets)[0].label, path + ":3");
  EXPECT_EQ((*snippets)[1].text, ".reg .b32 d; x;");
  EXPECT_EQ(ReadSnippetFile("/nonexistent/file").status().code(), absl::StatusCode::kNotFound);
}

TEST(CheckCommandTest, ADirectoryOrAnEndlessFileIsAFailedPreconditionNamingIt) {
  const absl::Status directory = ReadSnippetFile(::testing::TempDir()).status();
  EXPECT_EQ(directory.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(directory.message(), HasSubstr("is a directory, not a regular file"));
  const absl::Status endless = ReadSnippetFile("/dev/zero").status();
  EXPECT_EQ(endless.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(endless.message(), HasSubstr("/dev/zero is a character device"));
  // A FIFO is refused at once: it was opened, waiting for a writer forever.
  const std::string fifo = absl::StrCat(::testing::TempDir(), "/check_command_test_fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(ReadSnippetFile(fifo).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(CheckCommandTest, TooManyDeclarationsIsALimitVerdict) {
  std::string snippet = ".reg .b32 a0<4096>";
  for (int i = 1; i < 17; ++i) absl::StrAppend(&snippet, ", a", i, "<4096>");
  absl::StrAppend(&snippet, "; ldmatrix.sync.aligned.m8n8.x1.b16 {a0}, [p];");
  std::ostringstream out;
  WriteCheck({{"argv", snippet}}, {*ParseTarget("sm_90")}, {9, 0}, /*json=*/true, out);
  EXPECT_THAT(out.str(), HasSubstr(R"("reasons":[{"code":"limit","message":"the snippet declares more than 65536)"));
  EXPECT_THAT(out.str(), HasSubstr(R"("rule":"limit.declared-names"}])"));
}

}  // namespace
}  // namespace matload
