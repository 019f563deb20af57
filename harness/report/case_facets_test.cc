#include "harness/report/case_facets.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

// The IDs are docs/case-ids.md's examples, written out by hand.
// A sweep of several compilers starts each case ID with its toolkit
// (harness/cli/support_command.h): the target is then the second token.
TEST(CaseFacetsTest, ReadsASupportCase) {
  for (const char* id : {"sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64",
                         "ptxas_12_9_86.sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64"}) {
    const CaseFacets facets = FacetsOf(id);
    EXPECT_EQ(facets.target, "sm_90") << id;
    EXPECT_EQ(facets.family, "ldmatrix") << id;
    EXPECT_EQ(facets.shape, "m8n8") << id;
    EXPECT_EQ(facets.type, "b16") << id;
  }
}

TEST(CaseFacetsTest, ReadsAConformCaseWithoutATarget) {
  const CaseFacets facets = FacetsOf("wmma_load.a.sync.aligned.row.m16n16k16.shared.f16.addr32.driver_jit");
  EXPECT_EQ(facets.target, "");
  EXPECT_EQ(facets.family, "wmma_load");
  EXPECT_EQ(facets.shape, "m16n16k16");
  EXPECT_EQ(facets.type, "f16");
  EXPECT_EQ(facets.path, "driver_jit");
  EXPECT_EQ(FacetsOf("ldmatrix.sync.aligned.m8n8.x1.shared.b16.raw_0badf00d.jit_compile").path, "jit_compile");
}

TEST(CaseFacetsTest, ReadsTcgen05ShapesAndArchitectureSpecificTargets) {
  const CaseFacets facets = FacetsOf("sm_100a.tcgen05_ld.sync.aligned.32x32b.x2.b32.taddr");
  EXPECT_EQ(facets.target, "sm_100a");
  EXPECT_EQ(facets.family, "tcgen05_ld");
  EXPECT_EQ(facets.shape, "32x32b");
  EXPECT_EQ(facets.type, "b32");
}

TEST(CaseFacetsTest, ReadsAFuzzCampaignAsItsTarget) {
  EXPECT_EQ(FacetsOf("fuzz.legality").family, "legality");
  EXPECT_EQ(FacetsOf("fuzz.text.finding.crash_in_parser").family, "text");
}

TEST(CaseFacetsTest, LeavesOutWhatTheIdLacks) {
  const CaseFacets facets = FacetsOf("something.else");
  EXPECT_EQ(facets.target, "");
  EXPECT_EQ(facets.family, "");
  EXPECT_EQ(facets.shape, "");
  EXPECT_EQ(facets.type, "");
}

TEST(NaturalLessTest, CountsDigitsAsNumbers) {
  std::vector<std::string> opcodes = {"tcgen05.ld.16x64b.x128.b32", "tcgen05.ld.16x64b.x16.b32",
                                      "tcgen05.ld.16x64b.x2.b32"};
  std::sort(opcodes.begin(), opcodes.end(), NaturalLess);
  EXPECT_THAT(opcodes, ::testing::ElementsAre("tcgen05.ld.16x64b.x2.b32", "tcgen05.ld.16x64b.x16.b32",
                                              "tcgen05.ld.16x64b.x128.b32"));
}

TEST(NaturalLessTest, IsAStrictOrder) {
  EXPECT_FALSE(NaturalLess("sm_90", "sm_90"));
  EXPECT_TRUE(NaturalLess("sm_90", "sm_90a"));
  EXPECT_FALSE(NaturalLess("sm_90a", "sm_90"));
  EXPECT_TRUE(NaturalLess("sm_90", "sm_100"));
  EXPECT_TRUE(NaturalLess("x02", "x3"));
  EXPECT_TRUE(NaturalLess("", "a"));
}

}  // namespace
}  // namespace matload
