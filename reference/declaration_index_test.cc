#include "reference/declaration_index.h"

#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/legality.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace matload {
namespace {

// The first declaration of a name counts, as in Snippet::FindDeclaration.
TEST(DeclarationIndexTest, FindsTheFirstDeclarationOfAName) {
  const std::vector<Declaration> list = {{".reg", ".b32", "%r"}, {".reg", ".b64", "%r"}, {".shared", ".b8", "%s"}};
  const DeclarationIndex index(list);
  EXPECT_EQ(index.Find("%r"), &list[0]);
  EXPECT_EQ(index.Find("%s"), &list[2]);
  EXPECT_EQ(index.Find("%x"), nullptr);
  EXPECT_FALSE(index.empty());
  EXPECT_TRUE(DeclarationIndex({}).empty());
}

// JudgedLegal is Judge's verdict on every form a support sweep compiles,
// legal and near miss, and on snippets with declarations of their own or
// none.
TEST(DeclarationIndexTest, JudgedLegalIsJudgesVerdict) {
  for (const char* name : {"sm_80", "sm_90", "sm_100a"}) {
    const Target target = *ParseTarget(name);
    std::vector<RawInstruction> forms = NearMissInstructions({9, 0}, target);
    for (const Form& form : LegalForms({9, 0}, target)) forms.push_back(ToRaw(form));
    size_t legal = 0;
    for (const RawInstruction& form : forms) {
      const bool judged = Judge(Snippet{StandardRegisterFile(), form}, {9, 0}, target).legal();
      EXPECT_EQ(JudgedLegal(form, StandardDeclarationIndex(), {9, 0}, target), judged) << PrintRaw(form);
      legal += judged ? 1 : 0;
    }
    EXPECT_GT(legal, 0u);
    EXPECT_LT(legal, forms.size());
  }
  const Target sm_90 = *ParseTarget("sm_90");
  for (const char* text : {".reg .b32 d; .reg .b64 a; ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];",
                           ".reg .f32 d; .reg .b64 a; ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];",
                           ".reg .pred p; .reg .b32 d; .reg .b64 a; @!p ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];",
                           ".reg .b32 p; .reg .b32 d; .reg .b64 a; @p ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];",
                           "ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"}) {
    const Snippet snippet = *ParseSnippet(text);
    EXPECT_EQ(JudgedLegal(snippet.instruction, DeclarationIndex(snippet.declarations), {9, 0}, sm_90),
              Judge(snippet, {9, 0}, sm_90).legal())
        << text;
  }
}

}  // namespace
}  // namespace matload
