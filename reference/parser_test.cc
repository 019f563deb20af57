#include "reference/parser.h"

#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ParserTest, ParsesQualifiersOperandsAndAddresses) {
  absl::StatusOr<Snippet> snippet =
      ParseSnippet("  ldmatrix.sync.aligned.x4.m8n8.shared::cta.b16\n {d0, d1,d2 , _}, [addr+0x10];");
  ASSERT_TRUE(snippet.ok()) << snippet.status();
  EXPECT_THAT(snippet->instruction.opcode,
              ElementsAre("ldmatrix", "sync", "aligned", "x4", "m8n8", "shared::cta", "b16"));
  ASSERT_EQ(snippet->instruction.operands.size(), 2u);
  EXPECT_EQ(std::get<VectorOperand>(snippet->instruction.operands[0]).elements,
            (std::vector<std::string>{"d0", "d1", "d2", "_"}));
  EXPECT_EQ(std::get<AddressOperand>(snippet->instruction.operands[1]), (AddressOperand{"addr", 16}));
}

TEST(ParserTest, ParsesImmediatesGuardsAndNegativeOffsets) {
  absl::StatusOr<Snippet> snippet =
      ParseSnippet("@!p tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {r}, [t+-4], -1; // trailing comment");
  ASSERT_TRUE(snippet.ok()) << snippet.status();
  EXPECT_EQ(snippet->instruction.guard, "!p");
  EXPECT_EQ(std::get<AddressOperand>(snippet->instruction.operands[1]), (AddressOperand{"t", -4}));
  EXPECT_EQ(std::get<ImmediateOperand>(snippet->instruction.operands[2]).value, -1);
  EXPECT_EQ(std::get<AddressOperand>(ParseSnippet("ldmatrix.x1 {a}, [64];")->instruction.operands[1]),
            (AddressOperand{"", 64}));
}

TEST(ParserTest, ParsesDeclarationsAsInTheSpecExamples) {
  absl::StatusOr<Snippet> snippet = ParseSnippet(
      "// Load two 8x8 matrices\n.reg .b64 addr;\n.reg .b32 d<2>;\n/* block */ "
      ".shared .align 16 .b8 tile[256];\nldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {d0, d1}, [addr];");
  ASSERT_TRUE(snippet.ok()) << snippet.status();
  EXPECT_THAT(snippet->declarations,
              ElementsAre(Declaration{".reg", ".b64", "addr"}, Declaration{".reg", ".b32", "d0"},
                          Declaration{".reg", ".b32", "d1"}, Declaration{".shared", ".b8", "tile"}));
}

// Declarations name one of the types ptxas 13.0.88 accepts in a
// declaration, measured one by one (register_class.h DeclarableTypes):
// 18 for .reg, the same less .pred for .shared and .global.
TEST(ParserTest, DeclarationsNameOnlyDeclarableTypes) {
  for (const char* type : {".s8", ".s16", ".s32", ".s64", ".u8", ".u16", ".u32", ".u64", ".f16", ".f16x2", ".f32",
                           ".f64", ".b8", ".b16", ".b32", ".b64", ".b128", ".pred"}) {
    EXPECT_TRUE(ParseSnippet(absl::StrCat(".reg ", type, " r; ldmatrix.x1 {a}, [b];")).ok()) << type;
  }
  // The legality campaign's finding: an unused `.reg .b28` made the module
  // a parse error for nvJitLink, and the model had called it legal.
  EXPECT_EQ(ParseSnippet(".reg .b28 %addr; ldmatrix.x1 {a}, [b];").status().message(),
            "syntax error: '.b28' is not a type a .reg declaration may name near '%addr'");
  for (const char* type : {".bf16", ".tf32", ".e4m3", ".b1", ".u4"}) {
    EXPECT_EQ(ParseSnippet(absl::StrCat(".reg ", type, " r; ldmatrix.x1 {a}, [b];")).status().code(),
              absl::StatusCode::kInvalidArgument)
        << type;
  }
  EXPECT_TRUE(ParseSnippet(".shared .b128 s[4]; ldmatrix.x1 {a}, [b];").ok());
  EXPECT_THAT(ParseSnippet(".shared .pred s[4]; ldmatrix.x1 {a}, [b];").status().message(),
              HasSubstr("'.pred' is not a type a .shared declaration may name"));
}

TEST(ParserTest, RejectsMalformedTextWithAClearError) {
  // The spec's own u8 example misses the ';' after its declaration.
  EXPECT_THAT(ParseSnippet(".reg .b32 x<4>\nwmma.load.a.sync.aligned.m32n8k16.row.u8 {x0,x1,x2,x3}, [ptr];")
                  .status()
                  .message(),
              HasSubstr("in a declaration"));
  EXPECT_THAT(ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d0}, [a]").status().message(),
              HasSubstr("expected ';'"));
  EXPECT_THAT(ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d0}, [a-16];").status().message(),
              HasSubstr("only '+' offsets"));
  EXPECT_THAT(std::string(ParseSnippet("ldmatrix {d0, [a];").status().message()), HasSubstr("expected a name near '[a]'"));
  EXPECT_THAT(std::string(ParseSnippet("ldmatrix {d0 [a];").status().message()), HasSubstr("expected '}'"));
  EXPECT_THAT(ParseSnippet(".reg .b32 a;").status().message(), HasSubstr("no instruction"));
  EXPECT_THAT(ParseSnippet("ldmatrix.x1 {a}, [b]; ldmatrix.x1 {a}, [b];").status().message(),
              HasSubstr("one instruction"));
  EXPECT_THAT(ParseSnippet("ldmatrix.x1 {a}, 99999999999999999999999;").status().message(),
              HasSubstr("out of range"));
  EXPECT_THAT(ParseSnippet("/* open").status().message(), HasSubstr("unterminated"));
  EXPECT_EQ(ParseSnippet("").status().code(), absl::StatusCode::kInvalidArgument);
}

// The parser must survive anything: random byte-level mutations of every
// legal spelling either parse or fail with kInvalidArgument.
TEST(ParserTest, SurvivesThousandsOfMutatedSpellings) {
  std::mt19937 random(20261122);
  const std::string kAlphabet = ".,;{}[]+-@!_%:<>x0123456789abm \n/*";
  std::vector<Form> forms = LegalForms({9, 0}, {103, TargetVariant::kArchSpecific});
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = PrintForm(forms[random() % forms.size()]);
    for (int edits = 1 + random() % 4; edits > 0; --edits) {
      size_t at = random() % (text.size() + 1);
      switch (random() % 3) {
        case 0: text.insert(at, 1, kAlphabet[random() % kAlphabet.size()]); break;
        case 1: if (at < text.size()) text.erase(at, 1); break;
        default: if (at < text.size()) text[at] = static_cast<char>(random() % 256); break;
      }
    }
    absl::StatusOr<Snippet> snippet = ParseSnippet(text);
    if (snippet.ok()) {
      ++parsed;
      // Whatever parses prints and parses back to the same instruction.
      EXPECT_EQ(ParseSnippet(PrintRaw(snippet->instruction))->instruction, snippet->instruction) << text;
    } else {
      EXPECT_EQ(snippet.status().code(), absl::StatusCode::kInvalidArgument) << text;
    }
  }
  EXPECT_GT(parsed, 1000) << "the mutations should leave many inputs parseable";
}

}  // namespace
}  // namespace matload
