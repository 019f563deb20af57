#include "reference/implicit_declarations.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/parser.h"

namespace matload {
namespace {

using ::testing::ElementsAre;

RawInstruction Instruction(absl::string_view text) { return ParseSnippet(text)->instruction; }

TEST(ImplicitDeclarationsTest, FollowTheOperandSignature) {
  EXPECT_THAT(ImplicitDeclarations(Instruction("@!p wmma.load.c.sync.aligned.row.m8n8k4.f64 {c0, c1}, [ptr];")),
              ElementsAre(Declaration{".reg", ".pred", "p"}, Declaration{".reg", ".b64", "c0"},
                          Declaration{".reg", ".b64", "c1"}, Declaration{".reg", ".b64", "ptr"}));
  EXPECT_THAT(ImplicitDeclarations(Instruction("tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {r, _}, v, [t], 16;")),
              ElementsAre(Declaration{".reg", ".b32", "r"}, Declaration{".reg", ".b32", "v"},
                          Declaration{".reg", ".b32", "t"}));
}

// A name used twice is declared once, with its first use's type: the module
// a compiler is given holds one declaration per name.
TEST(ImplicitDeclarationsTest, ANameUsedTwiceKeepsItsFirstType) {
  EXPECT_THAT(ImplicitDeclarations(Instruction("@r0 ldmatrix.sync.aligned.m8n8.x2.b16 {r0, r1}, [r1];")),
              ElementsAre(Declaration{".reg", ".pred", "r0"}, Declaration{".reg", ".b32", "r1"}));
}

}  // namespace
}  // namespace matload
