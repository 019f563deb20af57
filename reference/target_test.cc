#include "reference/target.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

Target T(absl::string_view name) { return *ParseTarget(name); }

TEST(TargetTest, ParsesAndPrintsEveryTarget) {
  for (const TargetInfo& info : AllTargets()) {
    EXPECT_EQ(T(info.target.Name()), info.target);
  }
  EXPECT_EQ(T("sm_100a"), (Target{100, TargetVariant::kArchSpecific}));
  EXPECT_EQ(T("sm_120f").Name(), "sm_120f");
}

TEST(TargetTest, RejectsUnknownTargets) {
  EXPECT_THAT(ParseTarget("sm_91").status().message(), HasSubstr("unknown target 'sm_91'"));
  EXPECT_THAT(ParseTarget("sm_130").status().message(), HasSubstr("matload knows sm_70 to sm_121f"));
  EXPECT_THAT(ParseTarget("sm_130").status().message(), HasSubstr("docs/adding-a-ptx-version.md"));
  EXPECT_THAT(ParseTarget("compute_90").status().message(), HasSubstr("unknown target"));
  EXPECT_THAT(ParseTarget("sm_89a").status().message(), HasSubstr("unknown target"));
}

TEST(TargetTest, ParsesLists) {
  EXPECT_THAT(*ParseTargetList("sm_90, sm_100a"), ::testing::ElementsAre(T("sm_90"), T("sm_100a")));
  EXPECT_EQ(ParseTargetList("all")->size(), AllTargets().size());
  EXPECT_THAT(ParseTargetList(" , ").status().message(), HasSubstr("empty target list"));
  EXPECT_THAT(ParseTargetList("sm_90,sm_x").status().message(), HasSubstr("unknown target 'sm_x'"));
}

// Copied by hand from the PTX .target notes (docs/spec-decisions.md target.introduced).
TEST(TargetTest, IntroductionVersionsFromTheSpec) {
  EXPECT_FALSE(TargetExistsIn(T("sm_75"), {6, 2}));
  EXPECT_TRUE(TargetExistsIn(T("sm_75"), {6, 3}));
  EXPECT_FALSE(TargetExistsIn(T("sm_90a"), {7, 8}));
  EXPECT_TRUE(TargetExistsIn(T("sm_90a"), {8, 0}));
  EXPECT_FALSE(TargetExistsIn(T("sm_100f"), {8, 7}));
  EXPECT_TRUE(TargetExistsIn(T("sm_100f"), {8, 8}));
  EXPECT_FALSE(TargetExistsIn(T("sm_120a"), {8, 6}));
  EXPECT_TRUE(TargetExistsIn(T("sm_120a"), {8, 7}));
  EXPECT_FALSE(TargetExistsIn(T("sm_88"), {8, 8}));
  EXPECT_TRUE(TargetExistsIn(T("sm_88"), {9, 0}));
  for (absl::string_view sm107 : {"sm_107", "sm_107a", "sm_107f"}) {
    EXPECT_FALSE(TargetExistsIn(T(sm107), {9, 3})) << sm107;
    EXPECT_TRUE(TargetExistsIn(T(sm107), {9, 4})) << sm107;
    EXPECT_TRUE(TargetExistsIn(T(sm107), {9, 5})) << sm107;
  }
}

// Copied by hand from the .target notes of PTX 9.0 (28 values) and 9.4 (sm_107, sm_107a, sm_107f).
TEST(TargetTest, CountsTargetsPerPtxVersion) {
  auto count_in = [](PtxVersion version) {
    size_t count = 0;
    for (const TargetInfo& info : AllTargets()) count += TargetExistsIn(info.target, version) ? 1 : 0;
    return count;
  };
  EXPECT_EQ(AllTargets().size(), 31u);
  // 9.0: sm_70 72 75 80 86 87 88 89 90 90a, sm_100/a/f 103/a/f 110/a/f 120/a/f 121/a/f (sm_101* renamed).
  EXPECT_EQ(count_in({9, 0}), 25u);
  EXPECT_EQ(count_in({9, 3}), 25u);
  EXPECT_EQ(count_in({9, 4}), 28u);
  EXPECT_EQ(count_in({9, 5}), 28u);
}

