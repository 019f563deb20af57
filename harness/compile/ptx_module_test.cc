#include "harness/compile/ptx_module.h"

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

std::string LineOf(const std::string& text, int line) {
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  return lines[line - 1];
}

TEST(PtxModuleTest, PutsEachSnippetInItsOwnScopeAndTracesLines) {
  std::vector<Snippet> snippets = {*ParseSnippet(".reg .b32 d; .reg .b64 a; ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"),
                                   *ParseSnippet("tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t];")};
  PtxModule module = BuildModule(snippets, {9, 0}, *ParseTarget("sm_100a"));
  EXPECT_THAT(module.text, HasSubstr(".version 9.0\n.target sm_100a\n.address_size 64\n"));
  ASSERT_EQ(module.snippet_lines.size(), 2u);
  EXPECT_THAT(LineOf(module.text, module.snippet_lines[0].last - 1), HasSubstr("ldmatrix"));
  EXPECT_THAT(LineOf(module.text, module.snippet_lines[1].last - 1), HasSubstr("tcgen05.ld"));
  EXPECT_EQ(module.SnippetAt(module.snippet_lines[1].first), 1);
  EXPECT_EQ(module.SnippetAt(1), -1);
}

TEST(PtxModuleTest, SharedDeclarationsAreWrittenOnce) {
  Snippet first = *ParseSnippet(".reg .b32 d; .reg .b64 a; ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];");
  Snippet second = first;
  PtxModule module = BuildModule({first, second}, {9, 0}, *ParseTarget("sm_90"));
  EXPECT_EQ(module.snippet_lines[0].first, module.snippet_lines[0].last) << "one line per snippet, no scope";
  size_t count = 0;
  for (size_t at = module.text.find(".reg .b64 a;"); at != std::string::npos; at = module.text.find(".reg .b64 a;", at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 1u);
}

// BuildSharedModule writes what BuildModule writes of snippets sharing
// their declarations, and with no snippet, what BuildModule writes of none.
TEST(PtxModuleTest, SharedModuleIsTheModuleOfSnippetsSharingDeclarations) {
  const Snippet first = *ParseSnippet(".reg .b32 d; .reg .b64 a; ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];");
  const Snippet second = *ParseSnippet(".reg .b32 d; .reg .b64 a; ldmatrix.sync.aligned.m8n8.x2.b16 {d, d}, [a];");
  const Target target = *ParseTarget("sm_90");
  const PtxModule shared = BuildSharedModule(
      first.declarations, {PrintRaw(first.instruction), PrintRaw(second.instruction)}, {9, 0}, target, "k");
  const PtxModule built = BuildModule({first, second}, {9, 0}, target, "k");
  EXPECT_EQ(shared.text, built.text);
  EXPECT_EQ(shared.snippet_lines.size(), built.snippet_lines.size());
  EXPECT_EQ(BuildSharedModule(first.declarations, {}, {9, 0}, target).text, BuildModule({}, {9, 0}, target).text);
}

}  // namespace
}  // namespace matload
