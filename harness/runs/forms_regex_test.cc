#include "harness/runs/forms_regex.h"

#include <chrono>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

constexpr char kLabel[] = "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16.addr64";

TEST(FormsRegexTest, SearchesAsTheForms) {
  const FormsRegex wmma = *FormsRegex::Parse(R"(^wmma\.load\.a\.sync\.aligned\.row)");
  EXPECT_TRUE(wmma.Matches(kLabel));
  EXPECT_FALSE(wmma.Matches("ldmatrix.sync.aligned.m8n8.x1.shared.b16"));
  EXPECT_TRUE(FormsRegex::Parse("m16n16k16")->Matches(kLabel));  // anywhere, unanchored
  EXPECT_TRUE(FormsRegex::Parse(R"(\.x(1|2)\.(shared|trans\.shared)\.b16$)")->Matches("ldmatrix.m8n8.x2.shared.b16"));
  EXPECT_FALSE(FormsRegex::Parse("^m16n16k16")->Matches(kLabel));
}

TEST(FormsRegexTest, APatternRe2CannotTakeIsInvalidArgument) {
  for (const char* pattern : {"(", "[a-", R"((a)\1)", "(?=a)", "\xff"}) {
    const absl::StatusOr<FormsRegex> parsed = FormsRegex::Parse(pattern);
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument) << pattern;
    EXPECT_THAT(parsed.status().message(), HasSubstr("--forms: not a regex")) << pattern;
  }
}

// '^(.|.)*X' made std::regex try 2^n ways through a label of n characters,
// for minutes a label; RE2 is linear in the text.
TEST(FormsRegexTest, ACatastrophicRegexEndsWithinASecond) {
  const auto start = std::chrono::steady_clock::now();
  const FormsRegex catastrophic = *FormsRegex::Parse("^(.|.)*X");
  const std::string long_label = std::string(kLabel) + std::string(10'000, '.');
  for (int form = 0; form < 1'000; ++form) EXPECT_FALSE(catastrophic.Matches(kLabel));
  EXPECT_FALSE(catastrophic.Matches(long_label));
  EXPECT_FALSE(FormsRegex::Parse("(a*)*b")->Matches(std::string(100'000, 'a')));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

}  // namespace
}  // namespace matload
