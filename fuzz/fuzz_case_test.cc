#include "fuzz/fuzz_case.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

constexpr absl::string_view kLdmatrixCase =
    "target sm_90\n"
    "ptx 8.7\n"
    "data tagged 0x1f\n"
    "placement global\n"
    "rows 0 32 64\n"
    "offset 48\n"
    "stride 24\n"
    "column 7\n"
    "---\n"
    "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr];\n";

TEST(FuzzCaseTest, DecodesEveryHeaderLine) {
  absl::StatusOr<FuzzCase> decoded = DecodeFuzzCase(kLdmatrixCase);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->target, (Target{90}));
  EXPECT_EQ(decoded->ptx, (PtxVersion{8, 7}));
  EXPECT_EQ(decoded->runtime.pattern, DataPattern::kTagged);
  EXPECT_EQ(decoded->runtime.stream, 0x1fu);
  EXPECT_EQ(decoded->runtime.placement, DataPlacement::kGlobal);
  EXPECT_THAT(decoded->runtime.rows, ::testing::ElementsAre(0, 32, 64));
  EXPECT_EQ(decoded->runtime.offset, 48u);
  EXPECT_EQ(decoded->runtime.stride, 24u);
  EXPECT_EQ(decoded->runtime.column, 7u);
  EXPECT_EQ(PrintRaw(decoded->snippet.instruction), "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr];");
}

TEST(FuzzCaseTest, HeaderLinesAreOptional) {
  absl::StatusOr<FuzzCase> decoded = DecodeFuzzCase("---\nldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];");
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->target, FuzzCase{}.target);
  EXPECT_EQ(decoded->runtime, RuntimeInputs{});
}

TEST(FuzzCaseTest, EncodeThenDecodeGivesTheCaseBack) {
  for (const Form& form : LegalForms(NewestPtxVersion(), Target{100, TargetVariant::kArchSpecific})) {
    FuzzCase fuzz_case{.target = Target{100, TargetVariant::kArchSpecific},
                       .ptx = NewestPtxVersion(),
                       .runtime = {.pattern = DataPattern::kTagged,
                                   .stream = 0xdeadbeefcafeull,
                                   .placement = DataPlacement::kGlobal,
                                   .rows = {16, 0, 4096},
                                   .offset = 96,
                                   .stride = 40,
                                   .column = 3},
                       .snippet = {StandardRegisterFile(), ToRaw(form)}};
    absl::StatusOr<FuzzCase> decoded = DecodeFuzzCase(EncodeFuzzCase(fuzz_case));
    ASSERT_TRUE(decoded.ok()) << decoded.status() << "\n" << EncodeFuzzCase(fuzz_case);
    ASSERT_EQ(*decoded, fuzz_case) << EncodeFuzzCase(fuzz_case);
  }
}

TEST(FuzzCaseTest, MalformedCasesSayWhatIsWrong) {
  const struct {
    absl::string_view text;
    absl::string_view error;
  } cases[] = {
      {"target sm_90\n", "no '---' line"},
      {"target sm_91\n---\nret;", "line 1"},
      {"ptx 9.9\n---\nret;", "line 1"},
      {"target sm_90\ntarget sm_80\n---\nret;", "line 2: 'target' given twice"},
      {"colour blue\n---\nret;", "unknown key 'colour'"},
      {"data random\n---\nret;", "'data' takes 2 values"},
      {"data striped 1\n---\nret;", "line 1"},
      {"offset -4\n---\nret;", "'offset' needs a number"},
      {"offset 0x\n---\nret;", "'offset' needs a number"},
      {"stride 99999999999\n---\nret;", "'stride' needs a number up to 4294967295"},
      {"placement local\n---\nret;", "placement is 'shared' or 'global'"},
      {"rows 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32\n---\nret;",
       "at most 32 offsets"},
      {"target sm_90\n---\nldmatrix {", "fuzz case snippet (after line 2)"},
  };
  for (const auto& [text, error] : cases) {
    absl::StatusOr<FuzzCase> decoded = DecodeFuzzCase(text);
    ASSERT_FALSE(decoded.ok()) << text;
    EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_THAT(decoded.status().message(), HasSubstr(error)) << text;
  }
}

}  // namespace
}  // namespace matload