TEST(TargetTest, Sm101IsRenamedToSm110InPtx90) {
  EXPECT_TRUE(TargetExistsIn(T("sm_101a"), {8, 8}));
  EXPECT_FALSE(TargetExistsIn(T("sm_101a"), {9, 0}));
  EXPECT_FALSE(TargetExistsIn(T("sm_110a"), {8, 8}));
  EXPECT_TRUE(TargetExistsIn(T("sm_110a"), {9, 0}));
}

TEST(TargetClauseTest, OnionCarriesToEveryLaterTarget) {
  TargetClause clause{TargetClause::Kind::kOnionFrom, T("sm_75")};
  EXPECT_TRUE(clause.Matches(T("sm_75"), {9, 0}));
  EXPECT_TRUE(clause.Matches(T("sm_90a"), {9, 0}));
  EXPECT_TRUE(clause.Matches(T("sm_121f"), {9, 0}));
  EXPECT_FALSE(clause.Matches(T("sm_72"), {9, 0}));
}

TEST(TargetClauseTest, ArchSpecificIsThatTargetOnly) {
  TargetClause clause{TargetClause::Kind::kExactly, T("sm_100a")};
  EXPECT_TRUE(clause.Matches(T("sm_100a"), {9, 0}));
  EXPECT_FALSE(clause.Matches(T("sm_103a"), {9, 0}));
  EXPECT_FALSE(clause.Matches(T("sm_100"), {9, 0}));
  EXPECT_FALSE(clause.Matches(T("sm_100f"), {9, 0}));
}

// Copied by hand from docs/spec-decisions.md target.families: "sm_100f or higher in the same family"
// is sm_100f, sm_103f, sm_100a and sm_103a; never a baseline target.
TEST(TargetClauseTest, FamilyFromMatchesLaterAAndFMembers) {
  TargetClause clause{TargetClause::Kind::kFamilyFrom, T("sm_100f"), {8, 8}};
  for (absl::string_view yes : {"sm_100f", "sm_103f", "sm_100a", "sm_103a", "sm_107f", "sm_107a"}) {
    EXPECT_TRUE(clause.Matches(T(yes), {9, 0})) << yes;
  }
  for (absl::string_view no : {"sm_100", "sm_103", "sm_107", "sm_110f", "sm_120a", "sm_90a"}) {
    EXPECT_FALSE(clause.Matches(T(no), {9, 0})) << no;
  }
  EXPECT_FALSE(clause.Matches(T("sm_100a"), {8, 7})) << "family clauses start at PTX 8.8";

  TargetClause from103{TargetClause::Kind::kFamilyFrom, T("sm_103f")};
  EXPECT_TRUE(from103.Matches(T("sm_103a"), {9, 0}));
  EXPECT_FALSE(from103.Matches(T("sm_100f"), {9, 0}));

  TargetClause from120{TargetClause::Kind::kFamilyFrom, T("sm_120f")};
  for (absl::string_view yes : {"sm_120f", "sm_120a", "sm_121f", "sm_121a"}) {
    EXPECT_TRUE(from120.Matches(T(yes), {9, 0})) << yes;
  }
}

TEST(TargetClauseTest, SpellsClausesAsTheSpecDoes) {
  EXPECT_EQ((TargetClause{TargetClause::Kind::kFamilyFrom, T("sm_100f"), {8, 8}}).ToString(),
            "sm_100f or higher in the same family (from PTX ISA 8.8)");
  EXPECT_EQ((TargetClause{TargetClause::Kind::kOnionFrom, T("sm_80")}).ToString(), "sm_80 or higher");
}

}  // namespace
}  // namespace matload
