#include "reference/printer.h"

#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/parser.h"

namespace matload {
namespace {

TEST(PrinterTest, PrintsCanonicalQualifierOrder) {
  absl::StatusOr<Snippet> snippet = ParseSnippet("ldmatrix.b16.x4.shared.aligned.m8n8.sync {a,b,c,d}, [p+16];");
  ASSERT_TRUE(snippet.ok());
  absl::StatusOr<Form> form = DecodeForm(snippet->instruction);
  ASSERT_TRUE(form.ok()) << form.status();
  EXPECT_EQ(PrintForm(*form), "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {a, b, c, d}, [p+16];");
  EXPECT_EQ(PrintRaw(snippet->instruction), "ldmatrix.b16.x4.shared.aligned.m8n8.sync {a, b, c, d}, [p+16];");
}

TEST(PrinterTest, OpcodesAreTheCanonicalQualifiersAlone) {
  absl::StatusOr<Snippet> snippet = ParseSnippet("ldmatrix.b16.x4.shared.aligned.m8n8.sync {a,b,c,d}, [p+16];");
  ASSERT_TRUE(snippet.ok());
  absl::StatusOr<Form> form = DecodeForm(snippet->instruction);
  ASSERT_TRUE(form.ok()) << form.status();
  EXPECT_EQ(PrintOpcode(form->family, form->qualifiers), "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
}

TEST(PrinterTest, PrintsTheSpecSpellingOfEachFamily) {
  for (const char* text : {
           "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {x0, x1, x2, x3, x4, x5, x6, x7}, [p], 32;",
           "tcgen05.ld.red.sync.aligned.16x32bx2.x2.max.abs.NaN.f32 {r0, r1}, v, [t], 16;",
           "ldmatrix.sync.aligned.m16n16.x1.trans.shared::cta.b8x16.b4x16_p64 {d0, d1}, [p];",
       }) {
    EXPECT_EQ(PrintForm(*DecodeForm(ParseSnippet(text)->instruction)), text);
  }
}

TEST(PrinterTest, DecodeRejectsTokensOutsideTheTable) {
  EXPECT_EQ(DecodeForm(ParseSnippet("ldmatrix.sync.x3 {a}, [p];")->instruction).status().message(),
            "'.x3' is not a qualifier of ldmatrix");
  EXPECT_EQ(DecodeForm(ParseSnippet("mma.sync {a}, [p];")->instruction).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// parse(print(f)) == f for every enumerated form of every target.
TEST(PrinterTest, RoundTripsEveryEnumeratedForm) {
  size_t checked = 0;
  for (const TargetInfo& info : AllTargets()) {
    for (PtxVersion ptx : {PtxVersion{8, 8}, PtxVersion{9, 0}}) {
      for (const Form& form : LegalForms(ptx, info.target)) {
        absl::StatusOr<Snippet> snippet = ParseSnippet(PrintForm(form));
        ASSERT_TRUE(snippet.ok()) << PrintForm(form) << ": " << snippet.status();
        ASSERT_EQ(*DecodeForm(snippet->instruction), form) << PrintForm(form);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 50000u);
}

}  // namespace
}  // namespace matload
