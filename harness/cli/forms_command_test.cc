#include "harness/cli/forms_command.h"

#include <sstream>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::Contains;

TEST(FormsCommandTest, PrintsOneCanonicalSpellingPerLine) {
  std::ostringstream out;
  const size_t count = WriteForms({9, 0}, *ParseTarget("sm_90"), {}, out);
  std::vector<std::string> lines = absl::StrSplit(out.str(), '\n', absl::SkipEmpty());
  EXPECT_EQ(lines.size(), count);
  EXPECT_THAT(lines, Contains("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r0, %r1, %r2, %r3}, [%addr+32];"));
  EXPECT_THAT(lines, Contains("wmma.load.c.sync.aligned.row.m8n8k4.f64 {%rd0, %rd1}, [%addr32], %stride;"));
  EXPECT_THAT(lines, ::testing::Not(Contains(::testing::HasSubstr("tcgen05"))));
}

TEST(FormsCommandTest, FamiliesAreListedInConformsOrder) {
  std::ostringstream out;
  WriteFamilies(out);
  EXPECT_EQ(out.str(), "ldmatrix\nwmma.load\ntcgen05.ld\n");
}

TEST(FormsCommandTest, IllegalPrintsNearMisses) {
  std::ostringstream out;
  WriteForms({9, 0}, *ParseTarget("sm_100a"), {.illegal = true}, out);
  std::vector<std::string> lines = absl::StrSplit(out.str(), '\n', absl::SkipEmpty());
  EXPECT_GT(lines.size(), 2000u);
  EXPECT_THAT(lines, Contains("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r0}, [%taddr], 16;"));
}

TEST(FormsCommandTest, IdsNameEachFormAndFiltersSelectByThem) {
  std::ostringstream out;
  const size_t count =
      WriteForms({9, 0}, *ParseTarget("sm_90"),
                 {.ids = true, .filter = *CaseFilter::Make("", {"sm_90.ldmatrix.*.x4.trans.shared_cta.*"}, {})}, out);
  EXPECT_EQ(out.str(),
            "sm_90.ldmatrix.sync.aligned.m8n8.x4.trans.shared_cta.b16.addr64\t"
            "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r0, %r1, %r2, %r3}, [%addr];\n"
            "sm_90.ldmatrix.sync.aligned.m8n8.x4.trans.shared_cta.b16.addr32\t"
            "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r0, %r1, %r2, %r3}, [%addr32];\n"
            "sm_90.ldmatrix.sync.aligned.m8n8.x4.trans.shared_cta.b16.addr_offset\t"
            "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r0, %r1, %r2, %r3}, [%addr+32];\n");
  EXPECT_EQ(count, 3u);
}

}  // namespace
}  // namespace matload
